import Foundation
import PasteCore
import Testing
import TestSupport
@testable import Upload

/// What goes out on the wire, byte for byte, for each kind of body.
@Suite("Request bodies on the wire", .testServer)
struct RequestBodyTests: ScopedSuite {
    let uploader = Uploader()

    @Test("multipart fields and content arrive byte-exact, in order, without Expect")
    func multipartBytes() throws {
        let request = UploadRequest(
            url: server.base + "/pastes/create",
            body: .multipart([
                FormField(name: "paste[parser]", value: .text("plaintext")),
                FormField(name: "paste[body]", value: .content(.bytes(trickyText), fileName: nil, contentType: nil)),
                FormField(name: "名前", value: .text("値 🎉")),
            ]), result: .body)
        let response = try uploader.send(request)
        let echo = try Echo(response)
        #expect(echo.method == "POST")
        #expect(echo.header("Expect") == nil)
        #expect(echo.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
        let parts = try echo.parts()
        #expect(parts.map(\.name) == ["paste[parser]", "paste[body]", "名前"])
        #expect(parts.map(\.content) == [Array("plaintext".utf8), trickyText, Array("値 🎉".utf8)])
        #expect(response.bytesSent == Int64(echo.bodyBytes.count))
    }

    @Test("a 10 MiB file part streams with a Content-Length, filename and type")
    func multipartFile() throws {
        var content = [UInt8](repeating: 0, count: 10 << 20)
        for index in content.indices { content[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 9) }
        let file = try TemporaryFile(content)
        let saved = try TemporaryFile()
        let request = UploadRequest(
            url: server.base + "/upload?save=" + saved.path,
            body: .multipart([
                FormField(
                    name: "file",
                    value: .content(
                        .file(path: file.path, size: Int64(content.count)), fileName: "notes \"x\".txt",
                        contentType: "text/plain; charset=utf-8"))
            ]), result: .body)
        var echo = try Echo(try uploader.send(request))
        echo.body = Data(saved.contents).base64EncodedString()
        #expect(echo.header("Expect") == nil)
        #expect(!echo.chunked)
        #expect(Int(echo.header("Content-Length") ?? "") == echo.bodyBytes.count)
        let parts = try echo.parts()
        try #require(parts.count == 1)
        #expect(parts[0].content == content)
        #expect(parts[0].headers.contains("Content-Type: text/plain; charset=utf-8"))
        // libcurl escapes a quote in a filename as %22 (HTML5 form encoding).
        #expect(parts[0].fileName == "notes %22x%22.txt")
    }

    @Test("a streamed multipart part goes chunked and is teed to the outbox file")
    func multipartStream() throws {
        let tee = try TemporaryFile()
        let pipe = FedPipe(trickyText)
        let request = UploadRequest(
            url: server.base + "/upload",
            body: .multipart([
                FormField(
                    name: "content",
                    value: .content(
                        .stream(fileDescriptor: pipe.readDescriptor, prefix: [], teePath: tee.path), fileName: nil,
                        contentType: nil))
            ]), result: .body)
        let echo = try Echo(try uploader.send(request))
        #expect(echo.chunked)
        #expect(echo.header("Expect") == nil)
        #expect(try echo.parts().map(\.content) == [trickyText])
        #expect(tee.contents == trickyText)
    }

    @Test("a form body is urlencoded the WHATWG way")
    func formEncoding() throws {
        let request = UploadRequest(
            url: server.base + "/form",
            body: .form([(name: "paste[body]", value: "a b&c=d+é\r\n$(x)"), (name: "lang", value: "text")]),
            result: .body)
        let echo = try Echo(try uploader.send(request))
        #expect(echo.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(
            String(decoding: echo.bodyBytes, as: UTF8.self)
                == "paste%5Bbody%5D=a+b%26c%3Dd%2B%C3%A9%0D%0A%24%28x%29&lang=text")
    }

    @Test("raw bytes go out exactly, with a Content-Length and the given type")
    func rawBytes() throws {
        let request = UploadRequest(
            url: server.base + "/raw", headers: ["X-Title: tricky"],
            body: .raw(.bytes(trickyText), contentType: "text/plain"),
            result: .body)
        let echo = try Echo(try uploader.send(request))
        #expect(echo.bodyBytes == trickyText)
        #expect(echo.header("Content-Length") == String(trickyText.count))
        #expect(echo.header("Content-Type") == "text/plain")
        #expect(echo.header("X-Title") == "tricky")
        #expect(echo.header("User-Agent") == "paste/\(TransportOptions.clientVersion)")
        #expect(!echo.chunked)
    }

    @Test("PUT sends the raw body with the PUT method")
    func rawPut() throws {
        let request = UploadRequest(
            url: server.base + "/put", method: "PUT", body: .raw(.bytes(trickyText), contentType: "text/plain"),
            result: .body)
        let echo = try Echo(try uploader.send(request))
        #expect(echo.method == "PUT")
        #expect(echo.bodyBytes == trickyText)
        #expect(echo.header("Expect") == nil)
    }

    @Test("a raw file body has Content-Length and arrives whole")
    func rawFile() throws {
        let content = Array(repeating: trickyText, count: 5000).flatMap { $0 }
        let file = try TemporaryFile(content)
        let request = UploadRequest(
            url: server.base + "/raw",
            body: .raw(.file(path: file.path, size: Int64(content.count)), contentType: "text/plain"),
            result: .body)
        let response = try uploader.send(request)
        let echo = try Echo(response)
        #expect(!echo.chunked)
        #expect(echo.header("Content-Length") == String(content.count))
        #expect(echo.bodyBytes == content)
        #expect(response.bytesSent == Int64(content.count))
    }

    @Test("a raw stream goes chunked, and the tee file equals what was sent")
    func rawStream() throws {
        let content = Array(repeating: trickyText, count: 3000).flatMap { $0 }
        let tee = try TemporaryFile()
        let pipe = FedPipe(content)
        let request = UploadRequest(
            url: server.base + "/raw",
            body: .raw(
                .stream(fileDescriptor: pipe.readDescriptor, prefix: [], teePath: tee.path), contentType: "text/plain"),
            result: .body)
        let echo = try Echo(try uploader.send(request))
        #expect(echo.chunked)
        #expect(echo.header("Content-Length") == nil)
        #expect(echo.header("Expect") == nil)
        #expect(echo.bodyBytes == content)
        #expect(tee.contents == content)
    }

    @Test(
        "a multi-megabyte stream tees byte-exact, whatever its length against the 1 MiB tee blocks",
        arguments: [(4 << 20) - 1, 4 << 20, (5 << 20) + 4097 + 13])
    func largeStreamTee(length: Int) throws {
        var content = [UInt8](repeating: 0, count: length)
        for index in content.indices { content[index] = UInt8(truncatingIfNeeded: index &* 131 &+ index >> 11) }
        let prefix = Array(content[..<777])
        let tee = try TemporaryFile()
        let saved = try TemporaryFile()
        // After an odd-sized prefix, so the reads never line up with the tee's blocks.
        let pipe = FedPipe(Array(content[777...]))
        let request = UploadRequest(
            url: server.base + "/upload?save=" + saved.path,
            body: .multipart([
                FormField(
                    name: "paste[body]",
                    value: .content(
                        .stream(fileDescriptor: pipe.readDescriptor, prefix: prefix, teePath: tee.path), fileName: nil,
                        contentType: nil))
            ]), result: .body)
        var echo = try Echo(try uploader.send(request))
        echo.body = Data(saved.contents).base64EncodedString()
        #expect(echo.chunked)
        #expect(try echo.parts().first?.content == content)
        #expect(tee.contents == content)
    }

    @Test("a stream tee appends after what its file already holds")
    func teeAppends() throws {
        let start = Array("kept from before\n".utf8)
        let content = [UInt8](repeating: 0x62, count: (2 << 20) + 5)
        let tee = try TemporaryFile(start)
        let saved = try TemporaryFile()
        let pipe = FedPipe(content)
        let request = UploadRequest(
            url: server.base + "/raw?save=" + saved.path,
            body: .raw(
                .stream(fileDescriptor: pipe.readDescriptor, prefix: [], teePath: tee.path), contentType: "text/plain"),
            result: .body)
        _ = try uploader.send(request)
        #expect(saved.contents == content)
        #expect(tee.contents == start + content)
    }

    @Test("a tee that holds the prefix already (stdin's entry) is continued: the prefix is not written twice")
    func teeContinuesPrefix() throws {
        // 8 MiB and a bit, as stdin's entry holds it once the read stops (PasteInput.inMemoryLimit).
        var prefix = [UInt8](repeating: 0, count: 8 << 20)
        for index in prefix.indices { prefix[index] = UInt8(truncatingIfNeeded: index &* 7 &+ index >> 11) }
        let rest = [UInt8](repeating: 0x72, count: (1 << 20) + 333)
        let tee = try TemporaryFile(prefix)
        let saved = try TemporaryFile()
        let pipe = FedPipe(rest)
        let request = UploadRequest(
            url: server.base + "/raw?save=" + saved.path,
            body: .raw(
                .stream(fileDescriptor: pipe.readDescriptor, prefix: prefix, teePath: tee.path, teeHoldsPrefix: true),
                contentType: "text/plain"),
            result: .body)
        _ = try uploader.send(request)
        #expect(saved.contents == prefix + rest)
        #expect(tee.contents.count == prefix.count + rest.count)
        #expect(tee.contents == prefix + rest)
    }

    @Test("a rendered JSON body goes out as given")
    func renderedJSON() throws {
        let json = Array(#"{"content": "日本 \"q\"\n"}"#.utf8)
        let request = UploadRequest(
            url: server.base + "/api", body: .rendered(json, contentType: "application/json"),
            result: .json(pointer: "/link"))
        let echo = try Echo(try uploader.send(request))
        #expect(echo.bodyBytes == json)
        #expect(echo.header("Content-Type") == "application/json")
    }

    @Test("the verbose sink sees headers with credentials redacted")
    func verboseRedaction() throws {
        let lines = Recorder<String>()
        let uploader = Uploader(options: TransportOptions(verbose: { lines.append($0) }))
        let request = UploadRequest(
            url: server.base + "/raw",
            headers: ["Authorization: Bearer sekrit-token", "Cookie: session=abc123", "X-Auth-Token: t0k3n"],
            body: .raw(.bytes(Array("hi".utf8)), contentType: "text/plain"), result: .body)
        let echo = try Echo(try uploader.send(request))
        #expect(echo.header("Authorization") == "Bearer sekrit-token")
        let trace = lines.all.joined(separator: "\n")
        #expect(trace.contains("> Authorization: [redacted]"))
        #expect(trace.contains("> Cookie: [redacted]"))
        #expect(trace.contains("> X-Auth-Token: [redacted]"))
        #expect(trace.contains("< X-Echo: yes"))
        #expect(!trace.contains("sekrit") && !trace.contains("abc123") && !trace.contains("t0k3n"))
    }

    @Test("progress reports the bytes sent and the known total")
    func progress() throws {
        let reports = Recorder<(Int64, Int64?)>()
        let uploader = Uploader(options: TransportOptions(progress: { reports.append(($0, $1)) }))
        let content = [UInt8](repeating: 65, count: 300_000)
        _ = try uploader.send(
            UploadRequest(
                url: server.base + "/raw", body: .raw(.bytes(content), contentType: "text/plain"), result: .body))
        let last = try #require(reports.all.last)
        #expect(last.0 == 300_000)
        #expect(last.1 == 300_000)
    }

    @Test("the response body is bounded and the rest discarded")
    func boundedBody() throws {
        let size = UploadResponse.maximumBodyBytes + 12345
        let response = try uploader.send(
            UploadRequest(
                url: server.base + "/big?n=\(size)", body: .rendered([], contentType: "text/plain"), result: .body))
        #expect(response.status == 200)
        #expect(response.body.count == UploadResponse.maximumBodyBytes)
    }
}
