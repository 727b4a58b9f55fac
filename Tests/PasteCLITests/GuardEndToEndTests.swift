import Foundation
import Testing
import TestSupport

/// The secret guard end to end: exit 77, one line naming what and where, nothing sent;
/// `--force` sends. (The detection rate over the whole corpus is SecretGuardTests' SecretGuardTests.)
///
/// Every corpus sample refused, and max-size checked before sending, are
/// `InProcessGuardTests`'s: the same pipeline, without a spawn per sample.
@Suite("Secret guard: refused without --force, nothing sent", .temporaryHome, .mock)
struct GuardEndToEndTests: ScopedSuite {
    static let secrets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../SecretGuardTests/Fixtures/secrets").standardized

    static var samples: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: secrets.path)) ?? []).sorted()
    }

    @Test("the line names the kind and the place; -f names the file")
    func namesWhatAndWhere() throws {
        let path = try paste.home.write("first line\n  aws_access_key_id = AKIAY026A4N7VAPKLNWR\n", to: "notes.txt")
        let result = try paste.run(["--url", mock.url("/pastes/create"), "-f", path])
        #expect(result.status == 77)
        #expect(
            result.err.hasPrefix("paste: refusing to upload 'notes.txt': it looks like it holds an AWS access key"),
            "\(result.err)")
        #expect(result.err.contains("(line 2, column 23)"), "\(result.err)")
        #expect(!result.err.contains("AKIAY026A4N7VAPKLNWR"), "the secret itself was printed")
        #expect(try mock.requests().isEmpty)
    }

    @Test("--force sends it")
    func forceSends() throws {
        let text = "aws_access_key_id = AKIAY026A4N7VAPKLNWR\n"
        let result = try paste.run(["--url", mock.url("/pastes/create"), "--force", "-q"], stdin: text)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.rawPaste(id: try #require(pasteID(result.out))) == Data(text.utf8))
        #expect(try mock.posts().count == 1)
    }

    @Test("a streamed stdin whose start already passes max-size is refused before sending")
    func sizeLimitStream() throws {
        try paste.writeConfig(
            "[service \"small\"]\nurl = \(mock.url("/pastes/create"))\ncontent-field = paste[body]\n"
                + "field = paste[authorization]=burger\nmax-size = 1M\n")
        // From a file: paste stops reading early, and a pipe's writer would get SIGPIPE.
        let big = paste.home.root.appendingPathComponent("big.txt")
        try Data(repeating: UInt8(ascii: "x"), count: 9 << 20).write(to: big)
        let result = try paste.run(["-S", "small"], input: .file(big.path))
        #expect(result.status == 65, "stderr: \(result.err)")
        #expect(result.err.hasPrefix("paste: the text is more than"), "\(result.err)")
        #expect(try mock.requests().isEmpty)
    }

    @Test("the hidden --internal-guard-literals prints the trigger literals, one a line, for scripts/bench")
    func literals() throws {
        let result = try paste.run(["--internal-guard-literals"])
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err.isEmpty)
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "every literal ends its line")
        #expect(lines.contains("ghp_") && lines.contains("-----BEGIN ") && lines.contains(":0"))
        #expect(Set(lines).count == lines.count, "each once")
    }
}
