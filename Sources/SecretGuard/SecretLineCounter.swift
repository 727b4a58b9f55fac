import PasteCore
import SecretScanInterop

/// Counts lines and columns through a stream, so a finding can say where it is.
///
/// Lines are counted by `\n`, columns in Unicode scalars (bytes that are not UTF-8
/// continuation bytes), both from 1, each in one pass of vector compares: the line feeds over
/// all that is counted (`LineFeeds`, in C: 64 bytes a step where AVX-512 BW runs), the scalars
/// only after the last line feed (`count`: a column is the rest of one line).
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
        let newlines = LineFeeds.count(in: text, from: from, to: to)
        if let last = newlines.last {
            line += newlines.count
            column = 1 + Self.scalars(in: text, from: last + 1, to: to)
        } else {
            column += Self.scalars(in: text, from: from, to: to)
        }
        position += to - from
    }

    /// How many bytes of `text[from..<to]` start a Unicode scalar (are not UTF-8 continuation
    /// bytes, `10xxxxxx`: below `-64` read as a signed byte).
    static func scalars(in text: Span<UInt8>, from: Int, to: Int) -> Int {
        to - from - count(text, from: from, to: to) { SIMD16<Int8>(truncatingIfNeeded: $0) .< SIMD16(repeating: -64) }
    }

    /// How many bytes of `text[from..<to]` are lanes that `matches` picks.
    ///
    /// Sixty-four bytes a step in four vector registers: each picked lane gives one, summed in
    /// byte-wide counts before they can overflow (at most 62 × 4 per lane).
    @inline(__always) static func count(
        _ text: Span<UInt8>, from: Int, to: Int, _ matches: (SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>>
    ) -> Int {
        let one = SIMD16<UInt8>(repeating: 1)
        var total = 0
        var index = from
        while index &+ 64 <= to {
            var counts = SIMD16<UInt8>()
            let stepsEnd = min(to &- 64, index &+ 62 &* 64)
            while index <= stepsEnd {
                let block = text.extracting(index..<(index &+ 64))
                for quarter in 0..<4 {
                    counts &+= one.replacing(with: 0, where: .!matches(Self.lanes(block, at: quarter &* 16)))
                }
                index &+= 64
            }
            total &+= Int(SIMD16<UInt16>(truncatingIfNeeded: counts).wrappedSum())
        }
        while index < to {
            if matches(SIMD16(repeating: text[index]))[0] { total &+= 1 }
            index &+= 1
        }
        return total
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

/// Puts the findings of a scanner that counted lines only from its first finding on
/// (`SecretScanner.lineBase`) on their lines and columns in the whole text: the text before
/// that offset is fed again from its start, and counted, and nothing after it. A scanner that
/// counted from 0 needs none of it.
public struct SecretLinePlacer: Sendable {
    /// The findings, their lines and columns counted from `base`.
    private let findings: [SecretFinding]
    private let base: Int
    /// The text before `base`, counted so far.
    private var lines = SecretLineCounter()

    /// A placer of `findings`, whose lines and columns count from offset `base` (line 1 and
    /// column 1 are that offset's).
    public init(_ findings: [SecretFinding], countedFrom base: Int) {
        self.findings = findings
        self.base = base
    }

    /// Whether the text before `base` is all counted: the rest is not needed.
    public var isDone: Bool { lines.position >= base }

    /// Counts the next chunk of the text (fed from its start), as far as `base`.
    public mutating func feed(_ chunk: Span<UInt8>) {
        guard !isDone else { return }
        lines.advance(over: chunk, from: 0, to: min(chunk.count, base - lines.position))
    }

    /// The findings in the whole text's lines and columns: a finding on the first line counted
    /// continues the line `base` is on. (Had the text ended before `base`, a file that shrank
    /// since it was scanned, its end stands for it.)
    public func finish() -> [SecretFinding] {
        findings.map { finding in
            var placed = finding
            if finding.line == 1 {
                placed.line = lines.line
                placed.column = lines.column + finding.column - 1
            } else {
                placed.line = lines.line + finding.line - 1
            }
            return placed
        }
    }

    /// `findings` of a scanner that counted from `base`, placed in `text`, the whole text they
    /// were found in.
    public static func place(_ findings: [SecretFinding], countedFrom base: Int, in text: Span<UInt8>)
        -> [SecretFinding]
    {
        guard base > 0, !findings.isEmpty else { return findings }
        var placer = SecretLinePlacer(findings, countedFrom: base)
        placer.feed(text)
        return placer.finish()
    }
}
