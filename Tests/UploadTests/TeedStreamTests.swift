import CryptoInterop
import Foundation
import PasteCore
import Testing
import TestSupport

@testable import Upload

/// Issue 44, item 5: a teed stream's digest follows on a thread of its own, beside the secret
/// guard's scan, and the scan counts no lines until it finds something (the refusal's line is
/// then counted from the outbox copy). The digest is still the whole input's; a key in the last
/// chunk still stops the request; a key's line deep in the stream is still exact.
@Suite("Teed streams: the digest beside the guard, lines counted from the copy", .testServer)
struct TeedStreamTests: ScopedSuite {
    static let key = Array("AKIAY026A4N7VAPKLNWR".utf8)

    /// `count` bytes of a pattern with line feeds, every byte printable or a line feed.
    static func text(count: Int) -> [UInt8] {
        // A loop over a buffer, not `map` with a closure: most of the suite's debug CPU was that.
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index < count {
                buffer[index] =
                    index % 61 == 60 ? 0x0A : UInt8(ascii: "a") + UInt8(truncatingIfNeeded: index &* 7 % 26)
                index += 1
            }
        }
        return bytes
    }

    /// Whether two byte arrays are equal, at `memcmp`'s speed: in a debug build `Array`'s generic
    /// `==` compares byte by byte through witness calls.
    static func sameBytes(_ left: some Sequence<UInt8>, _ right: some Sequence<UInt8>) -> Bool {
        Data(left) == Data(right)
    }

    /// A raw request streaming `text` through a pipe (its first `prefixCount` bytes read already,
    /// as stdin's start is), teed into `tee`; the guard on when `guarded`.
    /// (A raw request's body is saved into `saved`, when given: the answer stays small.)
    func request(
        _ text: [UInt8], prefixCount: Int, tee: TemporaryFile, guarded: Bool, shape: String = "raw",
        saved: TemporaryFile? = nil
    ) throws -> (UploadRequest, FedPipe, TestServer?) {
        let pipe = FedPipe(Array(text.dropFirst(prefixCount)))
        let source = ContentSource.stream(
            fileDescriptor: pipe.readDescriptor, prefix: Array(text.prefix(prefixCount)), teePath: tee.path)
        var request: UploadRequest
        var tcp: TestServer?
        if shape == "tcp" {
            let listener = try TestServer(mode: "tcp")
            tcp = listener
            request = UploadRequest(
                url: "tcp://127.0.0.1:\(listener.port)", body: .raw(source, contentType: ""), result: .body)
        } else {
            request = UploadRequest(
                url: server.base + "/raw" + (saved.map { "?save=" + $0.path } ?? ""),
                body: .raw(source, contentType: "text/plain"), result: .body)
        }
        request.contentChecks = ContentChecks(
            refusesBinary: true, scansSecrets: guarded, secretsScannedUpFront: Int64(prefixCount))
        return (request, pipe, tcp)
    }

    @Test(
        "the digest of a teed stream is the SHA-256 of the whole input, at sizes around the reads and the tee's blocks",
        arguments: [1, 65_535, 65_536, 65_537, 1_048_575, 1_048_576, 1_048_577, 8 * 1_048_576 + 3, 9 * 1_048_576 - 1])
    func digestIsWhole(_ count: Int) throws {
        let text = Self.text(count: count)
        for guarded in [true, false] {
            let tee = try TemporaryFile()
            let saved = try TemporaryFile()
            let (request, pipe, _) = try request(
                text, prefixCount: min(count, 100), tee: tee, guarded: guarded, saved: saved)
            let digest = StreamDigest()
            var atEnd: (count: Int64, hex: String)?
            _ = try Uploader().send(
                request, streamObserver: { digest.update($0) },
                streamEnd: { atEnd = (digest.byteCount, digest.finalizeHex()) })
            _ = pipe
            let expected = Hexadecimal.lowercase(SHA256Hasher.digest(text.span))
            // Whole at the stream's end, where the outbox entry records it.
            #expect(atEnd?.count == Int64(count), "guarded \(guarded)")
            #expect(atEnd?.hex == expected, "guarded \(guarded)")
            #expect(Self.sameBytes(saved.contents, text))
            #expect(Self.sameBytes(tee.contents, text))
        }
    }

    /// Text of lines of 79 `x` and a line feed up to byte `offset - 6`, then `key = ` and the
    /// key at byte `offset`, then `after` bytes of lines (none: the key ends the stream).
    static func keyed(at offset: Int, after: Int) -> (text: [UInt8], line: Int) {
        let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 79) + [0x0A]
        var text: [UInt8] = []
        text.reserveCapacity(offset + after + 100)
        let before = offset - 6
        for _ in 0..<(before / 80) { text += filler }
        text += [UInt8](repeating: UInt8(ascii: "x"), count: before % 80)
        text += Array("key = ".utf8) + Self.key
        if after > 0 {
            text.append(0x0A)
            for _ in 0..<(after / 80) { text += filler }
        }
        return (text, before / 80 + 1)
    }

    struct Place: Sendable, CustomTestStringConvertible {
        var offset: Int
        var after: Int
        var shape: String
        var testDescription: String { "\(shape): key at \(offset), \(after) bytes after it" }
    }

    @Test(
        "a key deep in a teed stream, or in its last bytes, stops the request, on its exact line",
        arguments: [
            // In the last chunk: the stream ends with the key.
            Place(offset: 9 * 1_048_576 + 4321, after: 0, shape: "raw"),
            Place(offset: 9 * 1_048_576 + 4321, after: 0, shape: "tcp"),
            // Straddling the held start (8 MiB, scanned up front), then on a tee block's edge.
            Place(offset: 8 * 1_048_576 - 7, after: 300_000, shape: "raw"),
            Place(offset: 10 * 1_048_576 - 9, after: 2 * 1_048_576, shape: "raw"),
            Place(offset: 10 * 1_048_576 - 9, after: 2 * 1_048_576, shape: "tcp"),
        ])
    func keyDeep(_ place: Place) throws {
        let (text, line) = Self.keyed(at: place.offset, after: place.after)
        let tee = try TemporaryFile()
        let (request, pipe, tcp) = try request(
            text, prefixCount: 8 * 1_048_576, tee: tee, guarded: true, shape: place.shape)
        let digest = StreamDigest()
        var ended = false
        let error = try #require(throws: UploadError.self) {
            try Uploader().send(request, streamObserver: { digest.update($0) }, streamEnd: { ended = true })
        }
        _ = (pipe, tcp)
        #expect(
            error
                == .contentRefused(
                    .secret(source: "the input", pattern: .awsAccessKeyID, offset: Int64(place.offset), line: line)))
        // The end was never handed over: a chunked request without its last chunk makes no paste.
        #expect(!ended)
        #expect(!error.mayHaveReachedServer)
        // The copy holds every byte read, in order; the digest followed the copy.
        let teed = tee.contents
        #expect(teed.count > place.offset && Self.sameBytes(text.prefix(teed.count), teed))
        #expect(digest.byteCount == Int64(teed.count))
    }
}
