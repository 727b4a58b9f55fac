internal import CCrypto

/// SHA-256 through libcrypto's EVP interface: paste's one SHA-256.
///
/// Owns one `EVP_MD_CTX` (`EVP_MD_CTX_new` / `EVP_MD_CTX_free`). It hashes the gigabytes a stream
/// can carry as they are sent (libcrypto uses the CPU's SHA extensions, so hashing keeps up with
/// the upload), and the short texts the stores name things by (Stores' `ContentDigest`).
public final class SHA256Hasher {
    private let context: OpaquePointer
    private var isFinished = false

    /// Starts a digest. Wraps `EVP_MD_CTX_new` and `EVP_DigestInit_ex(…, EVP_sha256(), NULL)`.
    public init() {
        guard let context = EVP_MD_CTX_new() else {
            preconditionFailure("EVP_MD_CTX_new failed: out of memory")
        }
        self.context = context
        let started = EVP_DigestInit_ex(context, EVP_sha256(), nil)
        precondition(started == 1, "EVP_DigestInit_ex(SHA-256) failed")
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes. Wraps `EVP_DigestUpdate`.
    public func update(_ bytes: Span<UInt8>) {
        precondition(!isFinished, "update after finalize")
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return }
            _ = EVP_DigestUpdate(context, base, buffer.count)
        }
    }

    /// The digest of `bytes` in one call.
    public static func digest(_ bytes: Span<UInt8>) -> [UInt8] {
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The 32-byte digest; call once. Wraps `EVP_DigestFinal_ex`.
    public func finalize() -> [UInt8] {
        precondition(!isFinished, "finalize called twice")
        isFinished = true
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let finished = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        precondition(finished == 1 && length == 32, "EVP_DigestFinal_ex failed")
        return digest
    }
}

@available(*, unavailable)
extension SHA256Hasher: Sendable {}
