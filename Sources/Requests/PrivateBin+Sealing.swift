import FoundationEssentials
import PasteCore

/// Encrypting a paste for PrivateBin (steps 1 to 4 of `PrivateBin`), for the request builder
/// (`RequestBuilder+PrivateBin.swift`).
extension PrivateBin {
    /// A paste ready to send.
    public struct SealedPaste: Sendable, Equatable {
        /// The request body: `{"v":2,"adata":…,"ct":…,"meta":…}`.
        public var body: [UInt8]
        /// `#KEY` or `#-KEY`, to append to the paste's URL; never sent.
        public var fragment: String
        /// The body with the ciphertext replaced by `RequestBuilder.contentMarker`, for
        /// `--dry-run`.
        public var preview: String
    }

    /// Encrypts `text` as a new paste.
    ///
    /// - Parameters:
    ///   - text: the paste.
    ///   - formatter: how PrivateBin shows it.
    ///   - burnsAfterReading: whether the paste is deleted once read.
    ///   - expire: an expiry name (`expire(for:)`).
    ///   - compression: `zlib` (raw deflate) unless told otherwise.
    ///   - cryptography: the primitives (random bytes, PBKDF2, AES-GCM, deflate).
    /// - Throws: `CryptographyError` when a primitive fails.
    public static func seal(
        _ text: String, formatter: Formatter, burnsAfterReading: Bool, expire: String,
        compression: Compression = .zlib, using cryptography: any PasteCryptography
    ) throws(CryptographyError) -> SealedPaste {
        let key = try cryptography.randomBytes(count: keyLength)
        let iv = try cryptography.randomBytes(count: ivLength)
        let salt = try cryptography.randomBytes(count: saltLength)
        let aesKey = try cryptography.pbkdf2SHA256(
            password: key, salt: salt, iterations: iterations, keyLength: keyBits / 8)
        let adata = additionalData(
            iv: iv, salt: salt, compression: compression, formatter: formatter, burnsAfterReading: burnsAfterReading)
        let message = self.message(text)
        let plaintext = compression == .zlib ? try cryptography.deflateRaw(message) : message
        let sealed = try cryptography.sealAESGCM(
            plaintext, key: aesKey, iv: iv, additionalData: adata, tagLength: tagBits / 8)
        let head = "{\"v\":2,\"adata\":" + String(decoding: adata, as: UTF8.self) + ",\"ct\":\""
        let tail = "\",\"meta\":{\"expire\":" + JSONText.quote(expire) + "}}"
        return SealedPaste(
            body: Array((head + Data(sealed).base64EncodedString() + tail).utf8),
            fragment: (burnsAfterReading ? "#-" : "#") + Base58.encode(key),
            preview: head + "encrypted " + RequestBuilder.contentMarker + tail)
    }

    /// The compact JSON of `adata`, byte for byte as sent and as authenticated:
    /// `[[IV,SALT,100000,256,128,"aes","gcm",COMPRESSION],FORMATTER,OPENDISCUSSION,BURN]`.
    ///
    /// Written by hand: readers authenticate it by serializing the parsed array again
    /// (`JSON.stringify` in the web client, `json.dumps(…, separators=(',',':'))` in pbincli),
    /// so it must be exactly that form. Foundation's writers would escape base64's `/` as `\/`,
    /// which breaks the tag. Discussion stays closed (PrivateBin refuses it with burning).
    public static func additionalData(
        iv: [UInt8], salt: [UInt8], compression: Compression, formatter: Formatter, burnsAfterReading: Bool
    ) -> [UInt8] {
        let spec =
            "[\"\(Data(iv).base64EncodedString())\",\"\(Data(salt).base64EncodedString())\","
            + "\(iterations),\(keyBits),\(tagBits),\"aes\",\"gcm\",\"\(compression.rawValue)\"]"
        return Array("[\(spec),\"\(formatter.rawValue)\",0,\(burnsAfterReading ? 1 : 0)]".utf8)
    }

    /// The message encrypted: `{"paste":TEXT}`, escaped as RFC 8259 requires and no further.
    static func message(_ text: String) -> [UInt8] {
        Array(("{\"paste\":" + JSONText.quote(text) + "}").utf8)
    }
}
