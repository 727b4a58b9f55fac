import CryptoInterop
import PasteCore
import SystemInterop

/// SHA-256 as 64 lower-case hexadecimal digits: history's `sha256` of a text, and what an outbox
/// entry's id and the repeat key are cut from.
///
/// libcrypto's (CryptoInterop's `SHA256Hasher`), paste's one SHA-256; a stream's digest is the
/// same one, fed as it is sent (Upload's `StreamDigest`). The stores import CryptoInterop for it
/// themselves, so PasteCore needs no digest at all.
public enum ContentDigest {
    /// The SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> String {
        Hexadecimal.lowercase(SHA256Hasher.digest(bytes.span))
    }

    /// The SHA-256 of the file at `path`, read in chunks; nil when it cannot be read.
    public static func sha256(ofFile path: String) -> String? {
        let hasher = SHA256Hasher()
        do {
            try FileSystem.forEachChunk(ofFile: path) { hasher.update($0.span) }
        } catch {
            return nil
        }
        return Hexadecimal.lowercase(hasher.finalize())
    }
}
