/// Where the bytes of a request body (or of one multipart part) come from.
///
/// CurlInterop reads them straight into libcurl's upload buffer, so a body is never held whole
/// in memory unless it already was.
public enum BodySource: Sendable, Equatable {
    /// Bytes in memory; copied once, into libcurl's buffer, as they are sent.
    case bytes([UInt8])
    /// Bytes in memory held in pieces, sent one after another as if joined (a multipart body
    /// framed around the caller's content without copying that content into one buffer).
    case segments([[UInt8]])
    /// A regular file of known size, sent with a length and read in chunks.
    case file(path: String, size: Int64)
    /// A descriptor of unknown length (a pipe), sent chunked after `prefix` (bytes the caller
    /// already read from it). Everything sent, prefix included, is also appended to `teePath`
    /// when given. The descriptor is read, never closed: its owner closes it.
    case stream(fileDescriptor: Int32, prefix: [UInt8], teePath: String?)

    /// The length when known in advance; nil for streams.
    public var knownLength: Int64? {
        switch self {
        case .bytes(let bytes): Int64(bytes.count)
        case .segments(let segments): segments.reduce(0) { $0 + Int64($1.count) }
        case .file(_, let size): size
        case .stream: nil
        }
    }
}
