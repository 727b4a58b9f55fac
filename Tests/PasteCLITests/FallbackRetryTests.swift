import Foundation
import Testing
import TestSupport

/// Fallback for entries sent again (issue 25, item 4): an outbox entry that `paste --retry` (or
/// the background flush, which runs the same sender) finds its service still down goes on to
/// that service's `fallback`, by the same rules as a fresh text (never from a private service to
/// a public one unless `fallback-public` allows the pair); history names the service that made
/// the paste, and the entry leaves the outbox.
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

    @Test("--retry sends an entry of a dead service to its fallback: one line, the URL, history names the fallback")
    func retryFallsBack() throws {
        let dead = try FaultRetryTests.freePort()
        _ = try leaveInOutbox("waited, then went elsewhere\n", dead: dead)
        try paste.writeConfig(
            "[paste]\nretries = 0\n"
                + FallbackTests.section("m", url: "http://127.0.0.1:\(dead)/pastes/create", "fallback = backup\n")
                + FallbackTests.section("backup", url: mock.url("/pastes/create")))
        let retry = try paste.run(["--retry"])
        let pastes = try mock.pastes()
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(
            retry.err
                == "paste: m failed (cannot connect to 127.0.0.1:\(dead): connection refused): the text went to "
                + "'backup' instead\n")
        #expect(pastes.count == 1)
        #expect(retry.out == mock.url("/pastes/\(pastes.first?.id ?? 0)") + "\n")
        #expect(try mock.rawPaste(id: pastes.first?.id ?? 0) == Data("waited, then went elsewhere\n".utf8))
        #expect(try paste.outboxIDs().isEmpty)
        let history = try paste.historyLines()
        #expect(history.count == 1)
        #expect(history.first?.contains("\"service\":\"backup\"") == true, "history: \(history)")
    }

    @Test("two entries of a dead service: --retry asks it once (one connect in the -v trace), both go to the fallback")
    func deadServiceAskedOnce() throws {
        let dead = try FaultRetryTests.freePort()
        _ = try leaveInOutbox("first of two\n", dead: dead)
        _ = try leaveInOutbox("second of two\n", dead: dead)
        #expect(try paste.outboxIDs().count == 2)
        try paste.writeConfig(
            "[paste]\nretries = 0\n"
                + FallbackTests.section("m", url: "http://127.0.0.1:\(dead)/pastes/create", "fallback = backup\n")
                + FallbackTests.section("backup", url: mock.url("/pastes/create")))
        let retry = try paste.run(["--retry", "-v"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        let went =
            "paste: m failed (cannot connect to 127.0.0.1:\(dead): connection refused): the text went to 'backup' instead"
        #expect(retry.err.components(separatedBy: "\n").filter { $0 == went }.count == 2, "stderr: \(retry.err)")
        let connects = retry.err.components(separatedBy: "\n").filter { $0.contains("Trying 127.0.0.1:\(dead)") }
        #expect(connects.count == 1, "stderr: \(retry.err)")
        let bodies = try mock.pastes().map { try mock.rawPaste(id: $0.id) }
        #expect(Set(bodies) == [Data("first of two\n".utf8), Data("second of two\n".utf8)])
        #expect(try paste.outboxIDs().isEmpty)
    }

    @Test(
        "an entry of a private service does not fall back to a public one; with fallback-public, --outbox send ID does")
    func privateStaysPrivate() throws {
        let dead = try FaultRetryTests.freePort()
        let id = try leaveInOutbox("private, waiting\n", dead: dead, extra: "always-private = true\n")
        let secret = FallbackTests.section(
            "m", url: "http://127.0.0.1:\(dead)/pastes/create", "always-private = true\nfallback = open\n")
        let open = FallbackTests.section("open", url: mock.url("/pastes/create"))
        try paste.writeConfig("[paste]\nretries = 0\n" + secret + open)
        let kept = try paste.run(["--retry"])
        #expect(kept.status == 75)
        #expect(
            kept.err
                == "paste: not falling back from 'm' to 'open': 'open' neither encrypts nor keeps pastes private "
                + "('fallback-public = open' in [service \"m\"] allows it)\n"
                + "paste: cannot connect to 127.0.0.1:\(dead): connection refused\n" + keptLine(id: id, isHeld: false)
                + "\n")
        #expect(try mock.posts().isEmpty)
        #expect(try paste.outboxIDs() == [id])

        try paste.writeConfig("[paste]\nretries = 0\n" + secret + "fallback-public = open\n" + open)
        // The failed --retry put it on its backoff: sent by id (the same sender) now.
        let allowed = try paste.run(["--outbox", "send", id])
        #expect(allowed.status == 0, "stderr: \(allowed.err)")
        #expect(
            allowed.err
                == "paste: m failed (cannot connect to 127.0.0.1:\(dead): connection refused): the text went to "
                + "'open' instead\n")
        #expect(try mock.posts().count == 1)
        #expect(try paste.outboxIDs().isEmpty)
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
