import Foundation
import PasteCore
import Testing
import TestSupport

@testable import PasteCLI

/// `--redact` and the `redact` keys in process (`PipelineHarness`): what is sent, said, kept in
/// the outbox and the history when the guard's findings are masked instead of refused (issue
/// 42, item 3). The binary against a real pinnwand: `RedactEndToEndTests`.
@Suite("In process: --redact masks the guard's findings", .temporaryHome)
struct InProcessRedactTests: ScopedSuite {
    static let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"
    static let text = "deploy log 日本語\n  export GH=\(token) # ci\npassword = \"s3cr3t!Pw\"\nend\n"
    static let masked =
        "deploy log 日本語\n  export GH=[redacted: github-token] # ci\npassword = \"[redacted: password]\"\nend\n"
    static let maskedLine =
        "paste: masked 2 secrets in stdin: github-token at line 2, column 13, password at line 3, column 1\n"

    /// Every file under the home's state folder, whole: nothing there may hold a value.
    func stateFiles() throws -> [String] {
        let root = home.stateHome.path
        guard let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] else { return [] }
        return names.compactMap { name in
            (try? Data(contentsOf: URL(fileURLWithPath: root + "/" + name))).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    @Test("--redact: the masked text is sent, stderr lists kind, line and column, history keeps only places")
    func made() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(
            ["--no-copy", "--redact"], stdin: .pipe(Array(Self.text.utf8)), answers: [.created("https://m.test/p/1")])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "https://m.test/p/1\n")
        #expect(run.err == Self.maskedLine)
        #expect(run.requests.map(\.text) == [Self.masked])
        let history = try harness.history()
        #expect(history.count == 1)
        let redacted = try #require(history.first?["redacted"] as? [[String: Any]])
        #expect(redacted.map { $0["kind"] as? String } == ["github-token", "password"])
        #expect(redacted.map { $0["line"] as? Int } == [2, 3])
        #expect(redacted.map { $0["column"] as? Int } == [13, 1])
        #expect(history.first?["bytes"] as? Int == Self.masked.utf8.count)
        #expect(try stateFiles().allSatisfy { !$0.contains(Self.token) && !$0.contains("s3cr3t") })
    }

    @Test("--json: the object lists each replacement (kind, line, column), never a value")
    func json() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(
            ["--no-copy", "--redact", "--json"], stdin: .text(Self.text), answers: [.created("https://m.test/p/2")])
        #expect(run.status == 0)
        #expect(run.err == "")
        #expect(
            run.out.hasSuffix(
                ",\"redacted\":[{\"kind\":\"github-token\",\"line\":2,\"column\":13},"
                    + "{\"kind\":\"password\",\"line\":3,\"column\":1}]}\n"), "\(run.out)")
        #expect(!run.out.contains(Self.token))
    }

    /// Stdin piped: without `--redact` it is spliced into the outbox as it is read; with it,
    /// nothing is journaled before the mask, and a failure keeps only the masked text.
    @Test(
        "a failed upload keeps only the masked text in the outbox; --retry sends that",
        arguments: [PipelineHarness.Input.pipe(Array(text.utf8)), .text(text)])
    func outboxHoldsMasked(_ input: PipelineHarness.Input) throws {
        try harness.writeConfig(harnessConfig())
        let failed = try harness.run(["--no-copy", "--redact"], stdin: input, answers: [.http(503, body: "busy")])
        #expect(failed.status == 75)
        #expect(failed.requests.map(\.text) == [Self.masked])
        #expect(try harness.outboxContents() == [Self.masked])
        #expect(try stateFiles().allSatisfy { !$0.contains(Self.token) && !$0.contains("s3cr3t") })
        let retried = try harness.run(["--retry", "--no-copy"], answers: [.created("https://m.test/p/3")])
        #expect(retried.status == 0, "\(retried.err)")
        #expect(retried.requests.map(\.text) == [Self.masked])
        #expect(try harness.outboxContents().isEmpty)
    }

    /// The guard stops at 100 findings: a text with more masks the first 100, and the scan of
    /// the masked text finds the rest, so nothing is sent.
    @Test("a masked text that still trips the guard is not sent (77), and nothing is kept")
    func stillTrips() throws {
        try harness.writeConfig(harnessConfig())
        let text = String(repeating: "key AKIAY026A4N7VAPKLNWR\n", count: 130)
        let run = try harness.run(["--no-copy", "--redact"], stdin: .pipe(Array(text.utf8)))
        #expect(run.status == 77)
        #expect(
            run.err
                == "paste: refusing to upload stdin: after masking, it still looks like it holds a secret "
                + "(an AWS access key id at line 101, column 5); nothing was sent\n")
        #expect(run.requests.isEmpty)
        #expect(try harness.outboxEntries().isEmpty)
        #expect(try harness.history().isEmpty)
    }

    @Test("stdin past what is held in memory cannot be masked: refused (77) before anything is sent")
    func streamRefused() throws {
        try harness.writeConfig(harnessConfig())
        var bytes = Array(Self.text.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: PasteInput.inMemoryLimit)
        let run = try harness.run(["--no-copy", "--redact"], stdin: .pipe(bytes))
        #expect(run.status == 77)
        #expect(
            run.err
                == "paste: refusing to upload stdin: --redact masks only text held in memory (at most 8 MiB), "
                + "and this is larger; nothing was sent\n")
        #expect(run.requests.isEmpty)
        #expect(try harness.outboxEntries().isEmpty)
    }

    @Test("--redact with --force is a usage error (64)")
    func withForce() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["--redact", "--force"], stdin: .text(Self.text))
        #expect(run.status == 64)
        #expect(run.err.hasPrefix("paste: --redact masks what --force would send as it is; choose one\n"))
        #expect(run.requests.isEmpty)
    }

    /// Which of the command line, `[paste]` and the service's section decides, and what
    /// happens: masked (0), refused (77), or sent as it is (`--force` beats a config key).
    @Test(
        "--redact, [paste] redact and a service's redact: who decides",
        arguments: [
            ([], "redact = true\n", "", "masked"),
            ([], "", "redact = true\n", "masked"),
            ([], "redact = true\n", "redact = false\n", "refused"),
            (["--redact"], "", "redact = false\n", "masked"),
            (["--force"], "redact = true\n", "", "sent"),
            ([], "", "", "refused"),
        ] as [([String], String, String, String)])
    func keys(_ arguments: [String], _ paste: String, _ service: String, _ outcome: String) throws {
        try harness.writeConfig(
            harnessConfig(extra: paste).replacingOccurrences(of: "result = body\n", with: "result = body\n" + service))
        let run = try harness.run(
            ["--no-copy"] + arguments, stdin: .text(Self.text), answers: [.created("https://m.test/p/4")])
        switch outcome {
        case "masked":
            #expect(run.status == 0, "\(run.err)")
            #expect(run.requests.map(\.text) == [Self.masked])
        case "sent":
            #expect(run.status == 0, "\(run.err)")
            #expect(run.requests.map(\.text) == [Self.text])
        default:
            #expect(run.status == 77)
            #expect(run.requests.isEmpty)
        }
    }

    @Test("-n --redact: the dry run shows the masked request and lists what would be masked; nothing is sent")
    func dryRun() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["-n", "--redact"], stdin: .text(Self.text))
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err == Self.maskedLine)
        // A form's content is shown by its size: the masked text's.
        #expect(run.out.contains("content=<stdin, \(Self.masked.utf8.count) bytes>"), "\(run.out)")
        #expect(Self.masked.utf8.count != Self.text.utf8.count)
        #expect(!run.out.contains(Self.token))
        #expect(run.requests.isEmpty)
    }

    @Test("-f: each file is masked on its own; a clean file goes as it is, byte-exact")
    func files() throws {
        try harness.writeConfig(harnessConfig())
        let secret = try home.write(Self.text, to: "secret.txt")
        let clean = try home.write("nothing to see\n", to: "clean.txt")
        let run = try harness.run(
            ["--no-copy", "--redact", "-f", secret, "-f", clean],
            answers: [.created("https://m.test/p/5"), .created("https://m.test/p/6")])
        #expect(run.status == 0, "\(run.err)")
        #expect(Set(run.requests.map(\.text)) == [Self.masked, "nothing to see\n"])
        #expect(
            run.err
                == "paste: masked 2 secrets in '\(secret)': github-token at line 2, column 13, "
                + "password at line 3, column 1\n")
    }
}
