internal import CCrypto

/// SHA-256 through libcrypto's own SHA-256 functions: paste's one SHA-256.
///
/// Owns one `SHA256_CTX` (allocated here). It hashes the gigabytes a stream can carry as they
/// are sent (libcrypto's block function uses the CPU's SHA extensions, so hashing keeps up with
/// the upload), and the short texts the stores name things by (Stores' `ContentDigest`).
///
/// PERF(hotkey): `SHA256_Init`/`SHA256_Update`/`SHA256_Final`, not EVP: OpenSSL 3's
/// `EVP_sha256()` digest is fetched from its default provider on first use, building the
/// provider's name map, 0.4-0.6 ms of a hotkey run for a digest of 1 KiB that takes 4 µs
/// (issue 44). Both run the same assembly block function, so a stream hashes as fast.
public final class SHA256Hasher {
    private let context: UnsafeMutablePointer<SHA256_CTX>
    private var isFinished = false

    /// Starts a digest. Wraps `SHA256_Init`.
    public init() {
        context = UnsafeMutablePointer<SHA256_CTX>.allocate(capacity: 1)
        let started = SHA256_Init(context)
        precondition(started == 1, "SHA256_Init failed")
    }

    deinit { context.deallocate() }

    /// Adds bytes. Wraps `SHA256_Update`.
    public func update(_ bytes: Span<UInt8>) {
        precondition(!isFinished, "update after finalize")
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return }
            _ = SHA256_Update(context, base, buffer.count)
        }
    }

    /// The digest of `bytes` in one call.
    public static func digest(_ bytes: Span<UInt8>) -> [UInt8] {
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The 32-byte digest; call once. Wraps `SHA256_Final`.
    public func finalize() -> [UInt8] {
        precondition(!isFinished, "finalize called twice")
        isFinished = true
        var digest = [UInt8](repeating: 0, count: 32)
        let finished = digest.withUnsafeMutableBufferPointer { SHA256_Final($0.baseAddress, context) }
        precondition(finished == 1, "SHA256_Final failed")
        return digest
    }
}

@available(*, unavailable)
extension SHA256Hasher: Sendable {}
