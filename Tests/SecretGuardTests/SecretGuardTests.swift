import Foundation
import PasteCore
import SecretGuard
import Testing

@Suite("Secret guard")
struct SecretGuardTests {
    static func fixtures(_ folder: String) -> [String] {
        guard
            let url = Bundle.module.url(forResource: "Fixtures/" + folder, withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: url.path)
        else { return [] }
        return names.sorted().map { url.appendingPathComponent($0).path }
    }

    static let secretFiles = fixtures("secrets")
    static let cleanFiles = fixtures("clean")

    @Test("the fixture corpus has at least three samples of every kind, and at least 40 kinds")
    func corpusPresent() {
        let kinds = SecretGuardTests.secretFiles.map {
            URL(fileURLWithPath: $0).lastPathComponent.components(separatedBy: "--")[0]
        }
        #expect(SecretPattern.allCases.count >= 40)
        for pattern in SecretPattern.allCases {
            #expect(kinds.filter { $0 == pattern.rawValue }.count >= 3, "\(pattern.rawValue)")
        }
        #expect(SecretGuardTests.cleanFiles.count >= 5)
    }

    /// Each file holds one fake secret of the kind its name starts with (`github-token--ghp.txt`).
    @Test("every fake secret is caught as its kind", arguments: SecretGuardTests.secretFiles)
    func caught(_ path: String) throws {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let kind = try #require(name.components(separatedBy: "--").first)
        let expected = try #require(SecretPattern(rawValue: kind))
        let findings = SecretGuard().scan(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(findings.map(\.pattern) == [expected], "\(name): \(findings)")
    }

    @Test("ordinary code, prose and placeholders raise nothing", arguments: SecretGuardTests.cleanFiles)
    func clean(_ path: String) throws {
        let findings = SecretGuard().scan(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(findings.isEmpty, "\(path): \(findings)")
    }

    @Test("findings give offset, line, column and a redacted excerpt, never the secret")
    func position() {
        let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"
        let text = "first line\nsecond\n    é token=\(token) end\n"
        let findings = SecretGuard().scan(Array(text.utf8))
        #expect(
            findings == [SecretFinding(pattern: .gitHubToken, offset: 31, line: 3, column: 13, excerpt: "ghp_…YC")])
        #expect(findings.first?.description == "GitHub token at line 3")
        #expect(findings.allSatisfy { !$0.excerpt.contains(token) })
    }

    @Test("a PEM header quoted in code is not a key, one followed by a body is")
    func pemContext() {
        let quoted = "if line == \"-----BEGIN RSA PRIVATE KEY-----\" {"
        #expect(SecretGuard().scan(Array(quoted.utf8)).isEmpty)
        let real = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx7mF0rZp2kQy9e8gq0XH\n"
        #expect(SecretGuard().scan(Array(real.utf8)).map(\.description) == ["private key (PEM) at line 1"])
    }

    @Test("an assignment holding a known token is reported once, as the token")
    func noDoubleReport() {
        let text = "api_key = \"AIza" + String(repeating: "Xy9_", count: 8) + "abc\""
        #expect(SecretGuard().scan(Array(text.utf8)).map(\.pattern) == [.googleAPIKey])
    }

    @Test("the refusal names the first finding, lists others in the hint, and exits 77")
    func guardError() {
        let text = "password = \"s3cr3t!Pw\"\nAKIAQ3EGRDMWTX5K7Z2P\n"
        #expect(throws: GuardError.self) { try SecretGuard().check(Array(text.utf8)) }
        do {
            try SecretGuard().check(Array(text.utf8), source: "notes.txt")
            Issue.record("no error")
        } catch {
            #expect(
                error.message
                    == "refusing to upload 'notes.txt': it looks like it holds a password (line 1, column 1); use --force to upload anyway"
            )
            #expect(error.hint == "also found: AWS access key id at line 2")
            #expect(error.exitStatus == .refused)
            #expect(ExitStatus.refused.rawValue == 77)
        }
    }

    @Test("64 MiB of ordinary code-like text has no findings; a key on its last line is found there")
    func large() {
        let line = Array("let value = compute(x: 1, y: \"two\") // a comment: nothing secret here\n".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64 << 20)
        while text.count + line.count <= 64 << 20 { text += line }
        #expect(SecretGuard().scan(text).isEmpty)
        // The scan reads to the very end (its speed is measured by scripts/bench, not here).
        let lines = text.count / line.count
        text += Array("aws_key = AKIA\("Z4MNQVL3CT6YHWPZ")\n".utf8)
        let findings = SecretGuard().scan(text)
        #expect(findings.map(\.line) == [lines + 1])
    }
}
