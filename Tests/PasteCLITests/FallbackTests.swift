import Foundation
import Testing
import TestSupport

/// `fallback = NAME` (issue 25, item 4): a text whose service is down goes to the next one,
/// recursively, each at most once, never from a private service to a public one unless the
/// config allows that pair; stderr says where it went and why, history and `--json` name the
/// service that made the paste.
@Suite("Fallback services: down here, made there", .temporaryHome, .mock)
struct FallbackTests: ScopedSuite {
    /// A pastie-style section named `name` at `url`, with extra lines.
    static func section(_ name: String, url: String, _ extra: String = "") -> String {
        "[service \"\(name)\"]\nurl = \(url)\ncontent-field = paste[body]\nfield = paste[authorization]=burger\n"
            + extra
    }

    /// A config whose service `m` is a port nobody listens on, falling back to `backup` (the
    /// mock), with `retries` in-run retries; returns the dead port.
    func writeDeadPrimaryWithBackup(retries: Int = 0) throws -> Int {
        let dead = try FaultRetryTests.freePort()
        try paste.writeConfig(
            "[paste]\nretries = \(retries)\n"
                + Self.section("m", url: "http://127.0.0.1:\(dead)/pastes/create", "fallback = backup\n")
                + Self.section("backup", url: mock.url("/pastes/create")))
        return dead
    }

    @Test("an unreachable service falls back: the line says where and why; --json and history name the fallback")
    func unreachableFallsBack() throws {
        let dead = try writeDeadPrimaryWithBackup()
        let result = try paste.run(["-S", "m", "--json", "--no-copy"], stdin: "went elsewhere\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(
            result.err
                == "paste: m failed (cannot connect to 127.0.0.1:\(dead): connection refused): the text went to "
                + "'backup' instead\n")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(object["service"] as? String == "backup")
        let url = try #require(object["url"] as? String)
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("went elsewhere\n".utf8))
        #expect(try paste.outboxContents().isEmpty)
        let history = try paste.historyLines()
        #expect(history.count == 1)
        #expect(history.first?.contains("\"service\":\"backup\"") == true, "history: \(history)")
    }

    @Test("a refused connection hands over to the fallback at once: no in-run retries of a dead host")
    func refusedHandsOverAtOnce() throws {
        // Three retries allowed: a dead host with a fallback uses none of them.
        let dead = try writeDeadPrimaryWithBackup(retries: 3)
        let result = try paste.run(["-S", "m", "--no-copy"], stdin: "handed over\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(
            result.err
                == "paste: m failed (cannot connect to 127.0.0.1:\(dead): connection refused): the text went to "
                + "'backup' instead\n")
        #expect(try mock.pastes().map(\.data) == [Data("handed over\n".utf8)])

        // Without a fallback the same dead host is asked again, as before.
        try paste.writeConfig(
            "[paste]\nretries = 1\n" + Self.section("m", url: "http://127.0.0.1:\(dead)/pastes/create"))
        let alone = try paste.run(["-S", "m", "--no-copy"], stdin: "waits\n")
        #expect(alone.status == 75)
        #expect(alone.err.contains("paste: retrying in "), "stderr: \(alone.err)")
    }

    @Test("a 500 after the whole body is held: the paste may exist, so the text never reaches the fallback too")
    func errorAfterBodyHeld() throws {
        let backup = try MockServer()
        try paste.writeConfig(
            "[paste]\nretries = 0\n" + Self.section("m", url: mock.url("/pastes/create"), "fallback = backup\n")
                + Self.section("backup", url: backup.url("/pastes/create")))
        try mock.addFault(.status(500), count: 1, path: "/pastes/create")
        let result = try paste.run(["-S", "m", "--no-copy"], stdin: "maybe made\n")
        #expect(result.status == 69, "stderr: \(result.err)")
        let id = try #require(try paste.outboxIDs().first)
        #expect(result.err.hasPrefix("paste: m answered HTTP 500"), "stderr: \(result.err)")
        #expect(result.err.hasSuffix(keptLine(id: id, isHeld: true) + "\n"), "stderr: \(result.err)")
        #expect(try backup.posts().isEmpty)
        #expect(try paste.outboxStates() == ["held"])
    }

    @Test("the same text again while the primary is down reuses the fallback's paste: one paste, one URL")
    func repeatAcrossFallback() throws {
        _ = try writeDeadPrimaryWithBackup()
        let first = try paste.run(["-S", "m", "--no-copy"], stdin: "twice\n")
        #expect(first.status == 0, "stderr: \(first.err)")
        let second = try paste.run(["-S", "m", "--no-copy"], stdin: "twice\n")
        #expect(second.status == 0, "stderr: \(second.err)")
        #expect(second.out == first.out)
        #expect(
            second.err == "paste: the same text went to backup moments ago; reusing its URL (--new makes another)\n")
        #expect(try mock.posts().count == 1)
    }

    @Test("a 503 falls back with the same title where the fallback has one; a 400 does not fall back")
    func statusFallsBack() throws {
        let backup = try MockServer()
        try paste.writeConfig(
            "[paste]\nretries = 0\n"
                + Self.section("m", url: mock.url("/pastes/create"), "title-field = paste[title]\nfallback = backup\n")
                + Self.section("backup", url: backup.url("/pastes/create"), "title-field = paste[title]\n"))
        try mock.addFault(.status(503), count: 1, path: "/pastes/create")
        let result = try paste.run(["-S", "m", "-t", "notes", "--no-copy"], stdin: "unavailable here\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "paste: m failed (m answered HTTP 503): the text went to 'backup' instead\n")
        #expect(result.out.hasPrefix(backup.baseURL + "/pastes/"))
        let post = try #require(try backup.posts().first)
        #expect(post.field("paste[title]")?.text == "notes")
        #expect(post.field("paste[body]")?.text == "unavailable here\n")

        try mock.addFault(.status(400, body: "bad request"), count: 1, path: "/pastes/create")
        let refused = try paste.run(["-S", "m", "--no-copy"], stdin: "refused here\n")
        #expect(refused.status == 69)
        #expect(refused.err.hasPrefix("paste: m answered HTTP 400: bad request\n"), "stderr: \(refused.err)")
        #expect(try backup.posts().count == 1)
    }

    @Test("a loop of dead fallbacks tries each once, then the text waits for its own service")
    func loopTriesEachOnce() throws {
        let a = try FaultRetryTests.freePort()
        let b = try FaultRetryTests.freePort()
        try paste.writeConfig(
            "[paste]\nretries = 0\n"
                + Self.section("a", url: "http://127.0.0.1:\(a)/pastes/create", "fallback = b\n")
                + Self.section("b", url: "http://127.0.0.1:\(b)/pastes/create", "fallback = a\n"))
        let result = try paste.run(["-S", "a", "--no-copy"], stdin: "nowhere\n")
        #expect(result.status == 75)
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            result.err
                == "paste: cannot connect to 127.0.0.1:\(a): connection refused\n" + keptLine(id: id, isHeld: false)
                + "\n")
        #expect(try paste.outboxListing().first?["service"] as? String == "a")
    }

    @Test("a private service never falls back to a public one, unless fallback-public allows the pair")
    func privateStaysPrivate() throws {
        let dead = try FaultRetryTests.freePort()
        let secret = Self.section(
            "secret", url: "http://127.0.0.1:\(dead)/pastes/create", "always-private = true\nfallback = open\n")
        let open = Self.section("open", url: mock.url("/pastes/create"))
        try paste.writeConfig("[paste]\nretries = 0\n" + secret + open)
        let kept = try paste.run(["-S", "secret", "--no-copy"], stdin: "private text\n")
        #expect(kept.status == 75)
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            kept.err
                == "paste: not falling back from 'secret' to 'open': 'open' neither encrypts nor keeps pastes private "
                + "('fallback-public = open' in [service \"secret\"] allows it)\n"
                + "paste: cannot connect to 127.0.0.1:\(dead): connection refused\n" + keptLine(id: id, isHeld: false)
                + "\n")
        #expect(try mock.posts().isEmpty)

        try paste.writeConfig("[paste]\nretries = 0\n" + secret + "fallback-public = open\n" + open)
        let allowed = try paste.run(["-S", "secret", "--no-copy"], stdin: "allowed to go\n")
        #expect(allowed.status == 0, "stderr: \(allowed.err)")
        #expect(try mock.posts().count == 1)
    }

    @Test("a real server as the fallback: pinnwand takes the text of a dead service")
    func pinnwandFallback() throws {
        let server = try RealPastebinTests.startPinnwand(in: paste.home).server
        defer { server.stop() }
        let dead = try FaultRetryTests.freePort()
        try paste.writeConfig(
            "[paste]\nretries = 0\n"
                + Self.section("m", url: "http://127.0.0.1:\(dead)/pastes/create", "fallback = pinnwand\n")
                + "[service \"pinnwand\"]\nbase = bpa.st\nurl = \(server.baseURL)/api/v1/paste\n")
        let result = try paste.run(["-S", "m", "--json", "--no-copy"], stdin: "to the real server\n")
        #expect(result.status == 0, "stderr: \(result.err)\nserver: \(server.log)")
        #expect(
            result.err
                == "paste: m failed (cannot connect to 127.0.0.1:\(dead): connection refused): the text went to "
                + "'pinnwand' instead\n")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(object["service"] as? String == "pinnwand")
        let url = try #require(object["url"] as? String)
        let slug = try #require(url.split(separator: "/").last.map(String.init))
        #expect(try fetch("\(server.baseURL)/raw/\(slug)") == Data("to the real server\n".utf8))
    }
}
