import CurlInterop
import Foundation
import SystemInterop
import Testing
import TestSupport

/// The easy handle against a real server on 127.0.0.1 (paste-mock, started per test): the
/// request libcurl sends, the answer it collects, and the body sources it reads through
/// CurlInterop's callbacks.
@Suite("EasyHandle on loopback")
struct EasyHandleTests: ScopedSuite {
    /// A POST of `body` to paste-mock's paste.rs route, which stores the raw body.
    func post(_ body: BodySource, length: Int64, to server: MockServer) throws -> EasyHandle {
        let handle = try EasyHandle()
        try handle.set(.url, server.url("/pasters/"))
        try handle.set(.noSignal, true)
        try handle.set(.post, true)
        try handle.set(.postBodySize, length)
        try handle.setHeaders(HeaderList(["Expect:", "Content-Type: text/plain"]))
        try handle.setBody(body)
        try handle.perform()
        return handle
    }

    /// The id at the end of the URL paste-mock answers with.
    func pasteID(_ handle: EasyHandle) throws -> Int {
        try #require(Int(String(decoding: handle.responseBody, as: UTF8.self).split(separator: "/").last ?? ""))
    }

    @Test("bytes in memory are sent exactly; the answer's status, body and counters come back", .mock)
    func bytes() throws {
        let text = Array("hello from the easy handle ✓\n".utf8)
        let handle = try post(.bytes(text), length: Int64(text.count), to: mock)
        #expect(handle.info.responseCode == 201)
        #expect(handle.info.bodyBytesSent == Int64(text.count))
        #expect(handle.info.primaryIP == "127.0.0.1")
        #expect(try mock.rawPaste(id: pasteID(handle)) == Data(text))
        let request = try #require(try mock.requests().first { $0.path == "/pasters/" })
        #expect(request.method == "POST")
        #expect(request.expectContinue == false)
        #expect(request.chunked == false)
    }

    @Test(
        "a stream of unknown length goes chunked after its prefix, and is teed to disk byte for byte", .mock,
        .temporaryHome)
    func streamWithTee() throws {
        let teePath = home.root.path + "/tee"

        let prefix = Array("the start, read already\n".utf8)
        let rest = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) | 1 }
        let pair = try FileDescriptor.makeSocketPair()
        let readEnd = pair.first
        let writeRaw = pair.second.release()
        let writer = Thread {
            let writeEnd = FileDescriptor(adopting: writeRaw)
            try? writeEnd.writeAll(rest)
        }
        writer.start()
        let handle = try post(
            .stream(fileDescriptor: readEnd.rawValue, prefix: prefix, teePath: teePath), length: -1, to: mock)
        #expect(handle.info.responseCode == 201)
        let sent = prefix + rest
        #expect(try mock.rawPaste(id: pasteID(handle)) == Data(sent))
        #expect(try FileSystem.readFile(teePath).bytes == sent)
        #expect(try #require(try mock.requests().first { $0.path == "/pasters/" }).chunked)
    }

    @Test("a missing file is a local read failure carrying its Errno, before anything is sent")
    func missingFile() throws {
        let handle = try EasyHandle()
        #expect(
            throws: CurlError(
                code: .readError, detail: "",
                localFailure: .read(path: "/nonexistent/paste", errno: .noSuchFileOrDirectory))
        ) {
            try handle.setBody(.file(path: "/nonexistent/paste", size: 1))
        }
    }

    @Test("TLS to a server that answers in plain HTTP fails with OpenSSL's words, though its text is loaded only then")
    func tlsErrorReadable() throws {
        // Answers every connection at once, before reading anything: the TLS hello gets HTTP.
        let script = """
            import socket
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
            print("listening on http://127.0.0.1:%d" % s.getsockname()[1], flush=True)
            while True:
                c, _ = s.accept(); c.sendall(b"HTTP/1.1 400 Bad Request\\r\\nContent-Length: 0\\r\\n\\r\\n"); c.close()
            """
        let server = try ServerProcess("/usr/bin/python3", ["-c", script])
        let handle = try EasyHandle()
        try handle.set(.url, "https://127.0.0.1:\(server.port)/pasters/")
        try handle.set(.noSignal, true)
        do {
            try handle.perform()
            Issue.record("a TLS handshake with a plain HTTP server worked")
        } catch {
            #expect(error.detail.contains("SSL routines::"), "\(error.detail)")
            #expect(!error.detail.contains("reason("), "\(error.detail)")
        }
    }

    @Test("a port nobody listens on fails to connect, with the OS errno in the transfer info")
    func refused() throws {
        let server = try MockServer()
        let deadURL = server.url("/pasters/")
        _ = try server.stop()
        let handle = try EasyHandle()
        try handle.set(.url, deadURL)
        try handle.set(.noSignal, true)
        #expect(throws: CurlError.self) { try handle.perform() }
        #expect(Errno(rawValue: handle.info.osErrno) == Errno(rawValue: 111), "ECONNREFUSED")
        #expect(handle.info.responseCode == 0)
    }
}
