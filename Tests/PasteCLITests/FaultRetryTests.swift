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

    @Test("retries are bounded: retries = 2 means three attempts, each wait within its jitter band, then exit 75")
    func retriesAreBounded() throws {
        let port = try Self.freePort()
        try paste.writeConfig("[paste]\nretries = 2\n")
        let result = try paste.run(
            ["--url", "http://127.0.0.1:\(port)/pastes/create", "--no-copy"], stdin: "bounded\n")
        #expect(result.status == 75)
        let delays = retryDelays(result.err)
        #expect(delays.count == 2, "stderr: \(result.err)")
        if delays.count == 2 {
            #expect((0.5...1.0).contains(delays[0]))
            #expect((1.0...2.0).contains(delays[1]))
        }
        #expect(result.err.contains("(attempt 3 of 3)"))
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            result.err.hasSuffix(
                "paste: cannot connect to 127.0.0.1:\(port): connection refused\n"
                    + keptLine(id: id, isHeld: false) + "\n"))
        #expect(try paste.outboxContents() == [Data("bounded\n".utf8)])
    }

    @Test("429 and 503 are retried after the Retry-After they ask for", arguments: [429, 503])
    func retryAfterIsHonoured(_ code: Int) throws {
        try mock.addFault(.status(code, retryAfter: 1), count: 1, path: "/pastes/create")
        let started = Date()
        let result = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy"], stdin: "after a while\n")
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err.contains("paste: retrying in 1.0s (attempt 2 of 4)"))
        #expect(elapsed >= 1.0)
        let posts = try mock.posts()
        #expect(posts.map(\.status) == [code, 302])
        #expect(try mock.rawPaste(id: try #require(pasteID(result.out))) == Data("after a while\n".utf8))
    }

    @Test("a Retry-After beyond max-retry-after is not waited for: exit 75 at once, one POST")
    func retryAfterCap() throws {
        try mock.addFault(.status(503, retryAfter: 3600), count: 0, path: "/pastes/create")
        try paste.writeConfig("[paste]\nmax-retry-after = 5\n")
        let started = Date()
        let result = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy"], stdin: "later\n")
        #expect(result.status == 75)
        #expect(Date().timeIntervalSince(started) < 30, "it waited for the hour Retry-After asked for")
        #expect(try mock.posts().count == 1)
        #expect(try paste.outboxContents() == [Data("later\n".utf8)])
    }

    @Test("a timeout after the body went out is reported, not re-sent: one POST")
    func timeoutAfterSendIsNotRetried() throws {
        try mock.addFault(.delay(seconds: 2), count: 0, path: "/pastes/create")
        try paste.writeConfig("[paste]\nretries = 3\n")
        let result = try paste.run(
            ["--url", mock.url("/pastes/create"), "--no-copy", "--timeout", "1"], stdin: "slow\n")
        #expect(result.status == 75)
        #expect(!result.err.contains("retrying"), "stderr: \(result.err)")
        // The mock logs a request once it has answered it (after its delay).
        try waitUntil("the mock to log the POST", timeout: 10) { try mock.requests().contains { $0.method == "POST" } }
        #expect(try mock.posts().count == 1)
        #expect(try paste.outboxContents() == [Data("slow\n".utf8)])
    }

    @Test("a 500 is reported, not re-sent: one POST")
    func serverErrorIsNotRetried() throws {
        try mock.addFault(.status(500), count: 0, path: "/pastes/create")
        try paste.writeConfig("[paste]\nretries = 3\n")
        let result = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy"], stdin: "boom\n")
        #expect(result.status == 69)
        #expect(!result.err.contains("retrying"))
        #expect(try mock.posts().count == 1)
    }
}
