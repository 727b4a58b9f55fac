import Foundation
import PasteCore
import Testing
import TestSupport

@testable import PasteCLI

/// `--retry`'s pacing, listing and fallbacks in process: what `RetryNowTests` and
/// `FallbackRetryTests` showed by spawning paste, each decision checked here against the
/// scripted transport. Those suites keep one end-to-end spawn each (a real terminal; a real
/// server as the fallback).
extension InProcessRetryTests {
    /// Leaves each of `texts` in the outbox for `m`, refused, then on the backoff the server
    /// asked for (an hour): nothing is due unattended. Their ids, oldest first.
    func leaveOnBackoff(_ texts: [String], service: String = "m") throws -> [String] {
        for text in texts {
            let run = try harness.run(
                ["--no-copy", "--new", "-S", service], stdin: .text(text),
                answers: [.http(503, body: "busy", headers: ["Retry-After": "3600"])])
            #expect(run.status == 75, "stderr: \(run.err)")
        }
        return try harness.outboxEntries().compactMap { $0["id"] as? String }
    }

    @Test("unattended, --retry keeps the backoff (75, silent, nothing sent); attended it sends every entry now")
    func attendedSendsNow() throws {
        try harness.writeConfig(harnessConfig())
        _ = try leaveOnBackoff(["first\n", "second\n"])
        let cron = try harness.run(["--retry"])
        #expect(cron.status == 75, "stderr: \(cron.err)")
        #expect(cron.out == "")
        #expect(cron.err == "")
        #expect(cron.requests.isEmpty)

        let person = try attended.run(
            ["--retry"], answers: [.created("https://m.test/p/1"), .created("https://m.test/p/2")])
        #expect(person.status == 0, "stderr: \(person.err)")
        #expect(person.out == "https://m.test/p/1\nhttps://m.test/p/2\n")
        #expect(person.requests.map(\.text) == ["first\n", "second\n"])
        #expect(try harness.outboxEntries().isEmpty)
        #expect(try harness.history().count == 2)
    }

    @Test("--outbox says per entry when it is tried next and why it waits; once its time has passed it is due")
    func listingSaysNextTry() throws {
        try harness.writeConfig(harnessConfig())
        _ = try failedRun(.refused(), text: "waiting\n")
        // A second failure, unattended once it is due: the second backoff (one to two minutes).
        try setNextAttempt(to: "2000-01-01T00:00:00Z")
        let retry = try harness.run(["--retry"], answers: [.refused()])
        #expect(retry.status == 75, "stderr: \(retry.err)")
        let listing = try harness.run(["--outbox"])
        #expect(listing.status == 0)
        #expect(listing.err == "")
        let line = listing.out
        let match = try #require(
            line.firstMatch(
                of:
                    /^([0-9a-f]{7})  retryable  just now  m  8 B  2 attempts  next try in ([0-9]+ s|2 min) \(backoff after 2 failed attempts; 'paste --retry' at a terminal sends it now\)  "waiting"  last error: cannot connect to m\.test:443: connection refused\n$/
            ), "listing: \(line.debugDescription)")
        // The second backoff is 60 to 120 seconds (two minutes, jittered down by up to half).
        if let seconds = Int(match.output.2.prefix { $0.isNumber }), match.output.2.hasSuffix(" s") {
            #expect((59...120).contains(seconds), "listing: \(line)")
        }
        try setNextAttempt(to: "2000-01-01T00:00:00Z")
        let due = try harness.run(["--outbox"])
        #expect(due.out.contains("  2 attempts  due  \"waiting\"  "), "listing: \(due.out)")
    }

    /// Rewrites the `next_attempt` of every outbox entry.
    func setNextAttempt(to time: String) throws {
        let folder = home.stateHome.appendingPathComponent("paste/outbox")
        for entry in try harness.outboxEntries() {
            let url = folder.appendingPathComponent(try #require(entry["name"] as? String) + ".json")
            var object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            object["next_attempt"] = time
            try JSONSerialization.data(withJSONObject: object).write(to: url)
        }
    }

    @Test("--retry -n: unattended, nothing is due and it says why; attended, id, service, size and preview of each")
    func dryRunLists() throws {
        try harness.writeConfig(harnessConfig())
        let ids = try leaveOnBackoff(["one line\n", "two\nlines\n"])
        try #require(ids.count == 2)
        let cron = try harness.run(["--retry", "-n"])
        #expect(cron.status == 0)
        #expect(cron.out == "")
        #expect(
            cron.err
                == "paste: nothing is due in the outbox: 2 retryable entries wait for its backoff; "
                + "'paste --outbox' says when\n")
        let person = try attended.run(["--retry", "-n"])
        #expect(person.status == 0)
        #expect(
            person.out == "would send \(ids[0])  m  9 B  \"one line\"\nwould send \(ids[1])  m  10 B  \"two\"\n")
        #expect(person.requests.isEmpty)
        #expect(try harness.outboxContents() == ["one line\n", "two\nlines\n"])
    }

    @Test("a 400 is held with the server's reason as its last error, never resent by --retry; a 429 waits")
    func permanentRefusalHeld() throws {
        try harness.writeConfig(harnessConfig())
        let id = try failedRun(.http(400, body: "unknown field content"), text: "doomed\n")
        let entry = try #require(try harness.outboxEntries().first)
        #expect(entry["state"] as? String == "held")
        #expect(entry["last_error"] as? String == "m answered HTTP 400: unknown field content")
        try retryLeavesHeld()
        #expect(try harness.outboxEntries().first?["id"] as? String == id)

        _ = try failedRun(.http(429, body: "slow down"), text: "later\n")
        #expect(try harness.outboxStates() == ["held", "retryable"])
    }

    @Test("within one --retry, an unreachable service is tried once: its other entries wait, the others go")
    func deadServiceOncePerRun() throws {
        try harness.writeConfig(harnessConfig(fallbacks: []) + Self.liveSection)
        for text in ["dead 1\n", "dead 2\n", "dead 3\n"] { _ = try failedRun(.refused(), text: text) }
        _ = try harness.run(
            ["--no-copy", "-S", "live"], stdin: .text("alive\n"), answers: [.http(503, body: "busy")])
        let ids = try harness.outboxEntries().compactMap { $0["id"] as? String }
        try #require(ids.count == 4)
        let run = try attended.run(["--retry"], answers: [.refused(), .created("https://live.test/p/1")])
        #expect(run.status == 75)
        #expect(run.requests.map(\.url) == ["https://m.test/upload", "https://live.test/upload"])
        #expect(run.out == "https://live.test/p/1\n")
        #expect(
            run.err
                == "paste: cannot connect to m.test:443: connection refused\n\(whereLine(id: ids[0], isHeld: false))\n"
                + "paste: 2 more outbox entries for 'm' wait for the next run: the service is unreachable\n")
        #expect(try harness.outboxContents() == ["dead 1\n", "dead 2\n", "dead 3\n"])
        // Only the entry tried counts an attempt.
        #expect(try harness.outboxEntries().compactMap { $0["attempts"] as? Int } == [2, 1, 1])
    }

    static let liveSection =
        "[service \"live\"]\nurl = https://live.test/upload\ncontent-field = content\nresult = body\n"

    @Test("two entries of an unreachable service with a fallback: it is asked once, both go to the fallback")
    func unreachableOnceThenFallback() throws {
        try harness.writeConfig(harnessConfig())
        _ = try failedRun(.refused(), text: "first of two\n")
        _ = try failedRun(.refused(), text: "second of two\n")
        try harness.writeConfig(harnessConfig(fallbacks: ["b"]))
        let run = try attended.run(
            ["--retry"], answers: [.refused(), .created("https://b.test/p/1"), .created("https://b.test/p/2")])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.requests.map(\.url) == ["https://m.test/upload", "https://b.test/upload", "https://b.test/upload"])
        #expect(run.requests.dropFirst().map(\.text) == ["first of two\n", "second of two\n"])
        let went = "paste: m failed (cannot connect to m.test:443: connection refused): the text went to 'b' instead\n"
        #expect(run.err == went + went)
        #expect(run.out == "https://b.test/p/1\nhttps://b.test/p/2\n")
        #expect(try harness.outboxEntries().isEmpty)
        #expect(try harness.history().map { $0["service"] as? String } == ["b", "b"])
    }

    @Test("an entry of a private service does not fall back to a public one; with fallback-public, --outbox send does")
    func privateEntryStaysPrivate() throws {
        let secret = privateServiceSection
        try harness.writeConfig(harnessConfig() + secret)
        let down = ScriptedTransport.Answer.refused("secret")
        let first = try harness.run(["--no-copy", "-S", "secret"], stdin: .text("private, waiting\n"), answers: [down])
        #expect(first.status == 75)
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        let kept = try attended.run(["--retry"], answers: [down])
        #expect(kept.status == 75)
        #expect(kept.requests.map(\.url) == ["https://secret.test/upload"])
        #expect(kept.err == privateFallbackRefusedLines(id: id))
        #expect(try harness.outboxEntries().compactMap { $0["id"] as? String } == [id])

        try harness.writeConfig(harnessConfig() + secret + "fallback-public = m\n")
        let allowed = try harness.run(["--outbox", "send", id], answers: [down, .created("https://m.test/p/9")])
        #expect(allowed.status == 0, "stderr: \(allowed.err)")
        #expect(
            allowed.err
                == "paste: secret failed (cannot connect to secret.test:443: connection refused): the text went to "
                + "'m' instead\n")
        #expect(allowed.requests.map(\.url) == ["https://secret.test/upload", "https://m.test/upload"])
        #expect(allowed.out == "https://m.test/p/9\n")
        #expect(try harness.outboxEntries().isEmpty)
    }
}
