import PasteCore

/// A `multipart/form-data` body (RFC 7578) encoded here, when every part is already in memory,
/// framed byte for byte the way libcurl 7.88's `curl_mime` frames it.
///
/// Why not `curl_mime`: `curl_mime_init` makes its boundary with `Curl_rand_hex`, which asks
/// OpenSSL's DRBG (`RAND_status`, `RAND_bytes`) and so instantiates and seeds it: about 0.8 ms of
/// a 14 ms hotkey paste, for 16 hex digits. Here the boundary comes from
/// `SystemRandomNumberGenerator`, which on Linux is the kernel's `getrandom(2)` (no OpenSSL),
/// and, unlike libcurl's, is checked against the parts so it cannot occur in them.
/// Parts that stream from a file or a pipe still go through `curl_mime` (see `Uploader`).
///
/// The body is kept as segments: the framing text (with short text fields inside it) and each
/// content part's own array, shared, not copied. `BodySource.segments` sends them in order
/// through libcurl's read callback, which can also rewind them for a 307/308 re-POST.
struct MultipartBody {
    /// One part whose bytes are in memory.
    struct Part: Equatable {
        /// The field name, sent as UTF-8.
        var name: String
        /// The part's data.
        var data: [UInt8]
        /// The `filename=` of the Content-Disposition, if any.
        var fileName: String?
        /// The part's Content-Type, if any.
        var contentType: String?
        /// Whether `data` is short text copied into the framing rather than kept as a segment.
        var isInline: Bool
    }

    /// The boundary, without the leading `--`.
    let boundary: String
    /// The request's media type, before `; boundary=`.
    let contentType: String
    /// The body, in the order sent.
    let segments: [[UInt8]]

    /// The body's length in bytes (the request's Content-Length).
    var length: Int64 { segments.reduce(0) { $0 + Int64($1.count) } }

    /// What every boundary starts with: libcurl's 24 dashes (lib/mime.c, `MIME_BOUNDARY_DASHES`).
    static let boundaryDashes = String(repeating: "-", count: 24)
    /// Random bytes per boundary: 12 bytes, 24 hex digits (96 bits; libcurl 7.88 uses 16 digits).
    /// With the dashes that is 48 characters, within RFC 2046's limit of 70.
    static let boundaryRandomBytes = 12
    /// How many boundaries are drawn before giving up. A random 96-bit tail occurring in a part
    /// by chance is as unlikely as anything gets; a second draw is for tests and the paranoid.
    static let maximumBoundaryAttempts = 8

    /// The parts of `fields` when every one is in memory (text, or content given as bytes);
    /// nil when a part streams from a file or a pipe.
    static func inMemoryParts(_ fields: [FormField]) -> [Part]? {
        var parts: [Part] = []
        parts.reserveCapacity(fields.count)
        for field in fields {
            switch field.value {
            case .text(let text):
                parts.append(Part(name: field.name, data: Array(text.utf8), isInline: true))
            case .content(.bytes(let bytes), let fileName, let contentType):
                parts.append(
                    Part(
                        name: field.name, data: bytes, fileName: fileName, contentType: contentType,
                        isInline: false))
            case .content(.file, _, _), .content(.stream, _, _):
                return nil
            }
        }
        return parts
    }

    /// The media type of a form upload, used unless the service sets its own.
    static let formDataType = "multipart/form-data"

    /// Encodes `parts` with a fresh boundary that occurs in none of them.
    ///
    /// - Parameters:
    ///   - contentType: the request's media type (`contentType(userHeaders:)`). As in libcurl,
    ///     parts are `form-data` under `multipart/form-data`, and `attachment` under any other.
    ///   - generator: where boundaries come from (`SystemRandomNumberGenerator` outside tests).
    /// - Returns: nil when `maximumBoundaryAttempts` boundaries all occurred in some part.
    init?(parts: [Part], contentType: String = formDataType, using generator: inout some RandomNumberGenerator) {
        for _ in 0..<Self.maximumBoundaryAttempts {
            let random = Self.makeRandomHex(using: &generator)
            // The random tail is enough to check: where it is absent, so is the whole boundary.
            if parts.contains(where: { Self.occurs(random, in: $0) }) { continue }
            boundary = Self.boundaryDashes + String(decoding: random, as: UTF8.self)
            self.contentType = contentType
            let disposition = Self.matches(contentType, Self.formDataType) ? "form-data" : "attachment"
            segments = Self.frame(parts, boundary: Array(boundary.utf8), disposition: disposition)
            return
        }
        return nil
    }

    /// The request's Content-Type header line: the media type with `; boundary=…` appended.
    var contentTypeHeader: String { "Content-Type: \(contentType); boundary=\(boundary)" }

    /// The request's media type: `multipart/form-data`, or the service's own Content-Type value,
    /// as libcurl takes it for a MIME post.
    ///
    /// libcurl (lib/http.c, `HTTPREQ_POST_MIME`) takes the first header named Content-Type
    /// (`Name:` or `Name;`), skips the 13 characters of the name and separator and any spaces,
    /// and leaves out every user Content-Type line (`otherHeaders(_:)` does the same).
    static func contentType(userHeaders: [String]) -> String {
        let value = userHeaders.first(where: isContentTypeLine).map { line in
            String(
                decoding: line.utf8.dropFirst(contentTypePrefixLength).drop { $0 == UInt8(ascii: " ") },
                as: UTF8.self)
        }
        return value ?? formDataType
    }

    /// libcurl's `content_type_match`: `type` starts with `target` (any case), followed by the
    /// end, a blank, or `;`.
    static func matches(_ type: String, _ target: String) -> Bool {
        let bytes = Array(type.lowercased().utf8)
        let prefix = Array(target.utf8)
        guard bytes.starts(with: prefix) else { return false }
        guard bytes.count > prefix.count else { return true }
        return [UInt8(ascii: "\t"), 0x0D, 0x0A, UInt8(ascii: " "), UInt8(ascii: ";")].contains(bytes[prefix.count])
    }

    /// The service's header lines without its Content-Type, replaced by `contentTypeHeader`.
    static func otherHeaders(_ userHeaders: [String]) -> [String] {
        userHeaders.filter { !isContentTypeLine($0) }
    }

    /// `Content-Type:` or `Content-Type;`, any case: libcurl's `Curl_checkheaders` match.
    private static func isContentTypeLine(_ line: String) -> Bool {
        let bytes = Array(line.utf8.prefix(contentTypePrefixLength))
        guard bytes.count == contentTypePrefixLength else { return false }
        let name = String(decoding: bytes.dropLast(), as: UTF8.self)
        return name.lowercased() == "content-type"
            && (bytes.last == UInt8(ascii: ":") || bytes.last == UInt8(ascii: ";"))
    }

    /// `Content-Type` and its separator.
    private static let contentTypePrefixLength = 13

    // MARK: - Framing

    /// The segments for `parts`, framed as libcurl's `mime_subparts_read` does:
    /// `--B` then, per part, `\r\n` + header lines + `\r\n` + data + `\r\n--B`, then `--\r\n`.
    private static func frame(_ parts: [Part], boundary: [UInt8], disposition: String) -> [[UInt8]] {
        var segments: [[UInt8]] = []
        var framing: [UInt8] = Array("--".utf8) + boundary
        for part in parts {
            framing += crlf
            framing += Array("Content-Disposition: \(disposition); name=\"".utf8) + escaped(part.name) + [quote]
            if let fileName = part.fileName {
                framing += Array("; filename=\"".utf8) + escaped(fileName) + [quote]
            }
            framing += crlf
            if let contentType = part.contentType.map(cString) ?? defaultContentType(for: part.fileName) {
                framing += Array("Content-Type: ".utf8) + contentType + crlf
            }
            framing += crlf
            if part.isInline || part.data.isEmpty {
                framing += part.data
            } else {
                segments.append(framing)
                segments.append(part.data)
                framing = []
            }
            framing += crlf + Array("--".utf8) + boundary
        }
        framing += Array("--".utf8) + crlf
        segments.append(framing)
        return segments
    }

    private static let crlf: [UInt8] = [0x0D, 0x0A]
    private static let quote = UInt8(ascii: "\"")

    /// A header string as libcurl sends it: a C string, so it ends at the first NUL.
    private static func cString(_ text: String) -> [UInt8] {
        Array(text.utf8.prefix { $0 != 0 })
    }

    /// A name or file name escaped as libcurl's `escape_string` does for form-data (WHATWG HTML
    /// "multipart/form-data encoding algorithm"): `"` → `%22`, CR → `%0D`, LF → `%0A`, nothing
    /// else (a backslash stays as it is; the backslash escapes are for CURLMIMEOPT_FORMESCAPE).
    static func escaped(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for byte in cString(text) {
            switch byte {
            case quote: out += Array("%22".utf8)
            case 0x0D: out += Array("%0D".utf8)
            case 0x0A: out += Array("%0A".utf8)
            default: out.append(byte)
            }
        }
        return out
    }

    /// libcurl's `Curl_mime_contenttype`: the type it sends for a part with a file name and no
    /// type of its own, from the name's extension (any case); nil for other extensions.
    static func defaultContentType(for fileName: String?) -> [UInt8]? {
        guard let fileName else { return nil }
        let lowered = String(decoding: cString(fileName), as: UTF8.self).lowercased()
        return extensionTypes.first { lowered.hasSuffix($0.extension) }.map { Array($0.type.utf8) }
    }

    /// lib/mime.c `ctts[]`, in its order, as of libcurl 7.88.
    private static let extensionTypes: [(extension: String, type: String)] = [
        (".gif", "image/gif"), (".jpg", "image/jpeg"), (".jpeg", "image/jpeg"), (".png", "image/png"),
        (".svg", "image/svg+xml"), (".txt", "text/plain"), (".htm", "text/html"), (".html", "text/html"),
        (".pdf", "application/pdf"), (".xml", "application/xml"),
    ]

    // MARK: - Boundary

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `boundaryRandomBytes` random bytes as lowercase hex digits.
    private static func makeRandomHex(using generator: inout some RandomNumberGenerator) -> [UInt8] {
        var hex: [UInt8] = []
        hex.reserveCapacity(boundaryRandomBytes * 2)
        var word: UInt64 = 0
        for index in 0..<boundaryRandomBytes {
            if index % 8 == 0 { word = generator.next() }
            let byte = UInt8(truncatingIfNeeded: word >> (8 * UInt64(index % 8)))
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0F)])
        }
        return hex
    }

    /// Whether `pattern` occurs anywhere in the part: its data, or its header values (a type is
    /// sent as given, so it could hold a line break and a delimiter).
    private static func occurs(_ pattern: [UInt8], in part: Part) -> Bool {
        contains(pattern, in: part.data) || contains(pattern, in: escaped(part.name))
            || part.fileName.map { contains(pattern, in: escaped($0)) } == true
            || part.contentType.map { contains(pattern, in: cString($0)) } == true
    }

    /// Horspool search: the random pattern shares few bytes with text, so most steps skip its
    /// whole length, and a big clipboard is scanned at a fraction of a copy's cost.
    static func contains(_ pattern: [UInt8], in text: [UInt8]) -> Bool {
        let length = pattern.count
        guard length > 0 else { return true }
        guard text.count >= length else { return false }
        var shift = [Int](repeating: length, count: 256)
        for index in 0..<(length - 1) { shift[Int(pattern[index])] = length - 1 - index }
        let last = pattern[length - 1]
        var start = 0
        while start <= text.count - length {
            let end = text[start + length - 1]
            if end == last, text[start..<(start + length - 1)].elementsEqual(pattern[0..<(length - 1)]) {
                return true
            }
            start += shift[Int(end)]
        }
        return false
    }
}
