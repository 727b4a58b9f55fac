internal import CCrypto

/// PBKDF2 (RFC 8018 §5.2) with HMAC-SHA-256, through libcrypto.
public enum PBKDF2 {
    /// Derives `keyLength` bytes from `password` and `salt`.
    ///
    /// Wraps `PKCS5_PBKDF2_HMAC(…, EVP_sha256(), …)`.
    ///
    /// - Parameters:
    ///   - password: the secret (PrivateBin: the random key, then the password's bytes).
    ///   - salt: the salt.
    ///   - iterations: the iteration count, at least 1.
    ///   - keyLength: how many bytes to derive.
    /// - Throws: `CryptoError.libcrypto` when libcrypto refuses.
    public static func sha256(
        password: [UInt8], salt: [UInt8], iterations: Int, keyLength: Int
    ) throws(CryptoError) -> [UInt8] {
        precondition(iterations >= 1 && iterations <= Int(Int32.max), "PBKDF2 needs 1 or more iterations")
        precondition(keyLength >= 1 && keyLength <= 1 << 16, "PBKDF2 key length out of range")
        precondition(password.count <= Int(Int32.max) && salt.count <= Int(Int32.max), "PBKDF2 input too long")
        var key = [UInt8](repeating: 0, count: keyLength)
        let status = key.withUnsafeMutableBufferPointer { key in
            password.withUnsafeBytes { password in
                salt.withUnsafeBufferPointer { salt in
                    PKCS5_PBKDF2_HMAC(
                        password.bindMemory(to: CChar.self).baseAddress, Int32(password.count),
                        salt.baseAddress, Int32(salt.count), Int32(iterations), EVP_sha256(),
                        Int32(keyLength), key.baseAddress)
                }
            }
        }
        guard status == 1 else { throw .libcrypto("PKCS5_PBKDF2_HMAC") }
        return key
    }
}
