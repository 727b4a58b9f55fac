import Foundation
import Testing
import TestSupport

@testable import PasteCLI

/// A key-bearing service's URL sent again from the outbox (`--retry`, `--outbox send`; the
/// background flush is `--retry -q`) is shown in the `-v` trace as a first send shows it: the
/// Location, curl's redirect note and the GET that follows it shortened, the POST whole, and
/// the URL whole on stdout only (issue 26, item 2).
@Suite("Key-bearing URLs sent again from the outbox: the -v trace shortened", .temporaryHome, .mock, .serialized)
struct KeyBearingRetryTests: ScopedSuite {
    /// `--retry`'s config (service `m` on `port`), the service declared key-bearing.
    static func config(port: Int) -> String {
        RetryNowTests.config(port: port) + "key-bearing = yes\n"
    }

    /// Leaves `text` in the outbox (its upload to a port where nothing listens failed), then
    /// points `m` at the mock again; returns the entry's id.
    func leaveInOutbox(_ text: String) throws -> String {
        try paste.writeConfig(Self.config(port: try FaultRetryTests.freePort()))
        let before = try paste.outboxIDs()
        let failed = try paste.run(["-S", "m", "--no-copy"], stdin: text)
        #expect(failed.status == 75, "stderr: \(failed.err)")
        try paste.writeConfig(Self.config(port: mock.port))
        return try #require(try paste.outboxIDs().first { !before.contains($0) })
    }

    /// Checks a run that sent one key-bearing entry with `-v`: the URL whole on stdout, never on
    /// stderr, and the trace's redirect lines shortened.
    func expectShortenedTrace(_ result: ProcessResult, sent text: String) throws {
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        let id = try #require(pasteID(url), "\(result.out)")
        #expect(try mock.rawPaste(id: id) == Data(text.utf8))
        let shown = KeyBearingURL.shortened(url)
        #expect(shown == mock.url("/") + "…")
        #expect(!result.err.contains(url), "\(result.err)")
        #expect(!result.err.contains("/pastes/\(id)"), "\(result.err)")
        #expect(result.err.contains("paste: < Location: \(shown)\n"), "\(result.err)")
        #expect(result.err.contains("paste: > GET /… HTTP/1.1\n"), "\(result.err)")
        #expect(result.err.contains("paste: > POST /pastes/create HTTP/1.1\n"), "\(result.err)")
    }

    @Test("--retry -v: the trace shortened as a first send's is, the URL whole on stdout")
    func retry() throws {
        _ = try leaveInOutbox("a capability link, sent again\n")
        let result = try paste.run(["--retry", "-v"])
        try expectShortenedTrace(result, sent: "a capability link, sent again\n")
        #expect(try paste.outboxIDs().isEmpty)
    }

    @Test("--outbox send ID -v: the same")
    func sendByID() throws {
        let id = try leaveInOutbox("another capability link\n")
        let result = try paste.run(["--outbox", "send", id, "-v"])
        try expectShortenedTrace(result, sent: "another capability link\n")
        #expect(try paste.outboxIDs().isEmpty)
    }
}
