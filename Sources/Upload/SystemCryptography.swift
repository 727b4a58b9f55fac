import CryptoInterop
import PasteCore

/// The primitives PrivateBin's format needs, from the system: random bytes from the kernel,
/// PBKDF2 and AES-256-GCM from libcrypto, raw deflate from zlib (CryptoInterop).
///
/// PasteCore describes the format and imports no C; this is where its `PasteCryptography` meets
/// the libraries, on the same side of the arrows as the transfer that sends the result.
public struct SystemCryptography: PasteCryptography {
    /// Makes the provider; it holds nothing.
    public init() {}

    /// Bytes from `SystemRandomNumberGenerator`, which on Linux is getrandom(2) (the kernel's
    /// CSPRNG; the standard library falls back to /dev/urandom only where getrandom is missing).
    public func randomBytes(count: Int) throws(CryptographyError) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            let word: UInt64 = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        return Array(bytes.prefix(count))
    }

    public func pbkdf2SHA256(
        password: [UInt8], salt: [UInt8], iterations: Int, keyLength: Int
    ) throws(CryptographyError) -> [UInt8] {
        do {
            return try PBKDF2.sha256(password: password, salt: salt, iterations: iterations, keyLength: keyLength)
        } catch {
            throw CryptographyError(operation: "PBKDF2", detail: error.description)
        }
    }

    public func sealAESGCM(
        _ plaintext: [UInt8], key: [UInt8], iv: [UInt8], additionalData: [UInt8], tagLength: Int
    ) throws(CryptographyError) -> [UInt8] {
        do {
            return try AESGCM.seal(plaintext, key: key, iv: iv, additionalData: additionalData, tagLength: tagLength)
        } catch {
            throw CryptographyError(operation: "AES-256-GCM", detail: error.description)
        }
    }

    public func deflateRaw(_ bytes: [UInt8]) throws(CryptographyError) -> [UInt8] {
        do {
            return try RawDeflate.compress(bytes)
        } catch {
            throw CryptographyError(operation: "deflate", detail: error.description)
        }
    }
}
