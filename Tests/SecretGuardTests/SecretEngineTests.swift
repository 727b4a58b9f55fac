import Synchronization
import Testing

import PasteCore
@testable import SecretGuard
import SecretScanInterop

/// The scanning engine around the rows: terminal escapes, the quick tests that keep log
/// lines cheap, the decoder hook, and the literals the bench gives ripgrep.
@Suite("Secret engine: terminal escapes, quick tests, decoders, literals")
struct SecretEngineTests {
    static let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"

    // MARK: - Terminal escapes

    @Test("terminal escapes are still taken out of a whole text, and text without one is left alone")
    func controlSequences() {
        let plain = Array("a line with nothing to strip\n".utf8)
        #expect(SecretGuard().scan(plain).isEmpty)
        let colored = Array("x = \"ghp_R7b2K9xQ4mN8\u{1b}[01;31m\u{1b}[KvL3cT6yH1pZ5wJ0sD24BzMYC\"\n".utf8)
        let findings = SecretGuard().scan(colored)
        #expect(findings.map(\.pattern) == [.gitHubToken])
        #expect(findings.first?.offset == 5)
    }

    // MARK: - Quick tests

    @Test(
        "the colons of log lines are no candidates (the .pgpass shape turns them away in the search); a .pgpass line's first colon is",
        arguments: [
            ("2026-12-04T23:08:34.611Z INFO [api] done", 13, false),
            ("2026-12-04T23:08:34.611Z INFO [api] done", 16, false),
            ("status=200 host=10.122.35.25:5432 user=u1", 28, false),
            ("see http://example.com:8080/x", 22, false),
            ("db.example.com:5432:app:alice:s3cr3t-pw", 14, true),
            ("*:*:*:postgres:s3cr3t-pw", 1, true),
            ("echo 'localhost:5432:app:bob:pw12345' >> ~/.pgpass", 15, true),
            // The shape looks forward only: the host not starting the line is the row's to see.
            ("x localhost:5432:app:bob:pw12345", 11, true),
        ])
    func pgpassShape(_ line: String, _ colon: Int, _ isCandidate: Bool) {
        let text = Array(line.utf8)
        #expect(text[colon] == UInt8(ascii: ":"))
        var batch = CandidateBatch()
        var positions: [Int] = []
        var position = 0
        while position < text.count - 1 {
            position = SecretPrefilter.shared.search.find(
                in: text.span, from: position, to: text.count - 1, into: &batch)
            positions += (0..<batch.count).map { batch.position($0) }
        }
        #expect(positions.contains(colon) == isCandidate)
    }

    @Test("every .pgpass line the row finds has the shape the search tests first")
    func pgpassStillFound() {
        let lines = [
            "db.example.com:5432:app:alice:Tr0ub4dor&3", "*:*:*:postgres:correct-horse-battery",
            "10.0.0.7:6432:*:replicator:Xk29fLq0pz",
        ]
        for line in lines {
            let text = Array(("# ~/.pgpass\n" + line + "\n").utf8)
            #expect(SecretGuard().scan(text).map(\.pattern) == [.pgpassPassword], "\(line)")
        }
        let log = Array(String(repeating: "2026-12-04T23:08:34.611Z INFO host=10.0.0.1:5432 ok\n", count: 500).utf8)
        #expect(SecretGuard().scan(log).isEmpty)
    }

    // MARK: - Decoders

    /// How often the test decoder ran.
    static let decodes = Mutex(0)

    /// A decoder for the tests: `rot13:` and a run of letters, digits and `_` after it, decoded.
    static let rot13 = SecretDecoder("rot13", triggers: ["rot13:"]) { window, _, end in
        SecretEngineTests.decodes.withLock { $0 += 1 }
        var bytes: [UInt8] = []
        var origins: [Int] = []
        var index = end
        while index < window.count, SecretText.isAlphanumeric(window[index]) || window[index] == 0x5f {
            let byte = window[index]
            let rotated: UInt8 =
                switch byte {
                case 0x41...0x5a: (byte - 0x41 + 13) % 26 + 0x41
                case 0x61...0x7a: (byte - 0x61 + 13) % 26 + 0x61
                default: byte
                }
            bytes.append(rotated)
            origins.append(index)
            index += 1
        }
        return bytes.isEmpty ? nil : SecretDecoder.Decoded(bytes: bytes, origins: origins)
    }

    static func rotated(_ text: String) -> String {
        String(
            text.unicodeScalars.map { scalar -> Character in
                switch scalar.value {
                case 0x41...0x5a: Character(UnicodeScalar((scalar.value - 0x41 + 13) % 26 + 0x41)!)
                case 0x61...0x7a: Character(UnicodeScalar((scalar.value - 0x61 + 13) % 26 + 0x61)!)
                default: Character(scalar)
                }
            })
    }

    @Test("a decoder runs only where its literal is, and what it decodes is matched by every row")
    func decoderHook() {
        let prefilter = SecretPrefilter(rules: SecretRule.table, decoders: [Self.rot13])
        let hidden = "config: rot13:" + Self.rotated(Self.token) + "\nmore text\n"
        let plain = String(repeating: "ordinary words, rot and 13 apart, nothing decoded\n", count: 200)
        let text = Array((plain + hidden + plain).utf8)
        Self.decodes.withLock { $0 = 0 }
        var found: [SecretMatch] = []
        SecretScanner.evaluate(text.span, base: 0, from: 0, to: text.count, into: &found, prefilter: prefilter)
        #expect(Self.decodes.withLock { $0 } == 1, "decoded once, at its literal")
        let start = plain.utf8.count + "config: rot13:".utf8.count
        #expect(found.map(\.pattern) == [.gitHubToken])
        #expect(found.first?.start == start)
        #expect(found.first?.end == start + Self.token.utf8.count)
        // Without its literal the decoder never runs.
        let clean = Array((plain + plain).utf8)
        found = []
        SecretScanner.evaluate(clean.span, base: 0, from: 0, to: clean.count, into: &found, prefilter: prefilter)
        #expect(found.isEmpty)
        #expect(Self.decodes.withLock { $0 } == 1)
    }

    @Test("the decoders' literals join the prefilter's tables: each leads to its entry")
    func decoderLiteralsInTables() {
        let prefilter = SecretPrefilter(rules: SecretRule.table, decoders: [Self.rot13])
        let entry = prefilter.entries.firstIndex { $0.rule == prefilter.rules.count }
        #expect(entry != nil)
        guard let entry else { return }
        let literal = prefilter.literal(of: prefilter.entries[entry])
        #expect(literal == Array("rot13:".utf8))
        let offset = prefilter.entries[entry].pairOffset
        let group = Int(prefilter.groups[Int(literal[offset]) | Int(literal[offset + 1]) << 8])
        #expect(prefilter.members[prefilter.memberStarts[group]..<prefilter.memberStarts[group + 1]].contains(entry))
    }

    // MARK: - Literals

    @Test("the literals given to ripgrep are every row's triggers, each once")
    func literals() {
        let literals = SecretGuard.triggerLiterals
        #expect(Set(literals).count == literals.count)
        // A trigger that spans lines (`: |` and its line end) is listed by its first line.
        let firstLines = (SecretRule.table.flatMap(\.triggers) + SecretDecoder.table.flatMap(\.triggers)).map {
            String($0.prefix { $0 != "\n" && $0 != "\r" })
        }
        #expect(Set(literals) == Set(firstLines.filter { !$0.isEmpty }))
        #expect(literals.allSatisfy { !$0.contains("\n") && !$0.contains("\r") })
        #expect(literals.contains("ghp_") && literals.contains("-----BEGIN ") && literals.contains(":0"))
    }
}
