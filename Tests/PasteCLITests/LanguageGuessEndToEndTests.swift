import Foundation
import Testing
import TestSupport

/// Text with no file name gets a language guessed from its first bytes, where the service has a
/// language field (issue 43, item 3): sent, shown by `-n`, named by `--json`, and off with
/// `-l text` or `guess-language = false`.
@Suite("A language guessed from the text, end to end", .temporaryHome, .mock)
struct LanguageGuessEndToEndTests: ScopedSuite {
    static let python = "import os\n\ndef main():\n    print(os.getcwd())\n"

    /// The lexers of the pinnwand requests the mock saw, in order.
    func lexers() throws -> [String?] {
        try mock.requests().map { request in
            let body = try JSONSerialization.jsonObject(with: request.bodyData ?? Data()) as? [String: Any]
            return (body?["files"] as? [[String: String]])?.first?["lexer"]
        }
    }

    @Test("piped code goes with its language; --json names it; prose stays text")
    func sent() throws {
        try paste.writeConfig("[service \"bpa.st\"]\n    url = \(mock.url("/api/v1/paste"))\n")
        let result = try paste.run(["-S", "bpa.st", "--json", "--no-copy"], stdin: Self.python)
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(object["guessed_language"] as? String == "python")
        let prose = try paste.run(["-S", "bpa.st", "--json", "--no-copy"], stdin: "See you at noon.\n")
        let plain = try #require(try JSONSerialization.jsonObject(with: prose.stdout) as? [String: Any])
        #expect(plain["guessed_language"] == nil)
        #expect(try lexers() == ["python", "text"])
    }

    @Test("-n shows the guess; -l text and guess-language = false send none")
    func shownAndOff() throws {
        try paste.writeConfig("[service \"bpa.st\"]\n    url = \(mock.url("/api/v1/paste"))\n")
        let dry = try paste.run(["-S", "bpa.st", "-n"], stdin: Self.python)
        #expect(dry.status == 0)
        #expect(dry.out.contains("\"lexer\": \"python\""), "\(dry.out)")
        #expect(dry.out.hasSuffix("(language python guessed from the text; -l text sends none)\n"))
        let forced = try paste.run(["-S", "bpa.st", "-n", "-l", "text"], stdin: Self.python)
        #expect(forced.out.contains("\"lexer\": \"text\""))
        #expect(!forced.out.contains("guessed"))
        try paste.writeConfig(
            "[paste]\n    guess-language = false\n[service \"bpa.st\"]\n    url = \(mock.url("/api/v1/paste"))\n")
        let off = try paste.run(["-S", "bpa.st", "-n"], stdin: Self.python)
        #expect(off.out.contains("\"lexer\": \"text\""), "\(off.out)")
        #expect(try mock.requests().isEmpty)
    }

    @Test("a file named as plain text (.txt, .log) is not guessed; .py says python by its name")
    func plainTextFiles() throws {
        try paste.writeConfig("[service \"bpa.st\"]\n    url = \(mock.url("/api/v1/paste"))\n")
        for name in ["notes.txt", "build.LOG"] {
            let path = try paste.home.write(Self.python, to: name)
            let dry = try paste.run(["-S", "bpa.st", "-n", "-f", path])
            #expect(dry.status == 0, "\(dry.err)")
            #expect(dry.out.contains("\"lexer\": \"text\""), "\(dry.out)")
            #expect(!dry.out.contains("guessed"), "\(dry.out)")
        }
        let script = try paste.home.write("print(1)\n", to: "tool.py")
        let named = try paste.run(["-S", "bpa.st", "-n", "-f", script])
        #expect(named.out.contains("\"lexer\": \"python\""), "\(named.out)")
        #expect(!named.out.contains("guessed"))
    }

    @Test("--retry of a kept text follows guess-language: off, it sends none; on, it guesses as a fresh run")
    func retryFollowsTheSetting() throws {
        for guesses in [false, true] {
            try paste.writeConfig(
                "[paste]\n    retries = 0\n    guess-language = \(guesses)\n"
                    + "[service \"bpa.st\"]\n    url = \(mock.url("/api/v1/paste"))\n")
            try mock.addFault(.status(503), count: 1, path: "/api/v1/paste")
            let failed = try paste.run(["-S", "bpa.st", "--no-copy", "--new"], stdin: Self.python)
            #expect(failed.status == 75, "\(failed.err)")
            #expect(try paste.outboxIDs().count == 1)
            let retry = try paste.run(["--retry"])
            #expect(retry.status == 0, "\(retry.err)")
            #expect(try paste.outboxIDs().isEmpty)
            #expect(try lexers().last == (guesses ? "python" : "text"))
        }
    }
}
