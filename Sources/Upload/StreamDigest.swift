import CryptoInterop

/// The SHA-256 of a streamed body, fed as each chunk is sent (`Uploader.send(_:streamObserver:)`),
/// so a gigabyte is not read twice, with libcrypto's hardware-assisted hash so hashing keeps up
/// with the upload.
public final class StreamDigest {
    private let hasher = SHA256Hasher()
    /// How many bytes went through.
    public private(set) var byteCount: Int64 = 0

    public init() {}

    /// Adds a chunk.
    public func update(_ chunk: Span<UInt8>) {
        hasher.update(chunk)
        byteCount += Int64(chunk.count)
    }

    /// The lowercase hex digest; call once, after the transfer.
    public func finalizeHex() -> String {
        let digits: [Character] = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(64)
        for byte in hasher.finalize() {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}

@available(*, unavailable)
extension StreamDigest: Sendable {}
