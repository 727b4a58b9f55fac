import PasteCore

/// Counts lines and columns through a stream, so a finding can say where it is.
///
/// Lines are counted by `\n`, columns in Unicode scalars (bytes that are not UTF-8
/// continuation bytes), both from 1, in one pass of vector compares (`tally`).
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
        let counts = Self.tally(text, from: from, to: to)
        if counts.newlines > 0 {
            var last = to - 1
            while text[last] != 0x0a { last -= 1 }
            line += counts.newlines
            column = 1 + Self.scalars(in: text, from: last + 1, to: to)
        } else {
            column += to - from - counts.continuations
        }
        position += to - from
    }

    /// How many bytes of `text[from..<to]` start a Unicode scalar (are not UTF-8 continuation
    /// bytes, `10xxxxxx`).
    static func scalars(in text: Span<UInt8>, from: Int, to: Int) -> Int {
        to - from - tally(text, from: from, to: to).continuations
    }

    /// How many line feeds and how many UTF-8 continuation bytes `text[from..<to]` holds.
    ///
    /// One pass, sixty-four bytes a step in four vector registers: a line feed is a lane equal
    /// to `0x0a`, a continuation byte one below `-64` read as a signed byte (`0x80...0xbf`).
    /// Each compare gives a lane of all ones, which subtracted counts one; the byte-wide counts
    /// are summed before they can overflow (at most 4 × 63 per lane).
    static func tally(_ text: Span<UInt8>, from: Int, to: Int) -> (newlines: Int, continuations: Int) {
        let lineFeed = SIMD16<UInt8>(repeating: 0x0a)
        let continuationBelow = SIMD16<Int8>(repeating: -64)
        let one = SIMD16<UInt8>(repeating: 1)
        var newlines = 0
        var continuations = 0
        var index = from
        while index &+ 64 <= to {
            var lines = SIMD16<UInt8>()
            var tails = SIMD16<UInt8>()
            let stepsEnd = min(to &- 64, index &+ 62 &* 64)
            while index <= stepsEnd {
                let block = text.extracting(index..<(index &+ 64))
                for quarter in 0..<4 {
                    let lanes = Self.lanes(block, at: quarter &* 16)
                    lines &+= one.replacing(with: 0, where: lanes .!= lineFeed)
                    tails &+= one.replacing(
                        with: 0, where: SIMD16<Int8>(truncatingIfNeeded: lanes) .>= continuationBelow)
                }
                index &+= 64
            }
            newlines &+= Int(SIMD16<UInt16>(truncatingIfNeeded: lines).wrappedSum())
            continuations &+= Int(SIMD16<UInt16>(truncatingIfNeeded: tails).wrappedSum())
        }
        while index < to {
            let byte = text[index]
            if byte == 0x0a { newlines &+= 1 }
            if byte & 0xc0 == 0x80 { continuations &+= 1 }
            index &+= 1
        }
        return (newlines, continuations)
    }

    /// The sixteen bytes of `block` at `offset` in one vector (one load once optimized).
    @inline(__always) static func lanes(_ block: Span<UInt8>, at offset: Int) -> SIMD16<UInt8> {
        SIMD16<UInt8>(
            block[offset], block[offset &+ 1], block[offset &+ 2], block[offset &+ 3], block[offset &+ 4],
            block[offset &+ 5], block[offset &+ 6], block[offset &+ 7], block[offset &+ 8], block[offset &+ 9],
            block[offset &+ 10], block[offset &+ 11], block[offset &+ 12], block[offset &+ 13], block[offset &+ 14],
            block[offset &+ 15])
    }
}
