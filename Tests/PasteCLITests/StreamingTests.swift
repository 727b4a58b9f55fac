import Foundation
import Testing
import TestSupport

@Suite("Streaming: piped stdin of any size in flat memory; the progress bar only on a terminal", .temporaryHome, .mock)
struct StreamingTests: ScopedSuite {
    /// The most resident memory a streamed upload may use (issue 7: 64 MiB for 1 GiB).
    static let memoryCeilingKiB = 64 * 1024

    @Test(
        "256 MiB piped in is sent whole, with its SHA-256, in at most 64 MiB of memory",
        .mock(arguments: ["--discard-bodies"]), .tags(.slow))
    func flatMemory() throws {
        let (result, peakKiB) = try paste.runMeasuringPeak(
            "head -c 256M /dev/zero | tr '\\0' a", "--url '\(mock.url("/pastes/create"))' --no-copy --json")
        #expect(result.status == 0, "stderr: \(result.err)")
        let peak = try #require(peakKiB)
        #expect(peak <= Self.memoryCeilingKiB, "peak RSS \(peak) KiB")
        // sha256 of 256 MiB of 'a' (sha256sum), computed while streaming.
        #expect(result.out.contains("\"sha256\":\"b4a0226ee3f9b159ac06a86332dca0d90a04adef7f88934aa2a75be2a011d504\""))
        #expect(result.out.contains("\"bytes\":268435456"))
        let id = try #require(pasteID(String(result.out.split(separator: "\"")[3])))
        #expect(
            try mock.paste(id: id).fingerprint
                == Fingerprint(
                    size: 256 << 20, sha256: "b4a0226ee3f9b159ac06a86332dca0d90a04adef7f88934aa2a75be2a011d504"))
        let request = try #require(try mock.posts().first)
        #expect(request.chunked)
        #expect(try paste.outboxContents().isEmpty)
    }

    /// A slow answer (the mock's `delay` fault) keeps the upload running past half a second.
    func slowUpload(terminal: Bool) throws -> ProcessResult {
        try mock.addFault(.delay(seconds: 1.5), path: "/pastes/create")
        let input = try paste.home.write(String(repeating: "line of text\n", count: 4000), to: "input.txt")
        let command =
            "'\(BuiltProducts.path(of: "paste"))' --url '\(mock.url("/pastes/create"))' --no-copy < '\(input)'"
        if terminal {
            // script(1) runs the command on a pseudo-terminal and copies what it wrote to stdout.
            return try runProcess(
                "/usr/bin/script", ["-qfec", command, "/dev/null"], environment: paste.environment, timeout: 60)
        }
        return try runProcess("/bin/sh", ["-c", command], environment: paste.environment, timeout: 60)
    }

    @Test("on a terminal, an upload running past half a second shows the bar, then erases it")
    func barOnTerminal() throws {
        let result = try slowUpload(terminal: true)
        #expect(result.status == 0, "output: \(result.out)")
        #expect(result.out.contains("\r[########################] 100%"), "output: \(result.out.debugDescription)")
        #expect(result.out.contains("/s"))
        #expect(result.out.contains("\r\u{1B}[K"))
        #expect(result.out.contains("/pastes/"))
    }

    @Test("with stderr a pipe, no bar is drawn")
    func noBarInPipeline() throws {
        let result = try slowUpload(terminal: false)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(!result.err.contains("\r"))
        #expect(!result.err.contains("%"))
        #expect(result.err.isEmpty, "stderr: \(result.err.debugDescription)")
    }
}
