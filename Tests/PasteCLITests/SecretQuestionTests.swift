import PasteCore
import SecretGuard
import Testing

@testable import PasteCLI

/// The guard's question at a hotkey (window and desktop notification): every finding named,
/// and "Upload as private" only where the service's private mode is not its default.
@Suite("Secret guard's question")
struct SecretQuestionTests {
    /// An AWS credentials pair: the access key id on line 1, its secret on line 2 (random
    /// values in AWS's shapes, not AWS's documented examples).
    static let credentials =
        "aws_access_key_id = AKIA" + "Q3ZL7WJ2N5XKD4RT\n"
        + "aws_secret_access_key = 9fKq2Lx7" + "Tz3RbN0vWm5Yc8Hp1Jd4Gs6Ua2Ee7Qo0\n"

    @Test("a key id on line 1 and its secret on line 2: the question names both")
    func namesEveryFinding() {
        let findings = SecretGuard().scan(Array(Self.credentials.utf8))
        let question = SecretQuestion(findings: findings, service: BuiltInServices.dpaste)
        #expect(
            question.message
                == "This text looks like it holds 2 secrets: AWS access key id at line 1, "
                + "AWS secret access key at line 2. Upload it to dpaste?")
    }

    @Test("one finding: named as before")
    func oneFinding() {
        let finding = SecretFinding(pattern: .privateKey, line: 1, column: 1, excerpt: "-----BEGIN")
        let question = SecretQuestion(findings: [finding], service: BuiltInServices.dpaste)
        #expect(
            question.message
                == "This text looks like it holds a secret: private key (PEM) at line 1. Upload it to dpaste?")
    }

    @Test("past five findings, the rest are counted")
    func manyFindings() {
        let findings = (1...7).map { SecretFinding(pattern: .gitHubToken, line: $0, column: 1, excerpt: "ghp_…") }
        let question = SecretQuestion(findings: findings, service: BuiltInServices.dpaste)
        #expect(
            question.message
                == "This text looks like it holds 7 secrets: GitHub token at line 1, GitHub token at line 2, "
                + "GitHub token at line 3, GitHub token at line 4, GitHub token at line 5 and 2 more. "
                + "Upload it to dpaste?")
    }

    @Test(
        "\"Upload as private\" only where private differs from the default",
        arguments: [
            ("dpaste", false),  // cannot be private at all
            ("0x0", true),  // a private field: private is a choice
            ("termbin", false),  // every paste unlisted anyway
            ("paste.rs", false),
            ("privatebin", false),  // always unlisted and encrypted
        ])
    func offersPrivate(name: String, expected: Bool) throws {
        let service = try #require(BuiltInServices.all.first { $0.name == name }, "\(BuiltInServices.all.map(\.name))")
        let finding = SecretFinding(pattern: .privateKey, line: 1, column: 1, excerpt: "-----BEGIN")
        #expect(SecretQuestion(findings: [finding], service: service).offersPrivate == expected)
    }

    @Test("a configured service with a private field is offered private; one that is always private is not")
    func configuredServices() {
        let finding = SecretFinding(pattern: .privateKey, line: 1, column: 1, excerpt: "-----BEGIN")
        var service = ServiceProfile(name: "mine", url: ConfigValue("http://127.0.0.1:9/"))
        #expect(!SecretQuestion(findings: [finding], service: service).offersPrivate)
        service.privateField = ("private", "1")
        #expect(SecretQuestion(findings: [finding], service: service).offersPrivate)
        service.isAlwaysPrivate = true
        #expect(!SecretQuestion(findings: [finding], service: service).offersPrivate)
    }
}

extension SecretQuestionTests {
    @Test(
        "\"Upload with secrets masked\" comes first on a public service, after \"Upload anyway\" on a private one",
        arguments: [
            ("dpaste", true),  // public
            ("0x0", true),  // public unless -p
            ("termbin", false),  // every paste unlisted (`always-private`)
            ("privatebin", false),  // encrypted, always unlisted
        ])
    func masksFirst(name: String, first: Bool) throws {
        let service = try #require(BuiltInServices.all.first { $0.name == name })
        let finding = SecretFinding(pattern: .gitHubToken, line: 1, column: 1, excerpt: "ghp_…")
        let question = SecretQuestion(findings: [finding], service: service)
        let expected: [SecretChoice] = first ? [.uploadMasked, .uploadAnyway] : [.uploadAnyway, .uploadMasked]
        #expect(question.answers.map(\.choice) == expected)
        #expect(question.answers.map(\.key) == expected.map { $0 == .uploadMasked ? "redact" : "upload" })
    }

    @Test("a text that cannot be masked (a stream) is not offered the masked upload")
    func notMaskable() {
        let finding = SecretFinding(pattern: .gitHubToken, line: 1, column: 1, excerpt: "ghp_…")
        var question = SecretQuestion(findings: [finding], service: BuiltInServices.dpaste)
        question.offersMasked = false
        #expect(question.answers.map(\.label) == ["Upload anyway"])
    }
}
