/// Counts lines and columns through a stream, so a finding can say where it is.
///
/// Lines are counted by `\n`, columns in Unicode scalars (bytes that are not UTF-8
/// continuation bytes), both from 1, in loops the optimizer turns into vector compares.
struct SecretLineCounter: Sendable {
    /// The stream offset counted up to.
    var position = 0
    /// The line of `position`.
    var line = 1
    /// The column of `position`.
    var column = 1

    /// Counts `text[from..<to]`, whose first byte is at stream offset `position`.
    mutating func advance(over text: Span<UInt8>, from: Int, to: Int) {
        guard to > from else { return }
        let newlines = Self.count(in: text, from: from, to: to, mask: 0xff, value: 0x0a)
        if newlines > 0 {
            var last = to - 1
            while text[last] != 0x0a { last -= 1 }
            line += newlines
            column = 1 + Self.scalars(in: text, from: last + 1, to: to)
        } else {
            column += Self.scalars(in: text, from: from, to: to)
        }
        position += to - from
    }

    /// How many bytes of `text[from..<to]` start a Unicode scalar (are not UTF-8 continuation
    /// bytes, `10xxxxxx`).
    static func scalars(in text: Span<UInt8>, from: Int, to: Int) -> Int {
        to - from - count(in: text, from: from, to: to, mask: 0xc0, value: 0x80)
    }

    /// How many bytes `b` of `text[from..<to]` have `b & mask == value`.
    ///
    /// Sixteen bytes at a time in vector registers: each lane's test is bit arithmetic (the
    /// lane is zero after `& mask ^ value` exactly when it matches), the lanes count in bytes
    /// for up to 255 rounds, then are summed.
    static func count(in text: Span<UInt8>, from: Int, to: Int, mask: UInt8, value: UInt8) -> Int {
        let masks = SIMD16<UInt8>(repeating: mask)
        let values = SIMD16<UInt8>(repeating: value)
        let low = SIMD16<UInt8>(repeating: 0x7f)
        var total = 0
        var index = from
        while index &+ 16 <= to {
            var counts = SIMD16<UInt8>()
            let roundsEnd = min(to &- 16, index &+ 254 &* 16)
            while index <= roundsEnd {
                let bytes = text.extracting(index..<(index &+ 16))
                let lanes = SIMD16<UInt8>(
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                    bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])
                let differences = (lanes & masks) ^ values
                // The high bit of `(d & 0x7f) + 0x7f | d` is set exactly when `d` is not zero.
                counts &+= ~(((differences & low) &+ low) | differences) &>> 7
                index &+= 16
            }
            total &+= Int(SIMD16<UInt16>(truncatingIfNeeded: counts).wrappedSum())
        }
        while index < to {
            if text[index] & mask == value { total += 1 }
            index += 1
        }
        return total
    }
}
