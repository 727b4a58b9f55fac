import Foundation
import Testing
import TestSupport

/// A tiny HTTP (or raw TCP) server in Python's standard library (`Fixtures/test_server.py`), for
/// Upload's tests only.
///
/// It listens on 127.0.0.1 port 0, prints its port, and answers by path:
/// - `/redirect?to=URL&code=302` redirects; `/loop` redirects to itself;
/// - `/delay?s=N` reads the request, then says nothing for N seconds;
/// - `/status?code=503&retry_after=V` answers that status (with Retry-After when given);
/// - `/big?n=N` answers N bytes;
/// - `/http09` answers with bare text, no status line (HTTP/0.9); `/huge-header` sends a
///   200 KB header line;
/// - `/discard` reads the body in pieces, keeping only its length and SHA-256;
/// - anything else echoes (with `?save=PATH` the body is written to PATH instead of echoed) the request as JSON: method, path, headers (as sent), the body
///   (base64), whether it came chunked, and which connection carried it (connections are
///   numbered from 1 in accept order).
/// In `tcp` mode it reads each connection to end of file and answers
/// `https://termbin.example/<length>/<sha256>\n`.
/// The test that starts it stops it (`deinit` terminates the process).
final class TestServer: @unchecked Sendable {
    // Safe: immutable after init; the process is only killed in deinit.
    let process: SpawnedProcess
    let port: Int

    /// The server's base URL (`http://127.0.0.1:PORT`).
    var base: String { "http://127.0.0.1:\(port)" }

    init(mode: String = "http") throws {
        let script = try #require(Bundle.module.url(forResource: "Fixtures/test_server", withExtension: "py"))
        let output = Pipe()
        process = try SpawnedProcess(
            "/usr/bin/python3", [script.path, mode], standardOutput: .handle(output.fileHandleForWriting))
        try? output.fileHandleForWriting.close()
        let line = LineBox()
        Thread.detachNewThread {
            var data = Data()
            while !data.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                data.append(chunk)
            }
            line.set(String(decoding: data, as: UTF8.self))
        }
        try waitUntil("the test server prints its port", timeout: 20) { line.get() != nil }
        guard let port = Int(line.get()!.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ServerFailed(output: line.get() ?? "")
        }
        self.port = port
    }

    deinit {
        process.send(SIGKILL)
        _ = process.wait(seconds: 30)
    }

    struct ServerFailed: Error { var output: String }

    private final class LineBox: @unchecked Sendable {
        // Safe: every access holds `lock`.
        private let lock = NSLock()
        private var line: String?
        func set(_ value: String) {
            lock.lock()
            line = value
            lock.unlock()
        }
        func get() -> String? {
            lock.lock()
            defer { lock.unlock() }
            return line
        }
    }
}
