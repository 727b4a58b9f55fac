import Foundation
import Testing
import TestSupport

/// `paste --retry` does what it says (issue 25, items 1 and 2): run by a person it sends every
/// retryable entry now, whatever the backoff; unattended it keeps the pacing; the listing says
/// when each entry is tried next; `-n` lists what would go; a permanent refusal is held; a dead
/// service is tried once per run.
///
/// End to end on a real terminal (script(1)'s pseudo-terminal): unattended the backoff holds,
/// attended every entry goes now. The listing, `-n`, held refusals and an unreachable service
/// once per run are `InProcessRetryTests`'s (`listingSaysNextTry`, `dryRunLists`,
/// `permanentRefusalHeld`, `deadServiceOncePerRun`).
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
}
