/// Where the bytes of a request body (or of one multipart part) come from.
///
/// CurlInterop reads them straight into libcurl's upload buffer, so a body is never held whole
/// in memory unless it already was.
public indirect enum BodySource: Sendable, Equatable {
    /// Bytes in memory; copied once, into libcurl's buffer, as they are sent.
    case bytes([UInt8])
    /// Bytes in memory held in pieces, sent one after another as if joined (a multipart body
    /// framed around the caller's content without copying that content into one buffer).
    case segments([[UInt8]])
    /// A regular file of known size, sent with a length and read in chunks.
    case file(path: String, size: Int64)
    /// A descriptor of unknown length (a pipe), sent chunked after `prefix` (bytes the caller
    /// already read from it). Everything sent, prefix included, is also appended to `teePath`
    /// when given, but for the prefix when `teeHoldsPrefix` says the file holds it already (the
    /// tee continues it, `TeeWriter.init(path:continuing:)`). The descriptor is read, never
    /// closed: its owner closes it.
    case stream(fileDescriptor: Int32, prefix: [UInt8], teePath: String?, teeHoldsPrefix: Bool = false)
    /// `content` rewritten by `encoding` chunk by chunk as it is read, between `prefix` and
    /// `suffix`: a JSON body whose string member is a file or a pipe, escaped as it streams
    /// instead of rendered whole in memory. Its length is unknown (the encoding may grow the
    /// content), so it is sent chunked.
    case encoded(prefix: [UInt8], content: BodySource, encoding: BodyEncoding, suffix: [UInt8])

    /// The length when known in advance; nil for streams and encoded content.
    public var knownLength: Int64? {
        switch self {
        case .bytes(let bytes): Int64(bytes.count)
        case .segments(let segments): segments.reduce(0) { $0 + Int64($1.count) }
        case .file(_, let size): size
        case .stream, .encoded: nil
        }
    }
}

/// How `BodySource.encoded` rewrites its content on the way to libcurl (JSON string escaping).
///
/// The rule itself lives with the caller (PasteCore's `JSONText`): CurlInterop only moves bytes.
/// It must be stateless across chunks (each chunk is encoded on its own, in order), which
/// escaping byte by byte is. Two encodings are equal when their names are.
public struct BodyEncoding: Sendable, Equatable {
    /// What the encoding is, for equality and debugging (`json-string`).
    public var name: String
    /// Appends the encoding of `chunk` to `output`.
    public var encode: @Sendable (_ chunk: Span<UInt8>, _ output: inout [UInt8]) -> Void

    /// Makes an encoding.
    public init(name: String, encode: @escaping @Sendable (_ chunk: Span<UInt8>, _ output: inout [UInt8]) -> Void) {
        self.name = name
        self.encode = encode
    }

    public static func == (lhs: BodyEncoding, rhs: BodyEncoding) -> Bool { lhs.name == rhs.name }
}

/// Looks at a body's content on its way to libcurl, chunk by chunk, before libcurl has it, and
/// may stop the transfer: the hook where binary input, text that is not UTF-8 (and secrets) are
/// refused as a stream goes out, so that the server never receives a complete request.
///
/// Given to `EasyHandle.setBody(_:inspector:)`, `Mime.addPart(…, inspector:)` or
/// `RawConnection.send(_:inspector:…)` for the content source only (never its framing); for
/// `BodySource.encoded`, it sees the content before the encoding. When it refuses, the read
/// callback aborts (`CURL_READFUNC_ABORT`): a chunked body gets no final chunk, a body with a
/// length stops short of it, and a raw TCP connection is reset, not closed. The transfer then
/// fails with `CurlError.LocalFailure.refused`; why is the inspector's to keep and report.
///
/// Called on the transfer's thread, at most once per byte in order (a 307/308 that sends a file
/// again calls `restart` first); a stream's own bytes are never seen twice.
public protocol BodyInspector: AnyObject {
    /// The next chunk of content, before it is handed over; false stops the transfer and the
    /// chunk is not sent.
    func inspect(_ chunk: Span<UInt8>) -> Bool
    /// The content ended: called before its last bytes reach libcurl when the length is known
    /// (a file), or before libcurl learns of the end of a stream. False stops the transfer.
    func finish() -> Bool
    /// The content is about to be read again from its start (a 307/308 redirect).
    func restart()
}
