import CryptoInterop
import PasteCore

/// The SHA-256 of a streamed body, fed as each chunk is sent (`Uploader.send(_:streamObserver:)`),
/// so a gigabyte is not read twice, with libcrypto's hardware-assisted hash so hashing keeps up
/// with the upload.
///
/// A teed stream feeds it on the tee's thread, block by block (CurlInterop's `BodyReader`); it is
/// read (`finalizeHex`, `byteCount`) only once the tee was flushed: at the stream's end, or after
/// the transfer.
public final class StreamDigest {
    private let hasher = SHA256Hasher()
    /// How many bytes went through.
    public private(set) var byteCount: Int64 = 0

    public init() {}

    /// Adds a chunk (before `finalizeHex`).
    public func update(_ chunk: Span<UInt8>) {
        precondition(finalHex == nil, "a stream digest fed after it was finalized")
        hasher.update(chunk)
        byteCount += Int64(chunk.count)
    }

    /// The digest, once finalized (a hasher finalizes once; later calls return this).
    private var finalHex: String?

    /// The lowercase hex digest of everything so far; the first call ends the hashing (at the
    /// stream's end, or after the transfer), later ones return the same digest.
    public func finalizeHex() -> String {
        if let finalHex { return finalHex }
        let text = Hexadecimal.lowercase(hasher.finalize())
        finalHex = text
        return text
    }
}

@available(*, unavailable)
extension StreamDigest: Sendable {}
