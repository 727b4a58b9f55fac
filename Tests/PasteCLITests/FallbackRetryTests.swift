import Foundation
import Testing
import TestSupport

/// Fallback for entries sent again (issue 25, item 4): an outbox entry that `paste --retry` (or
/// the background flush, which runs the same sender) finds its service still down goes on to
/// that service's `fallback`, by the same rules as a fresh text (never from a private service to
/// a public one unless `fallback-public` allows the pair); history names the service that made
/// the paste, and the entry leaves the outbox.
///
/// End to end, through libcurl to a real server: a retried entry of a dead port goes to
/// pinnwand. The decisions (the fallback's line and history, an unreachable service asked once
/// per run, private entries) are `InProcessRetryTests`'s.
@Suite("Fallback for --retry: an entry whose service is down goes to its fallback", .temporaryHome, .mock)
struct FallbackRetryTests: ScopedSuite {
    /// Leaves `text` in the outbox for service `m`, down at `dead` (no fallback yet); its id.
    func leaveInOutbox(_ text: String, dead: Int, extra: String = "") throws -> String {
        try paste.writeConfig(
            "[paste]\nretries = 0\n" + FallbackTests.section("m", url: "http://127.0.0.1:\(dead)/pastes/create", extra))
        let result = try paste.run(["-S", "m", "--no-copy"], stdin: text)
        #expect(result.status == 75, "stderr: \(result.err)")
        return try #require(try paste.outboxIDs().first)
    }

    @Test("a real server as the fallback of a retried entry: pinnwand takes it")
    func pinnwandFallback() throws {
        let server = try RealPastebinTests.startPinnwand(in: paste.home).server
        defer { server.stop() }
        let dead = try FaultRetryTests.freePort()
        _ = try leaveInOutbox("retried to the real server\n", dead: dead)
        try paste.writeConfig(
            "[paste]\nretries = 0\n"
                + FallbackTests.section("m", url: "http://127.0.0.1:\(dead)/pastes/create", "fallback = pinnwand\n")
                + "[service \"pinnwand\"]\nbase = bpa.st\nurl = \(server.baseURL)/api/v1/paste\n")
        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0, "stderr: \(retry.err)\nserver: \(server.log)")
        #expect(
            retry.err
                == "paste: m failed (cannot connect to 127.0.0.1:\(dead): connection refused): the text went to "
                + "'pinnwand' instead\n")
        let url = retry.out.trimmingCharacters(in: .newlines)
        let slug = try #require(url.split(separator: "/").last.map(String.init))
        #expect(try fetch("\(server.baseURL)/raw/\(slug)") == Data("retried to the real server\n".utf8))
        let history = try paste.historyLines()
        #expect(history.first?.contains("\"service\":\"pinnwand\"") == true, "history: \(history)")
        #expect(try paste.outboxIDs().isEmpty)
    }
}
