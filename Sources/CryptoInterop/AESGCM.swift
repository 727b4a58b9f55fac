internal import CCrypto

/// AES-256 in Galois/Counter Mode (NIST SP 800-38D) through libcrypto's EVP interface.
///
/// Wraps `EVP_CIPHER_CTX_new`, `EVP_EncryptInit_ex(EVP_aes_256_gcm())`, `EVP_CIPHER_CTX_ctrl`
/// (`EVP_CTRL_GCM_SET_IVLEN`, `EVP_CTRL_GCM_GET_TAG`), `EVP_EncryptUpdate` and
/// `EVP_EncryptFinal_ex`. The context lives only inside `seal` and is freed there.
public enum AESGCM {
    /// The key size of AES-256, in bytes.
    public static let keyLength = 32

    /// How much plaintext goes to one `EVP_EncryptUpdate` call: its lengths are C `int`s.
    static let chunkLength = 1 << 20

    /// Encrypts `plaintext` and returns the ciphertext with the authentication tag appended,
    /// the layout PrivateBin and WebCrypto use.
    ///
    /// - Parameters:
    ///   - plaintext: the bytes to encrypt.
    ///   - key: 32 bytes.
    ///   - iv: the initialisation vector, any non-empty length (GCM hashes one that is not 12
    ///     bytes long into the counter block, SP 800-38D §7.1).
    ///   - additionalData: authenticated but not encrypted (GCM's AAD).
    ///   - tagLength: the tag's length in bytes, 4 to 16.
    /// - Throws: `CryptoError.libcrypto` when libcrypto refuses a step.
    public static func seal(
        _ plaintext: [UInt8], key: [UInt8], iv: [UInt8], additionalData: [UInt8], tagLength: Int
    ) throws(CryptoError) -> [UInt8] {
        precondition(key.count == keyLength, "AES-256 takes a 32-byte key")
        precondition(!iv.isEmpty && iv.count <= Int(Int32.max), "GCM needs an IV")
        precondition((4...16).contains(tagLength), "GCM tags are 4 to 16 bytes")
        guard let context = EVP_CIPHER_CTX_new() else { throw .libcrypto("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }

        // The cipher first, then the IV length, then key and IV (the order EVP's GCM example uses).
        guard EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1 else {
            throw .libcrypto("EVP_EncryptInit_ex")
        }
        guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(iv.count), nil) == 1 else {
            throw .libcrypto("EVP_CIPHER_CTX_ctrl(EVP_CTRL_GCM_SET_IVLEN)")
        }
        let keyed = key.withUnsafeBufferPointer { key in
            iv.withUnsafeBufferPointer { iv in
                EVP_EncryptInit_ex(context, nil, nil, key.baseAddress, iv.baseAddress)
            }
        }
        guard keyed == 1 else { throw .libcrypto("EVP_EncryptInit_ex") }

        // The additional data: an update with no output buffer (EVP_EncryptUpdate(3)).
        var written: Int32 = 0
        for start in stride(from: 0, to: additionalData.count, by: chunkLength) {
            let end = min(additionalData.count, start + chunkLength)
            let added = additionalData.withUnsafeBufferPointer { data in
                EVP_EncryptUpdate(context, nil, &written, data.baseAddress! + start, Int32(end - start))
            }
            guard added == 1 else { throw .libcrypto("EVP_EncryptUpdate(AAD)") }
        }

        // GCM is a stream mode: each update writes exactly as many bytes as it reads, and the
        // final call writes none; the tag goes after the ciphertext.
        var output = [UInt8](repeating: 0, count: plaintext.count + tagLength)
        let status: Result<Void, CryptoError> = output.withUnsafeMutableBufferPointer { output in
            let out = output.baseAddress!
            var produced = 0
            for start in stride(from: 0, to: plaintext.count, by: chunkLength) {
                let end = min(plaintext.count, start + chunkLength)
                let updated = plaintext.withUnsafeBufferPointer { input in
                    EVP_EncryptUpdate(context, out + produced, &written, input.baseAddress! + start, Int32(end - start))
                }
                guard updated == 1 else { return .failure(.libcrypto("EVP_EncryptUpdate")) }
                produced += Int(written)
            }
            guard EVP_EncryptFinal_ex(context, out + produced, &written) == 1 else {
                return .failure(.libcrypto("EVP_EncryptFinal_ex"))
            }
            produced += Int(written)
            precondition(produced == plaintext.count, "GCM wrote \(produced) bytes for \(plaintext.count)")
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagLength), out + produced) == 1 else {
                return .failure(.libcrypto("EVP_CIPHER_CTX_ctrl(EVP_CTRL_GCM_GET_TAG)"))
            }
            return .success(())
        }
        try status.get()
        return output
    }
}
