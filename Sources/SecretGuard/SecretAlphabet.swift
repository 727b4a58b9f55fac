import PasteCore

/// A set of ASCII bytes: the alphabet of a part of a secret (`A-Za-z0-9_-`).
struct SecretAlphabet: Sendable {
    var low: UInt64 = 0
    var high: UInt64 = 0

    /// The bytes listed, where `a-z` stands for a range.
    init(_ spec: String) {
        let bytes = Array(spec.utf8)
        var index = 0
        while index < bytes.count {
            if index + 2 < bytes.count && bytes[index + 1] == UInt8(ascii: "-") {
                for byte in bytes[index]...bytes[index + 2] { insert(byte) }
                index += 3
            } else {
                insert(bytes[index])
                index += 1
            }
        }
    }

    mutating func insert(_ byte: UInt8) {
        precondition(byte < 128)
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    @inline(__always) func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? (low >> UInt64(byte)) & 1 != 0 : byte < 128 && (high >> UInt64(byte &- 64)) & 1 != 0
    }

    static let digits = SecretAlphabet("0-9")
    static let hex = SecretAlphabet("0-9a-fA-F")
    static let lowerHex = SecretAlphabet("0-9a-f")
    static let letters = SecretAlphabet("a-zA-Z")
    static let alphanumeric = SecretAlphabet("a-zA-Z0-9")
    static let lowerAlphanumeric = SecretAlphabet("a-z0-9")
    static let upperAlphanumeric = SecretAlphabet("A-Z0-9")
    /// Base64url (RFC 4648 §5): letters, digits, `-` and `_`.
    static let base64URL = SecretAlphabet("a-zA-Z0-9_-")
    /// Standard base64 with its padding.
    static let base64 = SecretAlphabet("a-zA-Z0-9+/=")
}
