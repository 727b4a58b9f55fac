import Foundation
import Testing
import TestSupport

@testable import PasteCLI

/// The secret guard's decisions in process: every sample of the corpus refused with 77 and one
/// line, nothing sent or kept; a service's max-size checked before anything goes out.
/// `GuardEndToEndTests` keeps a refusal naming its file and place, and `--force`, end to end.
@Suite("In process: the secret guard refuses, nothing sent", .temporaryHome)
struct InProcessGuardTests: ScopedSuite {
    @Test("every corpus sample piped in is refused with exit 77 and one line; nothing is sent or kept")
    func refused() throws {
        let samples = GuardEndToEndTests.samples
        #expect(samples.count > 20)
        try harness.writeConfig(harnessConfig())
        for sample in samples {
            let text = try Data(contentsOf: GuardEndToEndTests.secrets.appendingPathComponent(sample))
            let run = try harness.run(["--no-copy"], stdin: .pipe(Array(text)))
            #expect(run.status == 77, "\(sample): \(run.err)")
            let first = run.err.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("paste: refusing to upload: it looks like it holds "), "\(sample): \(run.err)")
            #expect(first.contains("(line ") && first.hasSuffix("use --force to upload anyway"), "\(sample)")
            // At most the hint line listing further findings.
            #expect(run.err.split(separator: "\n").count <= 2, "\(sample): \(run.err)")
            #expect(run.out.isEmpty)
            #expect(run.requests.isEmpty, "\(sample)")
        }
        #expect(try harness.outboxEntries().isEmpty)
        #expect(try harness.history().isEmpty)
    }

    @Test("a max-size limit is checked before sending: exit 65, one line, nothing sent; a text that fits goes")
    func sizeLimit() throws {
        try harness.writeConfig(
            harnessConfig(
                sections:
                    "[service \"small\"]\nurl = https://small.test/upload\ncontent-field = content\nresult = body\n"
                    + "max-size = 10\n"))
        let run = try harness.run(["--no-copy", "-S", "small"], stdin: .pipe(Array("twelve bytes".utf8)))
        #expect(run.status == 65)
        #expect(run.err == "paste: the text is 12 bytes but 'small' accepts at most 10; nothing was uploaded\n")
        #expect(run.requests.isEmpty)
        let fits = try harness.run(
            ["--no-copy", "-S", "small", "-q"], stdin: .pipe(Array("ten bytes!".utf8)),
            answers: [.created("https://small.test/p/1")])
        #expect(fits.status == 0, "stderr: \(fits.err)")
        #expect(fits.requests.map(\.text) == ["ten bytes!"])
    }
}
