import Foundation
import PasteCore
import SystemInterop
import Testing
import TestSupport
@testable import Upload

/// Redirects, failures and their classification, batches, and raw TCP.
@Suite("Transfer outcomes", .testServer)
struct TransferOutcomeTests: ScopedSuite {

    private func post(_ path: String, result: ResultRule = .redirect) -> UploadRequest {
        UploadRequest(
            url: server.base + path, body: .raw(.bytes(Array("text".utf8)), contentType: "text/plain"), result: result)
    }

    @Test("a redirect is followed for .redirect, turning the POST into a GET, with only the last headers")
    func redirectFollowed() throws {
        let response = try Uploader().send(post("/redirect?to=/pastes/42"))
        #expect(response.status == 200)
        #expect(response.redirectCount == 1)
        #expect(response.effectiveURL == server.base + "/pastes/42")
        #expect(try Echo(response).method == "GET")
        #expect(response.header("X-Hop") == nil)
        #expect(response.header("X-Echo") == "yes")
    }

    @Test("a redirect is not followed for .location: the first answer and its Location come back")
    func redirectNotFollowed() throws {
        let response = try Uploader().send(post("/redirect?to=/pastes/42", result: .location))
        #expect(response.status == 302)
        #expect(response.redirectCount == 0)
        #expect(response.header("location") == "/pastes/42")
        #expect(response.effectiveURL == server.base + "/redirect?to=/pastes/42")
    }

    @Test("a redirect to file:// is refused, and the request counts as having reached the server")
    func redirectToFileRefused() throws {
        let error = try #require(throws: UploadError.self) {
            try Uploader().send(post("/redirect?to=file:///etc/passwd"))
        }
        #expect(error == .redirectRefused(url: "file:///etc/passwd"))
        #expect(error.exitStatus == .unavailable)
        #expect(error.mayHaveReachedServer)
    }

    @Test("a redirect loop stops at the limit")
    func redirectLoop() throws {
        let error = try #require(throws: UploadError.self) {
            try Uploader(options: TransportOptions(maxRedirects: 3)).send(post("/loop"))
        }
        #expect(error == .tooManyRedirects(3))
        #expect(error.message == "too many redirects (more than 3)")
    }

    @Test("a server that stops talking trips the stall timeout, after the request went out")
    func stallTimeout() throws {
        let started = ContinuousClock.now
        let error = try #require(throws: UploadError.self) {
            try Uploader(options: TransportOptions(timeouts: TransferTimeouts(stall: .seconds(1)))).send(
                post("/delay?s=30"))
        }
        #expect(error == .timedOut(url: server.base + "/delay?s=30", phase: .stalled(seconds: 1), requestSent: true))
        #expect(error.exitStatus == .temporaryFailure)
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("the total timeout is reported as such")
    func totalTimeout() throws {
        let error = try #require(throws: UploadError.self) {
            try Uploader(options: TransportOptions(timeouts: TransferTimeouts(total: .milliseconds(700)))).send(
                post("/delay?s=30"))
        }
        guard case .timedOut(_, .total, true) = error else {
            Issue.record("expected a total timeout, got \(error)")
            return
        }
    }

    @Test("a refused connection is classified as never having reached the server")
    func connectionRefused() throws {
        let error = try #require(throws: UploadError.self) {
            try Uploader().send(
                UploadRequest(
                    url: "http://127.0.0.1:1/x", body: .rendered([], contentType: "text/plain"), result: .body))
        }
        #expect(
            error == .couldNotConnect(url: "http://127.0.0.1:1/x", detail: "connection refused", requestSent: false))
        #expect(error.message == "cannot connect to 127.0.0.1:1: connection refused")
        #expect(!error.mayHaveReachedServer)
        #expect(error.exitStatus == .temporaryFailure)
    }

    @Test("a missing file is a local read failure before anything is sent")
    func missingFile() throws {
        let error = try #require(throws: UploadError.self) {
            try Uploader().send(
                UploadRequest(
                    url: server.base + "/x",
                    body: .raw(.file(path: "/nonexistent/paste.txt", size: 10), contentType: "text/plain"),
                    result: .body))
        }
        #expect(error == .readFailed(path: "/nonexistent/paste.txt", errno: .noSuchFileOrDirectory, requestSent: false))
        #expect(error.message == "cannot read '/nonexistent/paste.txt': no such file or directory")
        #expect(error.exitStatus == .ioError)
    }

    @Test(
        "a URL that is not http, https or tcp is refused before libcurl sees it",
        arguments: [
            "ftp://127.0.0.1/x", "file:///etc/passwd", "gopher://h/", "tcp://nohostport",
        ])
    func unsupportedURL(url: String) throws {
        let error = try #require(throws: UploadError.self) {
            try Uploader().send(UploadRequest(url: url, body: .rendered([], contentType: "text/plain"), result: .body))
        }
        #expect(error == .unsupportedURL(url))
        #expect(error.exitStatus == .config)
    }

    @Test("a 503 with Retry-After comes back as a response the retry policy honours")
    func serviceUnavailable() throws {
        let response = try Uploader().send(post("/status?code=503&retry_after=7", result: .body))
        #expect(response.status == 503)
        #expect(response.header("Retry-After") == "7")
        #expect(RetryPolicy().decide(after: .success(response), attempt: 1) == .retry(after: .seconds(7)))
    }

    @Test("a batch of 50 returns in order on a few reused connections")
    func batch() throws {
        let requests = (0..<50).map { index in
            UploadRequest(
                url: server.base + "/paste/\(index)",
                body: .raw(.bytes(Array("paste \(index)".utf8)), contentType: "text/plain"),
                result: .body)
        }
        let results = Uploader().sendAll(requests, maxConcurrent: 4)
        let echoes = try results.map { try Echo($0.get()) }
        #expect(echoes.map(\.path) == (0..<50).map { "/paste/\($0)" })
        #expect(echoes.map { String(decoding: $0.bodyBytes, as: UTF8.self) } == (0..<50).map { "paste \($0)" })
        let connections = Set(echoes.map(\.connection))
        #expect(connections.count <= 4, "50 transfers used \(connections.count) connections")
    }

    @Test("a batch keeps failures in their place")
    func batchWithFailure() throws {
        let requests = [
            post("/a", result: .body),
            UploadRequest(url: "http://127.0.0.1:1/", body: .rendered([], contentType: "text/plain"), result: .body),
            post("/b", result: .body),
        ]
        let results = Uploader().sendAll(requests, maxConcurrent: 2)
        #expect(try Echo(results[0].get()).path == "/a")
        #expect(throws: UploadError.self) { try results[1].get() }
        #expect(try Echo(results[2].get()).path == "/b")
    }

    @Test("tcp:// sends the text, closes its side, and reads the answer")
    func tcp() throws {
        let tcpServer = try TestServer(mode: "tcp")
        let content = Array(repeating: trickyText, count: 2000).flatMap { $0 }
        let pipe = FedPipe(content)
        let tee = try TemporaryFile()
        let response = try Uploader().send(
            UploadRequest(
                url: "tcp://127.0.0.1:\(tcpServer.port)",
                body: .raw(
                    .stream(fileDescriptor: pipe.readDescriptor, prefix: [], teePath: tee.path),
                    contentType: "text/plain"),
                result: .body))
        let digest = try sha256Hex(content)
        #expect(
            String(decoding: response.body, as: UTF8.self) == "https://termbin.example/\(content.count)/\(digest)\n")
        #expect(response.bytesSent == Int64(content.count))
        #expect(response.status == 0)
        #expect(tee.contents == content)
    }

    @Test("tcp:// to a closed port is a connection failure that reached nothing")
    func tcpRefused() throws {
        let error = try #require(throws: UploadError.self) {
            try Uploader().send(
                UploadRequest(
                    url: "tcp://127.0.0.1:1", body: .rendered(Array("x".utf8), contentType: "text/plain"), result: .body
                ))
        }
        guard case .couldNotConnect(_, _, false) = error else {
            Issue.record("expected couldNotConnect, got \(error)")
            return
        }
    }

    @Test("memory stays flat while 512 MiB stream through a pipe")
    func streamingMemoryIsFlat() throws {
        let chunk = [UInt8](repeating: 0x61, count: 1 << 20)
        let remaining = Countdown(512)
        let pipe = FedPipe { remaining.next() ? chunk : nil }
        let before = try peakResidentBytes()
        let response = try Uploader().send(
            UploadRequest(
                url: server.base + "/discard",
                body: .raw(
                    .stream(fileDescriptor: pipe.readDescriptor, prefix: [], teePath: nil),
                    contentType: "application/octet-stream"),
                result: .body))
        let growth = try peakResidentBytes() - before
        // CURLINFO_SIZE_UPLOAD_T counts the chunked framing too.
        #expect(response.bytesSent >= 512 << 20)
        #expect(String(decoding: response.body, as: UTF8.self).contains("\"length\": \(512 << 20)"))
        #expect(growth < 128 << 20, "peak RSS grew by \(growth >> 20) MiB")
    }
}

/// Hands out `true` a fixed number of times.
final class Countdown: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var left: Int
    init(_ count: Int) { left = count }
    func next() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        left -= 1
        return left >= 0
    }
}

/// The process's peak resident set (VmHWM) in bytes.
func peakResidentBytes() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
    let kilobytes = try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
    return kilobytes * 1024
}

/// SHA-256 in hex, by `sha256sum` (the toolchain has no hash in the standard library).
func sha256Hex(_ bytes: [UInt8]) throws -> String {
    let result = try runProcess("/usr/bin/sha256sum", [], input: .bytes(Data(bytes)), timeout: 30)
    return String(result.out.prefix(64))
}
