import Foundation
import Testing
import TestSupport

/// `paste --retry` does what it says (issue 25, items 1 and 2): run by a person it sends every
/// retryable entry now, whatever the backoff; unattended it keeps the pacing; the listing says
/// when each entry is tried next; `-n` lists what would go; a permanent refusal is held; a dead
/// service is tried once per run.
@Suite("--retry: now at a terminal, paced unattended, permanent refusals held", .temporaryHome, .mock)
struct RetryNowTests: ScopedSuite {
    /// A config with a service `m` on `port` (the mock's, or one where nothing listens).
    static func config(port: Int) -> String {
        """
        [paste]
        retries = 0
        [service "m"]
        url = http://127.0.0.1:\(port)/pastes/create
        content-field = paste[body]
        field = paste[authorization]=burger

        """
    }

    /// `paste arguments…` on a pseudo-terminal (script(1)): what it wrote (stdout and stderr
    /// together, lines ending in CR LF) and its status.
    func runAtTerminal(_ arguments: [String]) throws -> ProcessResult {
        let command = ([BuiltProducts.path(of: "paste")] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try runProcess(
            "/usr/bin/script", ["-qfec", command + " </dev/null", "/dev/null"], environment: paste.environment,
            timeout: 60)
    }

    /// Leaves `texts` in the outbox, each refused twice (the upload, then an unattended
    /// `--retry`, which tries one entry of a dead service per run): each is on its backoff.
    func leaveInOutbox(_ texts: [String]) throws -> Int {
        let deadPort = try FaultRetryTests.freePort()
        try paste.writeConfig(Self.config(port: deadPort))
        for text in texts {
            let result = try paste.run(["-S", "m", "--no-copy"], stdin: text)
            #expect(result.status == 75, "stderr: \(result.err)")
        }
        for _ in texts {
            let retry = try paste.run(["--retry"])
            #expect(retry.status == 75, "stderr: \(retry.err)")
        }
        #expect(try paste.outboxListing().compactMap { $0["attempts"] as? Int } == texts.map { _ in 2 })
        return deadPort
    }

    @Test("unattended, --retry keeps the backoff (75, nothing sent); at a terminal it sends every entry now")
    func attendedSendsNow() throws {
        _ = try leaveInOutbox(["first\n", "second\n"])
        try paste.writeConfig(Self.config(port: mock.port))
        let cron = try paste.run(["--retry"])
        #expect(cron.status == 75, "stderr: \(cron.err)")
        #expect(cron.out == "")
        #expect(cron.err == "")
        #expect(try mock.posts().isEmpty)

        let person = try runAtTerminal(["--retry"])
        #expect(person.status == 0, "output: \(person.out)")
        let urls = person.out.split(separator: "\r\n").map(String.init)
        #expect(urls.count == 2, "output: \(person.out.debugDescription)")
        #expect(urls.allSatisfy { $0.hasPrefix(mock.baseURL + "/pastes/") }, "output: \(person.out.debugDescription)")
        let sent = try urls.map { try mock.rawPaste(id: try #require(pasteID($0))) }
        #expect(sent == [Data("first\n".utf8), Data("second\n".utf8)])
        #expect(try paste.outboxContents().isEmpty)
        #expect(try paste.historyLines().count == 2)
    }

    @Test("--outbox says per entry when it is tried next and why it waits; a fresh one is due")
    func listingSaysNextTry() throws {
        _ = try leaveInOutbox(["waiting\n"])
        let listing = try paste.run(["--outbox"])
        #expect(listing.status == 0)
        #expect(listing.err == "")
        let line = listing.out
        let match = try #require(
            line.firstMatch(
                of:
                    /^([0-9a-f]{7})  retryable  just now  m  8 B  2 attempts  next try in ([0-9]+ s|2 min) \(backoff after 2 failed attempts; 'paste --retry' at a terminal sends it now\)  "waiting"  last error: cannot connect to 127\.0\.0\.1:[0-9]+: connection refused\n$/
            ), "listing: \(line.debugDescription)")
        // The second backoff is 60 to 120 seconds (two minutes, jittered down by up to half).
        if let seconds = Int(match.output.2.prefix { $0.isNumber }), match.output.2.hasSuffix(" s") {
            #expect((59...120).contains(seconds), "listing: \(line)")
        }

        // Once its next attempt has passed, it is due.
        let id = String(match.output.1)
        try Self.setNextAttempt(of: id, in: paste, to: "2000-01-01T00:00:00Z")
        let due = try paste.run(["--outbox"])
        #expect(due.out.contains("  2 attempts  due  \"waiting\"  "), "listing: \(due.out)")
    }

    /// Rewrites an entry's `next_attempt` in its metadata file.
    static func setNextAttempt(of id: String, in paste: PasteRunner, to time: String) throws {
        let folder = paste.home.stateHome.appendingPathComponent("paste/outbox")
        let name = try #require(try paste.outboxListing().first { $0["id"] as? String == id }?["name"] as? String)
        let url = folder.appendingPathComponent(name + ".json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        object["next_attempt"] = time
        try JSONSerialization.data(withJSONObject: object).write(to: url)
    }

    @Test("--retry -n lists id, service, size and preview of what it would send, and sends nothing")
    func dryRunLists() throws {
        _ = try leaveInOutbox(["one line\n", "two\nlines\n"])
        try paste.writeConfig(Self.config(port: mock.port))
        let ids = try paste.outboxIDs()
        try #require(ids.count == 2)
        // Unattended: nothing is due yet, and it says why.
        let cron = try paste.run(["--retry", "-n"])
        #expect(cron.status == 0)
        #expect(cron.out == "")
        #expect(
            cron.err
                == "paste: nothing is due in the outbox: 2 retryable entries wait for its backoff; "
                + "'paste --outbox' says when\n")
        // At a terminal: both would go now.
        let person = try runAtTerminal(["--retry", "-n"])
        #expect(person.status == 0)
        #expect(
            person.out
                == "would send \(ids[0])  m  9 B  \"one line\"\r\nwould send \(ids[1])  m  10 B  \"two\"\r\n")
        #expect(try mock.posts().isEmpty)
        #expect(try paste.outboxContents().count == 2)
    }

    @Test("a 400 is held with the server's reason and never resent by --retry; 429 still waits to be retried")
    func permanentRefusalHeld() throws {
        try paste.writeConfig(Self.config(port: mock.port))
        try mock.addFault(.status(400, body: "unknown field paste[body]"), count: 1, path: "/pastes/create")
        let refused = try paste.run(["-S", "m", "--no-copy"], stdin: "doomed\n")
        #expect(refused.status == 69)
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            refused.err
                == "paste: m answered HTTP 400: unknown field paste[body]\n"
                + "paste: the text is held in the outbox (\(id)): the service refused it, so 'paste --retry' does not "
                + "send it again; 'paste --outbox send \(id)' sends it anyway, 'paste --outbox drop \(id)' drops it\n")
        let listing = try paste.outboxListing()
        #expect(listing.first?["state"] as? String == "held")
        #expect(listing.first?["last_error"] as? String == "m answered HTTP 400: unknown field paste[body]")
        let retry = try runAtTerminal(["--retry"])
        #expect(retry.status == 0)
        #expect(
            retry.out
                == "paste: 1 outbox entry is held: 'paste --outbox' lists it; 'paste --outbox send ID' sends one\r\n")
        #expect(try mock.posts().count == 1)

        try mock.addFault(.status(429), count: 1, path: "/pastes/create")
        let later = try paste.run(["-S", "m", "--no-copy"], stdin: "later\n")
        #expect(later.status == 75)
        #expect(try paste.outboxStates() == ["held", "retryable"])
    }

    @Test("within one --retry, a dead service is tried once: its other entries wait, the others go")
    func deadServiceOncePerRun() throws {
        let deadPort = try leaveInOutbox(["dead 1\n", "dead 2\n", "dead 3\n"])
        try paste.writeConfig(
            Self.config(port: deadPort)
                + "[service \"live\"]\nurl = \(mock.url("/pastes/create"))\ncontent-field = paste[body]\n"
                + "field = paste[authorization]=burger\n")
        try mock.addFault(.status(503), count: 1, path: "/pastes/create")
        let live = try paste.run(["-S", "live", "--no-copy"], stdin: "alive\n")
        #expect(live.status == 75)
        let ids = try paste.outboxIDs()
        try #require(ids.count == 4)
        let started = Date()
        let retry = try runAtTerminal(["--retry"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(retry.status == 75)
        let lines = retry.out.split(separator: "\r\n").map(String.init)
        #expect(lines.count == 4, "output: \(retry.out.debugDescription)")
        if lines.count == 4 {
            #expect(lines[0] == "paste: cannot connect to 127.0.0.1:\(deadPort): connection refused")
            #expect(lines[1] == keptLine(id: ids[0], isHeld: false))
            #expect(lines[2].hasPrefix(mock.baseURL + "/pastes/"))
            #expect(
                lines[3] == "paste: 2 more outbox entries for 'm' wait for the next run: the service is unreachable")
        }
        #expect(elapsed < 20)
        #expect(try paste.outboxContents() == ["dead 1\n", "dead 2\n", "dead 3\n"].map { Data($0.utf8) })
        // Only the entry tried counts an attempt.
        #expect(try paste.outboxListing().compactMap { $0["attempts"] as? Int } == [3, 2, 2])
    }
}
