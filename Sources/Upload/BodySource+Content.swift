import CurlInterop
import PasteCore

/// `ContentSource` (PasteCore) and `BodySource` (CurlInterop) look alike, and stay two types
/// on purpose, mapped here, once, for every body and part Upload hands to libcurl or a socket.
///
/// - The arrows forbid one type: PasteCore imports only SystemInterop, CurlInterop imports
///   nothing of ours (it is a thin skin over libcurl). A shared type would have to live in
///   SystemInterop, the POSIX layer, where a paste's content has no business.
/// - They mean different things and are growing apart. `ContentSource` is what a paste is made
///   of, as the request, the outbox, the guard and history see it (and where a MIME type for
///   images and files will travel); `BodySource` is how bytes reach libcurl's read callback,
///   with cases of its own (`segments`: a multipart body framed around the content without
///   copying it) that a request description has no use for.
extension BodySource {
    /// The libcurl-side body source for a paste's content.
    init(_ content: ContentSource) {
        switch content {
        case .bytes(let bytes): self = .bytes(bytes)
        case .file(let path, let size): self = .file(path: path, size: size)
        case .stream(let fd, let prefix, let teePath, let holdsPrefix):
            self = .stream(fileDescriptor: fd, prefix: prefix, teePath: teePath, teeHoldsPrefix: holdsPrefix)
        }
    }
}
