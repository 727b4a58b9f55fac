import Foundation
import PasteCore
import TestSupport
import Testing

/// What the test server saw of one request.
struct Echo: Decodable {
    var method: String
    var path: String
    var headers: [[String]]
    var body: String
    var chunked: Bool
    var connection: Int

    /// The request body, decoded.
    var bodyBytes: [UInt8] { Array(Data(base64Encoded: body) ?? Data()) }

    /// The first header with this name (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0[0].lowercased() == name.lowercased() }?[1]
    }

    init(_ response: UploadResponse) throws {
        self = try JSONDecoder().decode(Echo.self, from: Data(response.body))
    }

    /// The multipart parts of the body, split on the boundary of the Content-Type.
    func parts() throws -> [Part] {
        let contentType = try #require(header("Content-Type"))
        let boundary = try #require(contentType.components(separatedBy: "boundary=").last)
        return try Part.split(bodyBytes, boundary: boundary)
    }
}

/// One part of a multipart/form-data body.
struct Part: Equatable {
    var headers: [String]
    var content: [UInt8]

    /// The `name="..."` of the Content-Disposition.
    var name: String? { disposition(parameter: "name") }
    /// The `filename="..."` of the Content-Disposition.
    var fileName: String? { disposition(parameter: "filename") }

    private func disposition(parameter: String) -> String? {
        guard let line = headers.first(where: { $0.lowercased().hasPrefix("content-disposition:") }),
            let start = line.range(of: "; \(parameter)=\"")
        else { return nil }
        let rest = line[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// Splits a body on `--boundary` delimiters (RFC 2046 §5.1.1), byte-exact.
    static func split(_ body: [UInt8], boundary: String) throws -> [Part] {
        let delimiter = Array("--\(boundary)".utf8)
        let separator = Array("\r\n--\(boundary)".utf8)
        #expect(Array(body.prefix(delimiter.count)) == delimiter, "the body starts with the delimiter")
        var parts: [Part] = []
        var position = delimiter.count
        while true {
            // After a delimiter: "--" ends the body, "\r\n" starts a part.
            if body[position..<position + 2].elementsEqual("--".utf8) { break }
            position += 2
            let headerEnd = try #require(find(Array("\r\n\r\n".utf8), in: body, from: position))
            let headers = String(decoding: body[position..<headerEnd], as: UTF8.self)
                .components(separatedBy: "\r\n")
            let contentStart = headerEnd + 4
            let contentEnd = try #require(find(separator, in: body, from: contentStart))
            parts.append(Part(headers: headers, content: Array(body[contentStart..<contentEnd])))
            position = contentEnd + separator.count
        }
        return parts
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}

/// A pipe whose write end is fed from a background thread, as a shell pipeline would.
final class FedPipe: @unchecked Sendable {
    // Safe: the pipe is written only by the feeding thread, read only by the test.
    let pipe = Pipe()
    /// The descriptor to read from.
    var readDescriptor: Int32 { pipe.fileHandleForReading.fileDescriptor }

    /// Starts writing `chunks()` (until it returns nil), then closes the write end.
    init(chunks: @escaping @Sendable () -> [UInt8]?) {
        let writer = pipe.fileHandleForWriting
        Thread.detachNewThread {
            withoutSIGPIPE {
                while let chunk = chunks() { try? writer.write(contentsOf: Data(chunk)) }
                try? writer.close()
            }
        }
    }

    /// Feeds exactly these bytes.
    convenience init(_ bytes: [UInt8]) {
        let box = OnceBox(bytes)
        self.init { box.take() }
    }
}

/// Hands out a value once, then nil.
final class OnceBox: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var value: [UInt8]?
    init(_ value: [UInt8]) { self.value = value }
    func take() -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        let v = value
        value = nil
        return v
    }
}

/// A temporary file removed when the value goes away.
final class TemporaryFile: @unchecked Sendable {
    // Safe: immutable.
    let path: String
    init(_ bytes: [UInt8]? = nil) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("upload-test-\(UUID().uuidString)").path
        if let bytes { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    var contents: [UInt8] { (try? Array(Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }
}

/// Text that breaks naive shell splicing and encoders: CJK, emoji, quotes, `$(…)`, CRLF, a NUL,
/// and no trailing newline.
let trickyText = Array(
    "日本語のテキスト 🎉👩‍💻 \"double\" 'single' `back` $(rm -rf /) ${HOME} \\ back\r\nCRLF line\nLF\u{0}NUL end"
        .utf8)
