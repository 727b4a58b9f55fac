import Foundation
import Testing
import TestSupport

/// Run under another name (`scripts/install --name pasteit`, the answer to the coreutils clash),
/// paste says that name: in its usage, on every stderr line and in every hint, since
/// `'paste --retry'` would run coreutils for that person (issue 27).
@Suite("Run under another name, paste says that name", .temporaryHome)
struct InstalledNameTests: ScopedSuite {
    /// Runs the built paste through a link named `pasteit`.
    func pasteit(_ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
        let link = home.root.appendingPathComponent("bin/pasteit")
        if !FileManager.default.fileExists(atPath: link.path) {
            try FileManager.default.createDirectory(
                at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: link.path, withDestinationPath: BuiltProducts.path(of: "paste"))
        }
        return try runProcess(
            link.path, arguments, input: stdin.map { .bytes(Data($0.utf8)) } ?? .null, environment: paste.environment)
    }

    @Test("--help's usage and examples, an error's hint, the outbox's hint")
    func namesItself() throws {
        let help = try pasteit(["--help"])
        #expect(help.status == 0)
        #expect(
            help.out.hasPrefix(
                "Usage: pasteit [OPTIONS]          upload stdin (when piped) or the clipboard\n"
                    + "       pasteit -f FILE [-f FILE…] upload files, one paste each\n"))
        #expect(help.out.contains("\n  dmesg | pasteit                  a pipeline's output; the URL on stdout\n"))
        #expect(
            help.out.contains("\n  pasteit                          at a hotkey: clipboard up, a window says how\n"))
        #expect(help.out.contains("runs coreutils paste(1) instead"))
        #expect(help.out.split(separator: "\n").allSatisfy { $0.count <= 80 })

        try paste.writeConfig("[paste]\nretries = 0\n")
        // Nothing listens on port 1: the text waits in the outbox, and the hint names pasteit.
        let failed = try pasteit(["--url", "http://127.0.0.1:1/pastes/create", "--no-copy"], stdin: "kept\n")
        #expect(failed.status == 75)
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            failed.err
                == "pasteit: cannot connect to 127.0.0.1:1: connection refused\n"
                + "pasteit: the text waits in the outbox (\(id)); 'pasteit --retry' sends it again\n")
    }
}
