import Foundation
import PasteCore
import Testing
import TestSupport

@testable import Upload

/// The stream-inspection hook, JSON bodies escaped as they stream, and the answer's deadline.
@Suite("Streams inspected on their way to libcurl; JSON escaped as it streams; the answer's deadline", .testServer)
struct StreamInspectionTests: ScopedSuite {
    /// Text with what JSON must escape, multi-byte characters, and no NUL.
    static let jsonText = Array("q\"uote\" back\\slash\ttab\u{1}ctl café 日本語 🎉\r\n".utf8)

    /// `count` bytes of `jsonText` repeated.
    static func text(count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count + jsonText.count <= count { bytes += jsonText }
        // Padded with ASCII, so no multi-byte character is cut at the end.
        return bytes + [UInt8](repeating: UInt8(ascii: "x"), count: count - bytes.count)
    }

    /// A JSON request whose `content` member is `content`, escaped as it streams.
    func jsonRequest(_ content: ContentSource, path: String = "/json", result: ResultRule = .body) -> UploadRequest {
        var request = UploadRequest(
            url: server.base + path,
            body: .embedded(
                prefix: Array(#"{"title": "t", "content": ""#.utf8), content: content, escaping: .jsonString,
                suffix: Array(#""}"#.utf8), contentType: "application/json"),
            result: result)
        request.contentChecks = .text(in: .json)
        return request
    }

    /// The `content` member of a JSON body the server saved, decoded.
    func content(of saved: TemporaryFile) throws -> [UInt8] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(saved.contents)) as? [String: String])
        #expect(object["title"] == "t")
        return Array(try #require(object["content"]).utf8)
    }

    @Test("a pipe inside a JSON template arrives escaped, chunked, byte-exact once decoded, and teed")
    func jsonFromPipe() throws {
        // Past several 64 KiB reads, with escapes straddling every boundary.
        let text = Self.text(count: 700_001)
        let tee = try TemporaryFile()
        let saved = try TemporaryFile()
        // The start was read from the pipe already (as stdin's first 8 MiB are): feed the rest.
        let rest = FedPipe(Array(text.dropFirst(10)))
        let echo = try Echo(
            try Uploader().send(
                jsonRequest(
                    .stream(fileDescriptor: rest.readDescriptor, prefix: Array(text.prefix(10)), teePath: tee.path),
                    path: "/json?save=" + saved.path)))
        #expect(echo.chunked)
        #expect(echo.header("Content-Type") == "application/json")
        #expect(try content(of: saved) == text)
        #expect(tee.contents == text)
    }

    @Test("a file inside a JSON template streams too, and is sent again whole after a 307")
    func jsonFromFileRedirected() throws {
        let text = Self.text(count: 300_000)
        let file = try TemporaryFile(text)
        let saved = try TemporaryFile()
        let target = (server.base + "/landed?save=" + saved.path)
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let request = jsonRequest(
            .file(path: file.path, size: Int64(text.count)), path: "/redirect?code=307&to=\(target)", result: .redirect)
        let response = try Uploader().send(request)
        let echo = try Echo(response)
        #expect(echo.path.hasPrefix("/landed?save="))
        #expect(echo.method == "POST")
        // Inspected from the start again (the inspection restarted), and whole.
        #expect(try content(of: saved) == text)
    }

    @Test(
        "a NUL met in a stream stops the transfer before the request completes, as a content refusal",
        arguments: ["raw", "multipart", "json", "tcp"])
    func nulInStream(_ shape: String) throws {
        let tcp = try TestServer(mode: "tcp")
        let start = Self.text(count: 200_000)
        let pipe = FedPipe(start + [0x00] + Self.text(count: 100_000))
        let source = ContentSource.stream(fileDescriptor: pipe.readDescriptor, prefix: [], teePath: nil)
        var request: UploadRequest
        switch shape {
        case "raw":
            request = UploadRequest(
                url: server.base + "/raw", body: .raw(source, contentType: "text/plain"), result: .body)
        case "multipart":
            request = UploadRequest(
                url: server.base + "/form",
                body: .multipart([
                    FormField(name: "a", value: .text("b")),
                    FormField(name: "content", value: .content(source, fileName: nil, contentType: nil)),
                ]), result: .body)
        case "tcp":
            request = UploadRequest(
                url: "tcp://127.0.0.1:\(tcp.port)", body: .raw(source, contentType: ""), result: .body)
        default: request = jsonRequest(source)
        }
        request.contentChecks = .text(in: shape == "json" ? .json : .raw)
        let error = try #require(throws: UploadError.self) { try Uploader().send(request) }
        #expect(error == .contentRefused(.binary(source: "the input", offset: 200_000)))
        #expect(error.exitStatus == .badInput)
        #expect(!error.mayHaveReachedServer)
        #expect(RetryPolicy().decide(after: .failure(error), attempt: 1) == .stop)
    }

    @Test(
        "a teed stream is inspected as it is read: a NUL blocks in stops it, every byte read is teed",
        arguments: ["raw", "multipart", "json", "tcp"])
    func nulInTeedStream(_ shape: String) throws {
        let tcp = try TestServer(mode: "tcp")
        let tee = try TemporaryFile()
        // Past several of the tee's 1 MiB blocks, so the refusal comes mid-way, blocks in flight.
        let offset = 3 * 1_048_576 + 12_345
        let text = Self.text(count: offset) + [0x00] + Self.text(count: 2 * 1_048_576)
        let pipe = FedPipe(Array(text.dropFirst(100)))
        let source = ContentSource.stream(
            fileDescriptor: pipe.readDescriptor, prefix: Array(text.prefix(100)), teePath: tee.path)
        var request: UploadRequest
        switch shape {
        case "raw":
            request = UploadRequest(
                url: server.base + "/raw", body: .raw(source, contentType: "text/plain"), result: .body)
        case "multipart":
            request = UploadRequest(
                url: server.base + "/form",
                body: .multipart([FormField(name: "content", value: .content(source, fileName: nil, contentType: nil))]
                ),
                result: .body)
        case "tcp":
            request = UploadRequest(
                url: "tcp://127.0.0.1:\(tcp.port)", body: .raw(source, contentType: ""), result: .body)
        default: request = jsonRequest(source)
        }
        request.contentChecks = .text(in: shape == "json" ? .json : .raw)
        let seen = SeenBytes()
        let error = try #require(throws: UploadError.self) {
            try Uploader().send(request, streamObserver: { seen.bytes += $0.bytes })
        }
        #expect(error == .contentRefused(.binary(source: "the input", offset: Int64(offset))))
        #expect(!error.mayHaveReachedServer)
        // Every byte read went to the tee, in order; the observer (the digest, following the
        // tee on a thread of its own) saw exactly what was teed, refused chunk and all.
        let teed = tee.contents
        #expect(teed.count > offset && Array(text.prefix(teed.count)) == teed)
        #expect(seen.bytes == teed)
    }

    @Test("a clean teed stream is observed whole, in order, by the time the send returns")
    func teedStreamObservedWhole() throws {
        let tee = try TemporaryFile()
        let text = Self.text(count: 2 * 1_048_576 + 777)
        let pipe = FedPipe(Array(text.dropFirst(10)))
        let request = UploadRequest(
            url: server.base + "/raw",
            body: .raw(
                .stream(fileDescriptor: pipe.readDescriptor, prefix: Array(text.prefix(10)), teePath: tee.path),
                contentType: "text/plain"),
            result: .body)
        let seen = SeenBytes()
        var ended = false
        _ = try Uploader().send(
            request, streamObserver: { seen.bytes += $0.bytes },
            streamEnd: {
                // The end comes once the tee's thread has seen everything.
                ended = seen.bytes == text
            })
        #expect(ended)
        #expect(seen.bytes == text)
        #expect(tee.contents == text)
    }

    @Test("a sequence cut short at the very end of a file is refused before the last bytes go")
    func truncatedUTF8AtEndOfFile() throws {
        let text = Self.text(count: 200_000) + [0xE2, 0x82]
        let file = try TemporaryFile(text)
        let error = try #require(throws: UploadError.self) {
            try Uploader().send(jsonRequest(.file(path: file.path, size: Int64(text.count))))
        }
        #expect(error == .contentRefused(.notUTF8(source: "'\(file.path)'", offset: 200_000, format: .json)))
        // Over raw TCP too: the connection is reset, the refusal reported the same way.
        let tcp = try TestServer(mode: "tcp")
        var request = UploadRequest(
            url: "tcp://127.0.0.1:\(tcp.port)",
            body: .raw(.file(path: file.path, size: Int64(text.count)), contentType: ""),
            result: .body)
        request.contentChecks = .text(in: .json)
        let overTCP = try #require(throws: UploadError.self) { try Uploader().send(request) }
        #expect(overTCP == error)
    }

    /// Stdin held whole in the outbox for `--redact`, or its masked copy, is read by its
    /// descriptor: a refusal names it as its checks do (`ContentChecks.contentName`), not by
    /// that path.
    @Test("a file read as /proc/self/fd/N is refused under the name its checks give it")
    func refusalNamedByChecks() throws {
        let text = Self.text(count: 200_000) + [0xFF] + Self.text(count: 10)
        let file = try TemporaryFile(text)
        let handle = try #require(FileHandle(forReadingAtPath: file.path))
        defer { try? handle.close() }
        var request = jsonRequest(.file(path: "/proc/self/fd/\(handle.fileDescriptor)", size: Int64(text.count)))
        request.contentChecks.contentName = "stdin"
        let error = try #require(throws: UploadError.self) { try Uploader().send(request) }
        #expect(error == .contentRefused(.notUTF8(source: "stdin", offset: 200_000, format: .json)))
    }

    @Test("content with no checks is not inspected: a file sent as a file keeps its NUL bytes")
    func noChecks() throws {
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x00, 0x00, 0xFF] + Self.text(count: 100_000)
        let file = try TemporaryFile(bytes)
        let request = UploadRequest(
            url: server.base + "/raw",
            body: .raw(.file(path: file.path, size: Int64(bytes.count)), contentType: "image/png"),
            result: .body)
        #expect(request.contentChecks == .none)
        #expect(try Echo(try Uploader().send(request)).bodyBytes == bytes)
    }

    @Test("a server silent once the body is sent is cut at the response timeout; the request's own wins")
    func answerDeadline() throws {
        let started = ContinuousClock.now
        var request = UploadRequest(
            url: server.base + "/delay?s=30", body: .raw(.bytes(Array("text".utf8)), contentType: "text/plain"),
            result: .body)
        let uploader = Uploader(
            options: TransportOptions(timeouts: TransferTimeouts(stall: .seconds(60), response: .seconds(1))))
        let error = try #require(throws: UploadError.self) { try uploader.send(request) }
        #expect(error == .timedOut(url: request.url, phase: .response(seconds: 1), requestSent: true))
        #expect(
            error.message
                == "no complete answer from 127.0.0.1:\(server.port) within 1s of sending the text (response-timeout)")
        #expect(error.exitStatus == .temporaryFailure)
        #expect(ContinuousClock.now - started < .seconds(20))
        // A streamed body starts the clock at its end; the request's timeout overrides the uploader's.
        request.responseTimeout = .milliseconds(1500)
        let pipe = FedPipe(Self.text(count: 300_000))
        request.body = .raw(
            .stream(fileDescriptor: pipe.readDescriptor, prefix: [], teePath: nil), contentType: "text/plain")
        let streamed = try #require(throws: UploadError.self) { try uploader.send(request) }
        #expect(streamed == .timedOut(url: request.url, phase: .response(seconds: 1.5), requestSent: true))
    }

    @Test("a duration too long for milliseconds is bounded, never trapped")
    func hugeDurations() {
        #expect(Duration.seconds(1e16).roundedUpMilliseconds == Int(Int32.max))
        #expect(Duration.seconds(Int64.max).roundedUpMilliseconds == Int(Int32.max))
        #expect(Duration.milliseconds(1).roundedUpMilliseconds == 1)
        #expect(Duration.nanoseconds(1).roundedUpMilliseconds == 1)
        #expect(
            Uploader(options: TransportOptions(timeouts: TransferTimeouts(stall: .seconds(1e15)))).stallSeconds
                == 86_400)
        #expect(HTTPDate.parse("Sun, 06 Nov 99999999999999999 08:49:37 GMT") == nil)
    }
}

/// What a stream observer saw (filled on the tee's thread, read once the send returned).
private final class SeenBytes {
    var bytes: [UInt8] = []
}

extension Span<UInt8> {
    /// The span's bytes, copied.
    fileprivate var bytes: [UInt8] {
        var copy: [UInt8] = []
        copy.reserveCapacity(count)
        for index in indices { copy.append(self[index]) }
        return copy
    }
}
