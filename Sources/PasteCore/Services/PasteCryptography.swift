/// The cryptographic primitives a client-side encrypted service (PrivateBin) needs.
///
/// PasteCore describes the format (what is encrypted, with which parameters, how the result is
/// laid out) but imports no C library: Upload implements this over libcrypto and zlib
/// (`SystemCryptography`), and tests may pass fixed bytes to check the layout.
public protocol PasteCryptography: Sendable {
    /// `count` bytes from a cryptographically secure source.
    func randomBytes(count: Int) throws(CryptographyError) -> [UInt8]
    /// PBKDF2 with HMAC-SHA-256 (RFC 8018 §5.2).
    func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, keyLength: Int)
        throws(CryptographyError) -> [UInt8]
    /// AES-256-GCM: the ciphertext with the `tagLength`-byte tag appended.
    func sealAESGCM(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8], additionalData: [UInt8], tagLength: Int)
        throws(CryptographyError) -> [UInt8]
    /// Raw deflate (RFC 1951, no zlib header).
    func deflateRaw(_ bytes: [UInt8]) throws(CryptographyError) -> [UInt8]
}

/// A cryptographic primitive failed: a broken library or no memory, never the person's input.
public struct CryptographyError: PasteError, Equatable {
    /// The step that failed (`AES-256-GCM`, `PBKDF2`, `deflate`).
    public var operation: String
    /// The library's own account of it (function, reason and code).
    public var detail: String

    /// Makes an error.
    public init(operation: String, detail: String) {
        self.operation = operation
        self.detail = detail
    }

    public var message: String { "cannot encrypt the paste: \(operation) failed: \(detail)" }
    public var exitStatus: ExitStatus { .internalError }
}
