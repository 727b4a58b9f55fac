import PasteCore

/// One secret that `--redact` replaced: its kind and where it was (the guard's line and
/// column, counted from 1), never its value.
public struct MaskedSecret: Sendable, Equatable {
    /// The kind, named in the marker (`[redacted: github-token]`).
    public var pattern: SecretPattern
    /// The line of the finding in the text as read, counted from 1.
    public var line: Int
    /// The column of the finding in characters, counted from 1.
    public var column: Int
    /// The value it was in when it was not in the text: `title`, `language`, or a service's
    /// field (`field paste[parser]`); nil for the text itself. Line and column count within
    /// that value.
    public var field: String?

    /// Makes a record of a masked secret.
    public init(pattern: SecretPattern, line: Int, column: Int, field: String? = nil) {
        self.pattern = pattern
        self.line = line
        self.column = column
        self.field = field
    }

    /// `github-token at line 3, column 7`: what stderr and a dry run say of it.
    public var description: String { "\(pattern.rawValue) at line \(line), column \(column)" }
}

/// A text with the guard's findings replaced by visible markers (issue 42, item 3: mask
/// instead of refuse), and what the guard still finds in the result.
///
/// Each finding's secret value is replaced by `[redacted: KIND]`; everything else stays byte
/// for byte: a key name and its separator (`password = `), a URL's scheme, user and host
/// (`https://user:` … `@host`), a header's name and scheme (`Authorization: Bearer `). Where a
/// check does not say where its value begins, its whole match is replaced (never less than the
/// value). A private key block is replaced whole, from `-----BEGIN` to its `-----END …-----`
/// line (the finding itself is only the header); a PuTTY key file up to its `Private-MAC:`
/// line. A finding decoded from base64 (`SecretFinding.isDecoded`) takes the whole base64 run it
/// came from, so no bits of the value are left in a character it shared with its neighbours.
///
/// The masked text is scanned again (`remaining`): a text whose mask left anything the guard
/// finds must not be sent, as the guard would refuse it.
public struct SecretMasking: Sendable {
    /// The text with the markers in place.
    public var text: [UInt8]
    /// What was masked, one per finding, in order of position.
    public var masked: [MaskedSecret]
    /// What the guard finds in `text` (empty when the masking is complete).
    public var remaining: [SecretFinding]

    /// The marker that stands for a secret of `pattern`.
    public static func marker(_ pattern: SecretPattern) -> String { "[redacted: \(pattern.rawValue)]" }

    /// How far a private key block's end is looked for after its header: an 8192-bit RSA key
    /// in PEM is 6.4 KiB, with room for headers (`Proc-Type:`) and JSON escapes.
    static let blockReach = 64 << 10

    /// Masks `findings` (the guard's scan of `text`, with their lengths) in `text`, then scans
    /// the result with `secretGuard`.
    public init(masking text: [UInt8], findings: [SecretFinding], guard secretGuard: SecretGuard = SecretGuard()) {
        var spans: [MaskedSpan] = []
        for finding in findings.sorted(by: { $0.offset < $1.offset }) {
            guard let range = Self.span(of: finding, in: text.span) else { continue }
            Self.add(MaskedSpan(range: range, pattern: finding.pattern), to: &spans)
        }
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var position = 0
        for span in spans {
            result += text[position..<span.range.lowerBound]
            result += Array(Self.marker(span.pattern).utf8)
            position = span.range.upperBound
        }
        result += text[position...]
        self.text = result
        masked = Self.masked(findings)
        remaining = spans.isEmpty ? findings : secretGuard.scan(result)
    }

    /// What masking `findings` replaces, one per finding, in order of position.
    static func masked(_ findings: [SecretFinding]) -> [MaskedSecret] {
        findings.sorted(by: { $0.offset < $1.offset }).map {
            MaskedSecret(pattern: $0.pattern, line: $0.line, column: $0.column)
        }
    }

    /// One run of bytes replaced by one marker.
    struct MaskedSpan {
        var range: Range<Int>
        var pattern: SecretPattern
    }

    /// Appends `span` to `spans` (sorted by start): one that overlaps or touches the last
    /// becomes part of it, one marker of the first kind (a key block holds what its body
    /// triggered).
    static func add(_ span: MaskedSpan, to spans: inout [MaskedSpan]) {
        if let last = spans.last, span.range.lowerBound <= last.range.upperBound {
            spans[spans.count - 1].range = last.range.lowerBound..<max(last.range.upperBound, span.range.upperBound)
        } else {
            spans.append(span)
        }
    }

    // MARK: - Spans

    /// The bytes of `text` that stand for `finding`'s secret; nil when the finding lies outside
    /// `text` (it cannot be masked there, and the scan of the result says so).
    static func span(of finding: SecretFinding, in text: Span<UInt8>) -> Range<Int>? {
        let offset = finding.offset
        guard offset >= 0, offset < text.count else { return nil }
        if let block = blockEnd(text, at: offset) { return offset..<block }
        // A finding made without its length: the rest of its line.
        let end =
            finding.length > 0 ? min(text.count, offset + finding.length) : SecretText.lineEnd(text, of: offset)
        var start = min(offset + max(0, finding.valueOffset), end)
        var stop = end
        // Decoded from inside a base64 run: the whole run (a character holds bits of two bytes).
        guard finding.isDecoded else { return start < stop ? start..<stop : offset..<max(end, offset + 1) }
        if start > 0, start < text.count, isBase64Body(text[start - 1]), isBase64Body(text[start]) {
            while start > 0 && isBase64Body(text[start - 1]) { start -= 1 }
        }
        if stop > start, stop < text.count, isBase64Body(text[stop - 1]),
            isBase64Body(text[stop]) || text[stop] == 0x3d
        {
            while stop < text.count && (isBase64Body(text[stop]) || text[stop] == 0x3d) { stop += 1 }
        }
        return start < stop ? start..<stop : offset..<max(end, offset + 1)
    }

    /// A base64 character other than padding (standard and URL-safe alphabets).
    static func isBase64Body(_ byte: UInt8) -> Bool {
        SecretText.isAlphanumeric(byte) || byte == 0x2b || byte == 0x2f || byte == 0x2d || byte == 0x5f
    }

    /// Where a key block that starts at `offset` ends: after its `-----END …-----` (or ssh.com's
    /// `---- END …----`, PuTTY's `Private-MAC:` line); without one (a key cut short), at the first
    /// blank line or the end of the text. Nil when no key block starts there.
    static func blockEnd(_ text: Span<UInt8>, at offset: Int) -> Int? {
        let reach = min(text.count, offset + blockReach)
        let (endMarker, close): (String, String)
        if SecretText.has(text, at: offset, "-----BEGIN ") {
            (endMarker, close) = ("-----END ", "-----")
        } else if SecretText.has(text, at: offset, "---- BEGIN ") {
            (endMarker, close) = ("---- END ", "----")
        } else if SecretText.has(text, at: offset, "PuTTY-User-Key-File-") {
            guard let mac = SecretText.find(text, "Private-MAC:", from: offset, to: reach) else {
                return cutShort(text, offset, reach)
            }
            return SecretText.lineEnd(text, of: mac)
        } else {
            return nil
        }
        guard let end = SecretText.find(text, endMarker, from: offset + 1, to: reach),
            let closing = SecretText.find(text, close, from: end + endMarker.utf8.count, to: min(reach, end + 128))
        else { return cutShort(text, offset, reach) }
        return closing + close.utf8.count
    }

    /// The end of a key block with no end line: its first blank line (two line breaks, real or
    /// escaped in JSON), or the end of the text.
    static func cutShort(_ text: Span<UInt8>, _ offset: Int, _ reach: Int) -> Int {
        let blank = [
            SecretText.find(text, "\n\n", from: offset, to: reach),
            SecretText.find(text, "\r\n\r\n", from: offset, to: reach),
            SecretText.find(text, "\\n\\n", from: offset, to: reach),
        ].compactMap { $0 }.min()
        return blank ?? text.count
    }
}
