/// Bytes as lower-case hexadecimal, two digits per byte: how paste writes a digest (history's
/// `sha256`, an outbox entry's id, the repeat key).
public enum Hexadecimal {
    /// `bytes` as lower-case hexadecimal, two digits per byte.
    public static func lowercase(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The sixteen digits.
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)
}
