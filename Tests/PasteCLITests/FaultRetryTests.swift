import Foundation
import Testing
import TestSupport

/// The delays in `retrying in 0.7s (attempt 2 of 4)` notes, in order.
func retryDelays(_ stderr: String) -> [Double] {
    stderr.split(separator: "\n").compactMap { line in
        guard let range = line.firstRange(of: "retrying in ") else { return nil }
        return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }
}

/// Retries that cannot duplicate a paste, proved by the mock's request log.
///
/// End to end: a refused connection is retried after a jittered backoff until the server comes
/// up, through libcurl. The run's other retry decisions (the bound and each wait's band,
/// Retry-After for 429 and 503, max-retry-after, nothing re-sent after a timeout or a 500) are
/// `InProcessUploadTests`'s; `FaultTableTests` shows libcurl's timeouts held.
@Suite("Retries: only what cannot create a second paste", .temporaryHome, .mock)
struct FaultRetryTests: ScopedSuite {
    /// A port where nothing listens (a mock's, after it stopped).
    static func freePort() throws -> Int {
        let mock = try MockServer()
        let port = mock.port
        try mock.stop()
        return port
    }

    @Test("a refused connection (nothing sent) is retried after a jittered backoff, and the paste made once")
    func connectionRefusedIsRetried() throws {
        let port = try Self.freePort()
        try paste.writeConfig("[paste]\nretries = 3\n")
        let run = try RunningPaste(
            paste, ["--url", "http://127.0.0.1:\(port)/pastes/create", "--no-copy"], stdin: "retry me\n")
        try waitUntil("paste to fail once and back off", timeout: 20) { run.err.contains("retrying in") }
        let mock = try MockServer(arguments: ["--port", String(port)])
        let result = try run.finish()
        let out = result.out
        #expect(result.status == 0, "stderr: \(run.err)")
        #expect(out.hasPrefix(mock.baseURL + "/pastes/"))
        let posts = try mock.posts()
        #expect(posts.count == 1)
        #expect(try mock.rawPaste(id: try #require(pasteID(out))) == Data("retry me\n".utf8))
        // Equal jitter: the first wait is half the 1 s step plus up to the other half.
        let first = try #require(retryDelays(run.err).first)
        #expect((0.5...1.0).contains(first), "stderr: \(run.err)")
    }
}
