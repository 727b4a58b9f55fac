import PasteCore

/// Finds one byte in a text sixty-four bytes at a time, as memchr does: four 16-byte vector
/// compares and one test per step, the lanes turned into bits only where there is a hit.
///
/// The scanner uses it to skip what holds no terminal escape (`ESC`, before the control
/// sequences that `SecretGuard.scan` takes out), so text without one costs a vector pass, not
/// a byte loop. Checked in the generated code (`swift build -c release`, `objdump -d`): each
/// `vector(_:at:)` is one `movdqu`, each compare one `pcmpeqb`, and `bits` a `pand` and a
/// `psadbw` per half, and the bounds are checked once per 64-byte step, not per lane.
enum SecretByteSearch {
    /// How many bytes one step looks at: four 16-byte registers, whose hits fill one word.
    static let blockSize = 64

    /// The first index at or after `start` where `text` holds `byte`, or nil.
    static func firstIndex(of byte: UInt8, in text: Span<UInt8>, from start: Int = 0) -> Int? {
        let wanted = SIMD16<UInt8>(repeating: byte)
        var index = start
        while index &+ blockSize <= text.count {
            let block = text.extracting(index..<(index &+ blockSize))
            let first = vector(block, at: 0) .== wanted
            let second = vector(block, at: 16) .== wanted
            let third = vector(block, at: 32) .== wanted
            let fourth = vector(block, at: 48) .== wanted
            if any(first .| second .| third .| fourth) {
                let hits = bits(first) | bits(second) &<< 16 | bits(third) &<< 32 | bits(fourth) &<< 48
                return index &+ hits.trailingZeroBitCount
            }
            index &+= blockSize
        }
        while index < text.count {
            if text[index] == byte { return index }
            index &+= 1
        }
        return nil
    }

    /// The sixteen bytes of `text` at `offset` (one unaligned load once optimized: the
    /// `extracting` checks the bounds once, and the lanes are read at constant offsets).
    @inline(__always) static func vector(_ text: Span<UInt8>, at offset: Int) -> SIMD16<UInt8> {
        let lanes = text.extracting(offset..<(offset &+ 16))
        return SIMD16<UInt8>(
            lanes[0], lanes[1], lanes[2], lanes[3], lanes[4], lanes[5], lanes[6], lanes[7], lanes[8], lanes[9],
            lanes[10], lanes[11], lanes[12], lanes[13], lanes[14], lanes[15])
    }

    /// The lanes of `mask` as the low sixteen bits of a word (lane 0 lowest): what `pmovmskb`
    /// does, written with the lanes weighted by their bit and each half summed (the optimizer
    /// makes it a `pand` and a `psadbw`; Swift's `SIMD` has no movemask of its own).
    @inline(__always) static func bits(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt64 {
        let weights = SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
        let weighted = SIMD16<UInt8>(repeating: 0).replacing(with: weights, where: mask)
        let low = SIMD8<UInt8>(
            weighted[0], weighted[1], weighted[2], weighted[3], weighted[4], weighted[5], weighted[6], weighted[7])
        let high = SIMD8<UInt8>(
            weighted[8], weighted[9], weighted[10], weighted[11], weighted[12], weighted[13], weighted[14],
            weighted[15])
        return UInt64(low.wrappedSum()) | UInt64(high.wrappedSum()) &<< 8
    }
}
