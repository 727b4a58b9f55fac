import SystemInterop

/// An incremental UTF-8 validator (RFC 3629, Unicode's Table 3-7 of well-formed sequences): no
/// overlong forms, no surrogates, nothing past U+10FFFF. A sequence may be split between chunks.
public struct UTF8Validator: Sendable {
    /// Continuation bytes still expected in the current sequence.
    private var needed = 0
    /// The range the next continuation byte must fall in (narrower after E0, ED, F0, F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    /// Where the current sequence started.
    private var start: Int64 = 0

    public init() {}

    /// Checks `chunk`, which starts at `offset`; the offset of the first bad sequence, or nil.
    public mutating func validate(_ chunk: Span<UInt8>, at offset: Int64) -> Int64? {
        var index = 0
        let count = chunk.count
        while index < count {
            let byte = chunk[index]
            if needed == 0 {
                // ASCII runs are the common case: skipped many bytes a step, without the state
                // machine (`Memory.firstNonASCII`); a lone ASCII byte between multi-byte
                // characters (a space in Cyrillic text) is not worth the call.
                if byte < 0x80 {
                    index += 1
                    if index < count, chunk[index] < 0x80 { index = Memory.firstNonASCII(in: chunk, from: index) }
                    continue
                }
                start = offset + Int64(index)
                lower = 0x80
                upper = 0xBF
                switch byte {
                case 0xC2...0xDF: needed = 1
                case 0xE0:
                    needed = 2
                    lower = 0xA0
                case 0xE1...0xEC, 0xEE, 0xEF: needed = 2
                case 0xED:
                    needed = 2
                    upper = 0x9F
                case 0xF0:
                    needed = 3
                    lower = 0x90
                case 0xF1...0xF3: needed = 3
                case 0xF4:
                    needed = 3
                    upper = 0x8F
                default: return start
                }
            } else {
                guard byte >= lower && byte <= upper else { return start }
                needed -= 1
                lower = 0x80
                upper = 0xBF
            }
            index += 1
        }
        return nil
    }

    /// The content ended: the offset of a sequence cut short at the end, or nil.
    public func finish() -> Int64? {
        needed > 0 ? start : nil
    }
}
