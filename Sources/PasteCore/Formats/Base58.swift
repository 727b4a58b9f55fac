/// Base58 with the Bitcoin alphabet, the encoding of PrivateBin's key in a paste's link.
///
/// PrivateBin's web client encodes the key with base-x and that alphabet
/// (js/privatebin.js, `CryptTool.base58encode`); pbincli uses the `base58` package. Both write
/// each leading zero byte as one `1`, and so does this.
public enum Base58 {
    /// The 58 digits, in order: no `0`, `O`, `I` or `l`, which look alike.
    public static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)

    /// The bytes as a big-endian base-58 number, leading zero bytes as `1`s.
    public static func encode(_ bytes: [UInt8]) -> String {
        let zeros = bytes.prefix { $0 == 0 }.count
        // Base-58 digits, least significant first; each byte multiplies by 256 and adds.
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count * 138 / 100 + 1)  // log(256) / log(58) ≈ 1.37
        for byte in bytes[zeros...] {
            var carry = Int(byte)
            for index in digits.indices {
                carry += Int(digits[index]) << 8
                digits[index] = UInt8(carry % 58)
                carry /= 58
            }
            while carry > 0 {
                digits.append(UInt8(carry % 58))
                carry /= 58
            }
        }
        let text = [UInt8](repeating: alphabet[0], count: zeros) + digits.reversed().map { alphabet[Int($0)] }
        return String(decoding: text, as: UTF8.self)
    }
}
