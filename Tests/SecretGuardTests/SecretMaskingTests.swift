import Foundation
import PasteCore
import SecretGuard
import Testing

/// `--redact`'s masking (issue 42, item 3): each finding's value replaced by a marker naming its
/// kind, the rest byte-exact, and nothing the guard finds left behind.
@Suite("Secret masking")
struct SecretMaskingTests {
    static let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"

    static func masked(_ text: String) -> (text: String, masking: SecretMasking) {
        let bytes = Array(text.utf8)
        let masking = SecretMasking(masking: bytes, findings: SecretGuard().scan(bytes))
        return (String(decoding: masking.text, as: UTF8.self), masking)
    }

    @Test("a token is replaced by a marker naming its kind; the rest of the text is byte-exact")
    func token() {
        let (text, masking) = Self.masked("first line\n  export GH=\(Self.token) # ci\nlast\n")
        #expect(text == "first line\n  export GH=[redacted: github-token] # ci\nlast\n")
        #expect(masking.masked == [MaskedSecret(pattern: .gitHubToken, line: 2, column: 13)])
        #expect(masking.remaining.isEmpty)
    }

    /// The name and separator stay: the masked paste still says what was there.
    @Test(
        "only the value of a key and its value is masked, never the name",
        arguments: [
            ("password = \"s3cr3t!Pw\"\n", "password = \"[redacted: "),
            ("DB_PASSWORD=hunter2horse9\n", "DB_PASSWORD=[redacted: "),
            ("postgres://app:Tr0ub4dor3x@db.internal:5432/app\n", "postgres://app:[redacted: "),
            ("Authorization: Bearer abcdef0123456789ABCDEFxyz\n", "Authorization: Bearer [redacted: "),
        ])
    func valueOnly(_ input: String, _ kept: String) {
        let (text, masking) = Self.masked(input)
        #expect(text.hasPrefix(kept), "\(text)")
        #expect(masking.masked.count == 1)
        #expect(masking.remaining.isEmpty, "\(text)")
    }

    @Test("the URL's host and path after masked credentials stay as they were")
    func urlRest() {
        let (text, _) = Self.masked("postgres://app:Tr0ub4dor3x@db.internal:5432/app\n")
        #expect(text == "postgres://app:[redacted: url-credentials]@db.internal:5432/app\n")
    }

    @Test("a private key block is masked whole, from BEGIN to its END line, not only its header")
    func keyBlock() {
        let body = String(repeating: "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n", count: 5)
        let input = "key:\n-----BEGIN RSA PRIVATE KEY-----\n\(body)-----END RSA PRIVATE KEY-----\nafter\n"
        let (text, masking) = Self.masked(input)
        #expect(text == "key:\n[redacted: private-key]\nafter\n")
        #expect(masking.masked.map(\.pattern) == [.privateKey])
        #expect(!text.contains("MIIE"))
    }

    @Test("a key cut short (no END line) is masked to its first blank line")
    func keyCutShort() {
        let input = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAA\n\nnext\n"
        let (text, _) = Self.masked(input)
        #expect(text == "[redacted: private-key]\n\nnext\n")
    }

    @Test("two secrets on a line are both masked, and both listed with line and column")
    func several() {
        let (text, masking) = Self.masked("a AKIAY026A4N7VAPKLNWR b \(Self.token)\n")
        #expect(text == "a [redacted: aws-access-key-id] b [redacted: github-token]\n")
        #expect(masking.masked.map(\.column) == [3, 26])
    }

    @Test("a marker itself is nothing the guard finds, after any key name")
    func markerIsQuiet() {
        for pattern in SecretPattern.allCases {
            let marker = SecretMasking.marker(pattern)
            for shape in ["password = \"\(marker)\"\n", "password=\(marker)\n", "token: \(marker)\n"] {
                #expect(SecretGuard().scan(Array(shape.utf8)).isEmpty, "\(shape)")
            }
        }
    }

    /// Every fixture of the guard's corpus: what is left after masking is clean, and only the
    /// findings' bytes changed.
    @Test(
        "every fake secret of the corpus masks to a text the guard finds clean", arguments: SecretGuardTests.secretFiles
    )
    func corpus(_ path: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let findings = SecretGuard().scan(bytes)
        let masking = SecretMasking(masking: bytes, findings: findings)
        #expect(masking.masked.count == findings.count)
        #expect(masking.remaining.isEmpty, "\(path): \(masking.remaining)")
        // The text before the first finding is untouched.
        let first = try #require(findings.first).offset
        #expect(Array(masking.text.prefix(first)) == Array(bytes.prefix(first)))
    }

    @Test("a text with no finding is left as it is")
    func nothing() {
        let bytes = Array("just words\n".utf8)
        let masking = SecretMasking(masking: bytes, findings: [])
        #expect(masking.text == bytes)
        #expect(masking.masked.isEmpty && masking.remaining.isEmpty)
    }
    // MARK: - From a file, a chunk at a time

    /// `bytes` masked from a file by `SecretMasking.mask(filePath:findings:into:)`, as
    /// `--redact` masks a text too large for memory.
    static func maskedFromFile(_ bytes: [UInt8]) throws -> (text: [UInt8], masked: [MaskedSecret], chunks: Int) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("masking-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let findings = try #require(SecretGuard().scan(filePath: url.path))
        var text: [UInt8] = []
        var chunks = 0
        let masked = try SecretMasking.mask(filePath: url.path, findings: findings) { chunk in
            text += chunk
            chunks += 1
        }
        return (text, masked, chunks)
    }

    @Test(
        "masked from a file, every fixture of the corpus is what masking it in memory gives",
        arguments: SecretGuardTests.secretFiles)
    func corpusFromFile(_ path: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let inMemory = SecretMasking(masking: bytes, findings: SecretGuard().scan(bytes))
        let fromFile = try Self.maskedFromFile(bytes)
        #expect(fromFile.text == inMemory.text, "\(path)")
        #expect(fromFile.masked == inMemory.masked)
    }

    /// Past what a window holds: secrets megabytes apart (a key block among them), each masked
    /// where it is, with its line and column counted from the file's start, the bytes between
    /// them handed over a chunk at a time.
    @Test("a large file: secrets megabytes apart masked in place, lines counted from the start, in chunks")
    func largeFile() throws {
        let filler = String(repeating: "2026-12-06 11:00:00 worker: request served in 12 ms\n", count: 40_000)
        let key =
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
            + "QyNTUxOQAAACDc0ZkTqYhxiANt3cK6HcPm8XLC2jXYk8E1mv94qbGPRgAAAJhZ2W8rWdlv\n-----END OPENSSH PRIVATE KEY-----\n"
        let text = "GH=\(Self.token)\n" + filler + key + filler + "last: token \(Self.token)"
        let bytes = Array(text.utf8)
        let inMemory = SecretMasking(masking: bytes, findings: SecretGuard().scan(bytes))
        let fromFile = try Self.maskedFromFile(bytes)
        let isSame = fromFile.text == inMemory.text
        #expect(isSame)
        #expect(inMemory.remaining.isEmpty)
        #expect(fromFile.masked.map(\.pattern.rawValue) == ["github-token", "private-key", "github-token"])
        #expect(fromFile.masked.map(\.line) == [1, 40_002, 80_006])
        #expect(fromFile.masked.map(\.column) == [4, 1, 13])
        #expect(fromFile.chunks > bytes.count / (256 << 10))
        let masked = String(decoding: fromFile.text, as: UTF8.self)
        #expect(masked.hasPrefix("GH=[redacted: github-token]\n2026-12-06"))
        #expect(masked.hasSuffix("\n[redacted: private-key]\n" + filler + "last: token [redacted: github-token]"))
    }
}
