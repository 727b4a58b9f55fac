import Foundation
import Testing
import TestSupport

/// `fallback = NAME` (issue 25, item 4): a text whose service is down goes to the next one,
/// recursively, each at most once, never from a private service to a public one unless the
/// config allows that pair; stderr says where it went and why, history and `--json` name the
/// service that made the paste.
///
/// End to end, through libcurl to a real server: a dead port's refusal hands the text to
/// pinnwand. Each decision of the fallback (a 503 or 429, what is held, chains, loops, private
/// services, repeats) is `InProcessFallbackTests`'s.
@Suite("Fallback services: down here, made there", .temporaryHome, .mock)
struct FallbackTests: ScopedSuite {
    /// A pastie-style section named `name` at `url`, with extra lines.
    static func section(_ name: String, url: String, _ extra: String = "") -> String {
        "[service \"\(name)\"]\nurl = \(url)\ncontent-field = paste[body]\nfield = paste[authorization]=burger\n"
            + extra
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
