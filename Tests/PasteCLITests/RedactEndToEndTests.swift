import Foundation
import Testing
import TestSupport

/// `paste --redact` against a real pastebin (pinnwand from PyPI, on 127.0.0.1) under a real X
/// server: the server holds the masked text, byte-exact elsewhere; `--json` lists the
/// replacements; neither the clipboard nor the history ever holds a value (issue 42, item 3).
@Suite(
    "--redact against pinnwand: masked on the server, nowhere a value", .tags(.x11), .needsXServer, .xvfb,
    .temporaryHome, .serialized)
struct RedactEndToEndTests: ScopedSuite {
    static let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"
    static let password = "Tr0ub4dor3x"
    /// Awkward bytes around the secrets (CRLF, UTF-8, quotes, a tab) that must arrive as they were.
    static let text =
        "ci log «ünïcödé» \"quoted\"\r\n\tgit push https://bot:\(password)@git.example.org/app.git\r\n"
        + "GITHUB_TOKEN=\(token)\nthe end, no newline"
    static let masked =
        "ci log «ünïcödé» \"quoted\"\r\n\tgit push https://bot:[redacted: url-credentials]@git.example.org/app.git\r\n"
        + "GITHUB_TOKEN=[redacted: github-token]\nthe end, no newline"

    func config(_ server: ServerProcess) throws {
        try paste.writeConfig(
            """
            [service "pinnwand"]
                base = bpa.st
                url = \(server.baseURL)/api/v1/paste
            """)
    }

    /// The history file and the clipboard, checked for every value.
    func expectNoValue() throws {
        let history = try paste.historyLines()
        #expect(!history.isEmpty)
        for line in history { #expect(!line.contains(Self.token) && !line.contains(Self.password), "\(line)") }
        let clipboard = try xvfb.clipboardText()
        #expect(!clipboard.contains(Self.token) && !clipboard.contains(Self.password))
    }

    @Test("stdin with --redact --json: pinnwand holds the masked text; the object lists the replacements")
    func standardInput() throws {
        let server = try RealPastebinTests.startPinnwand(in: paste.home).server
        defer { server.stop() }
        try config(server)
        let result = try paste.run(["-S", "pinnwand", "--redact", "--json"], stdin: Self.text)
        #expect(result.status == 0, "stderr: \(result.err)\nserver: \(server.log)")
        #expect(result.err == "")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let url = try #require(object["url"] as? String)
        let slug = try #require(url.split(separator: "/").last.map(String.init))
        #expect(try fetch("\(server.baseURL)/raw/\(slug)") == Data(Self.masked.utf8))
        let redacted = try #require(object["redacted"] as? [[String: Any]])
        #expect(redacted.count == 2)
        #expect(redacted[0]["kind"] as? String == "url-credentials")
        #expect(redacted[0]["line"] as? Int == 2)
        #expect(redacted[0]["column"] as? Int == 11)
        #expect(redacted[1]["kind"] as? String == "github-token")
        #expect(redacted[1]["line"] as? Int == 3)
        #expect(redacted[1]["column"] as? Int == 14)
        #expect(!result.out.contains(Self.token) && !result.out.contains(Self.password))
        #expect(try xvfb.clipboardText() == url)
        try expectNoValue()
    }

    @Test("the clipboard with --redact: the masked text goes up, and the URL replaces the secret on the clipboard")
    func clipboard() throws {
        let server = try RealPastebinTests.startPinnwand(in: paste.home).server
        defer { server.stop() }
        try config(server)
        try xvfb.putOnClipboard(Self.text)
        let result = try paste.run(["-c", "-S", "pinnwand", "--redact", "--no-notify"], stdin: "ignored with -c")
        #expect(result.status == 0, "stderr: \(result.err)\nserver: \(server.log)")
        #expect(
            result.err
                == "paste: masked 2 secrets in the clipboard: url-credentials at line 2, column 11, "
                + "github-token at line 3, column 14\n")
        let url = result.out.trimmingCharacters(in: .newlines)
        let slug = try #require(url.split(separator: "/").last.map(String.init))
        #expect(try fetch("\(server.baseURL)/raw/\(slug)") == Data(Self.masked.utf8))
        #expect(try xvfb.clipboardText() == url)
        try expectNoValue()
    }
    /// Piped stdin eight times what is held in memory: one secret on its first line, one on its
    /// last.
    static let fillerLine = "2026-12-06 11:00:00 worker[42]: request served in 12 ms, status 200\n"
    static let fillerLines = (64 << 20) / fillerLine.utf8.count
    static var filler: String { String(repeating: fillerLine, count: fillerLines) }

    @Test(
        "a 64 MiB pipe with --redact: pinnwand holds the masked text byte-exact; paste's memory stays flat",
        .tags(.slow))
    func largeStream() throws {
        let server = try RealPastebinTests.startPinnwand(in: paste.home, pasteSize: 1 << 30).server
        defer { server.stop() }
        try config(server)
        let filler = Self.filler
        let text = "GH=\(Self.token)\n" + filler + "password = \"\(Self.password)\"\nend\n"
        let masked = "GH=[redacted: github-token]\n" + filler + "password = \"[redacted: password]\"\nend\n"
        let input = try paste.home.write(text, to: "big.log")
        let small = try paste.home.write("GH=\(Self.token)\n", to: "small.log")
        // The same run on a one-line text: what the process needs whatever the size.
        let (base, basePeak) = try paste.runMeasuringPeak(
            "cat '\(small)'", "-S pinnwand --redact --json --no-copy", timeout: 120)
        #expect(base.status == 0, "stderr: \(base.err)")
        let (result, peak) = try paste.runMeasuringPeak(
            "cat '\(input)'", "-S pinnwand --redact --json --no-copy", timeout: 600)
        #expect(result.status == 0, "stderr: \(result.err)\nserver: \(server.log.suffix(2000))")
        #expect(result.err == "")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let url = try #require(object["url"] as? String)
        let slug = try #require(url.split(separator: "/").last.map(String.init))
        let held = try fetch("\(server.baseURL)/raw/\(slug)")
        #expect(held.count == masked.utf8.count)
        let isMasked = held == Data(masked.utf8)
        #expect(isMasked)
        let redacted = try #require(object["redacted"] as? [[String: Any]])
        #expect(redacted.map { $0["kind"] as? String } == ["github-token", "password"])
        #expect(redacted.map { $0["line"] as? Int } == [1, Self.fillerLines + 2])
        #expect(redacted.map { $0["column"] as? Int } == [4, 1])
        // Memory: the 8 MiB start held before the stream is known to be one, and a chunk at a
        // time after it, never the text (64 MiB): measured 43 MiB, 15.5 MiB above the same run
        // on one line (27.5 MiB, the process itself).
        let peakKiB = try #require(peak)
        let baseKiB = try #require(basePeak)
        #expect(peakKiB - baseKiB < 24 << 10, "peak RSS \(peakKiB) KiB, \(baseKiB) KiB for one line")
        #expect(peakKiB < 64 << 10, "peak RSS \(peakKiB) KiB")
        // Nothing raw (or masked) is left in the outbox once the paste is made.
        #expect(try paste.outboxContents().isEmpty)
        for line in try paste.historyLines() { #expect(!line.contains(Self.token) && !line.contains(Self.password)) }
    }
}
