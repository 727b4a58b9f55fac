import PasteCore
import SecretScanInterop
import SystemInterop

/// Looks for secrets in a stream of text fed to it chunk by chunk.
///
/// Feed each chunk as it arrives (`feed(_:)`), then call `finish()` at the end of the input:
/// the findings carry their byte offset from the start of the stream, and their line and
/// column. A secret split between two chunks is found as if the text came whole: the scanner
/// keeps the last `lookbehind + lookahead` bytes (9 KiB; up to twice that between trims) of the
/// stream, and looks at a trigger only once `lookahead` bytes after it have arrived, so memory
/// stays bounded for any length.
/// Findings from chunks already fed are in `findings` (confirmed) and counted in
/// `hasFindings` (confirmed or not yet) as soon as they are seen.
///
/// The scanner is a value with no references to shared mutable state: it may be moved to
/// another thread (it is `Sendable`) and fed there, and its findings sent back. For a stream
/// being uploaded:
///
///     var scanner = SecretScanner()
///     for chunk in chunks {            // as they are read
///         scanner.feed(chunk)          // before the chunk is sent
///         if scanner.hasFindings { abort() }
///         send(chunk)
///     }
///     let findings = scanner.finish()  // before the request's last byte is sent
///
/// A secret found only when a later chunk arrives (the scanner looks `lookahead` bytes ahead)
/// may sit in a chunk already sent; what decides is `finish()` before the body is complete, so
/// a server that makes a paste only from a complete request never makes one. On a second
/// core, read and scan overlap: hand each chunk (`[UInt8]` is `Sendable`) to a task or thread
/// that owns the scanner, and collect `finish()` there.
public struct SecretScanner: Sendable {
    /// How far before a trigger a check may look: key names, a URL's scheme, a `.pgpass` line.
    static let lookbehind = 1024
    /// How far after a trigger a check may look: the longest token and a JWT's payload.
    static let lookahead = 8192
    /// What the scanner keeps of the stream between chunks.
    static let kept = lookbehind + lookahead

    /// The most findings kept; past that the scan stops (more would not change the decision).
    public let maximumFindings: Int
    /// How many bytes have been fed.
    public private(set) var bytesScanned = 0
    /// The findings that no later input can change, in order of position.
    public private(set) var findings: [SecretFinding] = []

    /// The last bytes of the stream (at most `kept`), starting at stream offset `tailStart`.
    var tail: [UInt8] = []
    var tailStart = 0
    /// Triggers at stream offsets before this one have been looked at.
    var evaluated = 0
    /// Lines and columns, counted up to `lines.position`.
    var lines = SecretLineCounter()
    /// Where lines and columns are counted from, as the text goes by: 0 for a stream's scanner,
    /// which counts them all the way. A scanner of text that is still at hand at the end (a
    /// clipboard read, a teed stream) counts nothing until its first finding, and from then on counts
    /// from the start of what it still holds (the kept tail): its findings' lines and columns
    /// are from this offset, and the caller places them over the text before it
    /// (`SecretLinePlacer`). A text with no finding, nearly every paste, is never counted; nil
    /// while nothing was found, and always for a scanner that `defersLines` (a regular file).
    public private(set) var lineBase: Int?
    /// Whether lines are being counted (from `lineBase`).
    var countsLines: Bool { lineBase != nil }
    /// Whether lines are never counted, not even from the first finding on: every finding is
    /// on line 1, column 1 until the caller places it by its offset (a regular file, whose line
    /// feeds another thread counts beside the scan: `SecretGuard.scan(filePath:)`).
    var defersLines = false
    /// Findings that a trigger not yet looked at could still replace (one it overlaps).
    var pending: [PendingFinding] = []
    var isFinished = false
    /// How far the decodings have got (their regions cover the triggers after them).
    var decodings = SecretDecodingProgress()
    /// How many bytes the decodings went over so far: linear in the text's length.
    var decodingWork: Int { decodings.work }

    /// A match with its place in lines.
    struct PendingFinding: Sendable {
        var match: SecretMatch
        var line: Int
        var column: Int
    }

    /// Makes a scanner; with `countingLines: false` it counts lines only from its first
    /// finding on, for the caller to place (see `lineBase`); with `watchingNUL`, it says where
    /// the first NUL byte fed is (`firstNUL`).
    public init(
        maximumFindings: Int = SecretGuard.defaultMaximumFindings, countingLines: Bool = true, watchingNUL: Bool = false
    ) {
        self.maximumFindings = maximumFindings
        lineBase = countingLines ? 0 : nil
        watchesNUL = watchingNUL
    }

    /// A scanner for a stream whose first `scannedBytes` were already scanned whole, as one
    /// text, and held no secret (the start of piped stdin, scanned before anything was sent).
    ///
    /// The whole stream is still fed from its start (offsets, lines and the kept tail stay
    /// right), but only triggers from `scannedBytes - lookahead` on are looked at: a trigger
    /// before that had its whole window inside the scanned text, so it was looked at there
    /// exactly as the stream would show it; the triggers after it saw that text end early and
    /// are looked at again with what follows. Lines are still counted over the skipped bytes
    /// (a vector count, far cheaper than the scan), unless `countingLines` is false: then, as
    /// for any scanner, only from the first finding on (`lineBase`).
    public init(
        maximumFindings: Int = SecretGuard.defaultMaximumFindings, alreadyScanned scannedBytes: Int,
        countingLines: Bool = true, watchingNUL: Bool = false
    ) {
        self.init(maximumFindings: maximumFindings, countingLines: countingLines, watchingNUL: watchingNUL)
        evaluated = max(0, scannedBytes - Self.lookahead)
    }

    /// Whether the scanner looks for NUL bytes too (`firstNUL`): text sent as text is refused
    /// for one (binary data), and the candidate search reads every byte anyway.
    public let watchesNUL: Bool
    /// Where the first NUL byte fed is (a stream offset), for a scanner that `watchesNUL`; nil
    /// while there is none.
    public private(set) var firstNUL: Int?

    /// Looks for the first NUL byte in `chunk[range]` (the chunk at stream offset `chunkStart`),
    /// unless one was found before or the scanner does not watch for them.
    mutating func watchNUL(in chunk: Span<UInt8>, _ range: Range<Int>, chunkStart: Int) {
        guard watchesNUL, firstNUL == nil, !range.isEmpty,
            let index = Memory.firstIndex(of: 0, in: chunk.extracting(range))
        else { return }
        firstNUL = chunkStart + range.lowerBound + index
    }

    /// Whether a secret has been seen in the input so far (confirmed or not).
    public var hasFindings: Bool { !findings.isEmpty || !pending.isEmpty }

    /// The first secret seen so far, confirmed or not (a later trigger could still replace an
    /// unconfirmed one with a more specific kind at the same place): what a stream is refused
    /// for the moment there is one.
    public var firstSeen: SecretFinding? {
        let first = pending.min { $0.match.start < $1.match.start }.map {
            SecretFinding(
                pattern: $0.match.pattern, offset: $0.match.start, line: $0.line, column: $0.column,
                excerpt: $0.match.excerpt, length: $0.match.end - $0.match.start, valueOffset: $0.match.valueOffset,
                isDecoded: $0.match.isDecoded)
        }
        guard let confirmed = findings.first else { return first }
        guard let first, first.offset < confirmed.offset else { return confirmed }
        return first
    }

    var isSaturated: Bool { findings.count + pending.count >= maximumFindings }

    // MARK: - Feeding

    /// Scans the next chunk of the stream.
    public mutating func feed(_ chunk: [UInt8]) {
        feed(chunk.span)
    }

    /// Scans the next chunk of the stream.
    public mutating func feed(_ chunk: Span<UInt8>) {
        precondition(!isFinished, "feed after finish")
        let count = chunk.count
        guard count > 0 else { return }
        let chunkStart = bytesScanned
        bytesScanned += count
        guard !isSaturated else {
            watchNUL(in: chunk, 0..<count, chunkStart: chunkStart)
            return
        }
        if count < Self.kept {
            watchNUL(in: chunk, 0..<count, chunkStart: chunkStart)
            feedSmall(chunk)
            return
        }
        var found: [SecretMatch] = []
        // Triggers near the seam, with the kept tail before them: in a small copy.
        let seamLength = min(count, Self.kept)
        let seamEnd = chunkStart + seamLength - Self.lookahead
        if seamEnd > evaluated {
            var seam = tail
            Self.append(chunk, 0..<seamLength, to: &seam)
            Self.evaluate(
                seam.span, base: tailStart, from: evaluated - tailStart, to: seamEnd - tailStart,
                into: &found, progress: &decodings)
            evaluated = seamEnd
        }
        // The rest of the chunk in place: each trigger has its window inside the chunk. The NUL
        // watch: the search tells it over the body, the bytes before and after it are looked at
        // here.
        let bodyFrom = max(evaluated, chunkStart + Self.lookbehind)
        let bodyTo = chunkStart + count - Self.lookahead
        if bodyTo > bodyFrom {
            watchNUL(in: chunk, 0..<(bodyFrom - chunkStart), chunkStart: chunkStart)
            let nul = Self.evaluate(
                chunk, base: chunkStart, from: bodyFrom - chunkStart, to: bodyTo - chunkStart, into: &found,
                progress: &decodings, watchingNUL: watchesNUL && firstNUL == nil)
            if firstNUL == nil, let nul { firstNUL = chunkStart + nul }
            watchNUL(in: chunk, (bodyTo - chunkStart)..<count, chunkStart: chunkStart)
            evaluated = bodyTo
        } else {
            watchNUL(in: chunk, 0..<count, chunkStart: chunkStart)
        }
        // Lines: up to each new finding, then as far as no future finding can start.
        found.sort { $0.start < $1.start }
        if !found.isEmpty { startCountingLines() }
        for match in found {
            if countsLines { countLines(to: match.start, chunk: chunk, chunkStart: chunkStart) }
            add(PendingFinding(match: match, line: lines.line, column: lines.column))
        }
        if countsLines {
            countLines(
                to: min(bytesScanned, max(lines.position, evaluated - Self.lookbehind)), chunk: chunk,
                chunkStart: chunkStart)
        }
        keepTail(of: chunk, chunkStart: chunkStart)
        confirm(before: evaluated - Self.lookbehind)
    }

    /// A chunk shorter than what the scanner keeps joins the kept tail, which is scanned in
    /// place and trimmed once it holds twice what is kept: small chunks (a pipe's 4 KiB) cost
    /// no more than large ones.
    mutating func feedSmall(_ chunk: Span<UInt8>) {
        Self.append(chunk, 0..<chunk.count, to: &tail)
        let text = tail
        let end = bytesScanned - Self.lookahead
        var found: [SecretMatch] = []
        if end > evaluated {
            Self.evaluate(
                text.span, base: tailStart, from: evaluated - tailStart, to: end - tailStart, into: &found,
                progress: &decodings)
            evaluated = end
        }
        found.sort { $0.start < $1.start }
        if !found.isEmpty { startCountingLines() }
        for match in found {
            if countsLines {
                lines.advance(over: text.span, from: lines.position - tailStart, to: match.start - tailStart)
            }
            add(PendingFinding(match: match, line: lines.line, column: lines.column))
        }
        if countsLines {
            // (Capped at what was fed: `evaluated` may start ahead, `init(alreadyScanned:)`.)
            let counted = min(bytesScanned, max(lines.position, evaluated - Self.lookbehind))
            lines.advance(over: text.span, from: lines.position - tailStart, to: counted - tailStart)
        }
        if tail.count >= 2 * Self.kept {
            tail.removeFirst(tail.count - Self.kept)
            tailStart = bytesScanned - tail.count
        }
        confirm(before: evaluated - Self.lookbehind)
    }

    /// Scans what is left and returns every finding, in order of position.
    public mutating func finish() -> [SecretFinding] {
        guard !isFinished else { return findings }
        isFinished = true
        if !isSaturated && evaluated < bytesScanned {
            var found: [SecretMatch] = []
            let text = tail
            Self.evaluate(
                text.span, base: tailStart, from: evaluated - tailStart, to: bytesScanned - tailStart, into: &found,
                progress: &decodings)
            evaluated = bytesScanned
            found.sort { $0.start < $1.start }
            if !found.isEmpty { startCountingLines() }
            for match in found {
                if countsLines {
                    lines.advance(over: text.span, from: lines.position - tailStart, to: match.start - tailStart)
                }
                add(PendingFinding(match: match, line: lines.line, column: lines.column))
            }
        }
        confirm(before: Int.max)
        return findings
    }

    /// At the first finding of a scanner that was not counting lines: counts from the start of
    /// the kept tail, the earliest byte still held (a match starts no earlier: checks look at
    /// most `lookbehind` bytes back, and the tail keeps more).
    mutating func startCountingLines() {
        guard lineBase == nil, !defersLines else { return }
        lineBase = tailStart
        lines = SecretLineCounter(position: tailStart)
    }

    // MARK: - Whole texts

    /// Every finding in a text held whole: the same as feeding it as one chunk, without
    /// copying it or counting lines past the last finding.
    static func scan(_ text: Span<UInt8>, maximumFindings: Int) -> [SecretFinding] {
        var work = 0
        return scan(text, maximumFindings: maximumFindings, decodingWork: &work)
    }

    /// `scan(_:maximumFindings:)`, saying how many bytes the decodings went over.
    static func scan(_ text: Span<UInt8>, maximumFindings: Int, decodingWork: inout Int) -> [SecretFinding] {
        var scanner = SecretScanner(maximumFindings: maximumFindings)
        var found: [SecretMatch] = []
        evaluate(text, base: 0, from: 0, to: text.count, into: &found, progress: &scanner.decodings)
        decodingWork = scanner.decodings.work
        found.sort { $0.start < $1.start }
        for match in found where !scanner.isSaturated {
            scanner.lines.advance(over: text, from: scanner.lines.position, to: match.start)
            scanner.add(PendingFinding(match: match, line: scanner.lines.line, column: scanner.lines.column))
        }
        scanner.confirm(before: Int.max)
        return scanner.findings
    }

    // MARK: - The scan

    /// Looks at every trigger whose pair starts at `from..<to` in `text` (stream offset `base`),
    /// each with the window `lookbehind` before and `lookahead` after it (cut at the ends of
    /// `text`, which the caller makes the ends of the stream whenever it cuts a window).
    ///
    /// `decoding` is false inside decoded text that undid nothing (its decodings do not run
    /// again there). With `watchingNUL`, returns where the first NUL byte of
    /// `text[from..<min(to, text.count - 1)]` is (nil: none), which the search tells on its way.
    @discardableResult
    static func evaluate(
        _ text: Span<UInt8>, base: Int, from: Int, to: Int, into found: inout [SecretMatch],
        prefilter: SecretPrefilter = .shared, decoding: Bool = true, progress: inout SecretDecodingProgress,
        watchingNUL: Bool = false
    ) -> Int? {
        // The pairs start at most one byte before the end.
        let end = min(to, text.count - 1)
        guard from < end else { return nil }
        // The candidates come a batch at a time from the search (CSecretScan): each with its
        // pair's group, where a member of the group fits.
        var batch = CandidateBatch()
        var position = from
        var nul: Int?
        // The rows and their decodings, fetched once a call, at the first candidate that reaches
        // a row (`look`).
        var rules: [SecretRule] = []
        var decodings: [SecretDecoding?] = []
        while position < end {
            if watchingNUL && nul == nil {
                (position, nul) = prefilter.search.findWatchingNUL(in: text, from: position, to: end, into: &batch)
            } else {
                position = prefilter.search.find(in: text, from: position, to: end, into: &batch)
            }
            for index in 0..<batch.count {
                if decoding {
                    resume(before: batch.position(index), in: text, base: base, into: &found, progress: &progress)
                }
                look(
                    group: batch.group(index), at: batch.position(index), in: text, base: base, prefilter: prefilter,
                    decoding: decoding, rules: &rules, decodings: &decodings, into: &found, progress: &progress)
            }
        }
        if decoding { resume(before: end, in: text, base: base, into: &found, progress: &progress) }
        return nul
    }

    /// `evaluate` with no decoding progress to keep (a text looked at once).
    static func evaluate(
        _ text: Span<UInt8>, base: Int, from: Int, to: Int, into found: inout [SecretMatch],
        prefilter: SecretPrefilter = .shared, decoding: Bool = true
    ) {
        var progress = SecretDecodingProgress()
        evaluate(
            text, base: base, from: from, to: to, into: &found, prefilter: prefilter, decoding: decoding,
            progress: &progress)
    }

    /// Decodes the rest of a `data:` block cut at a region's end, when the scan has reached
    /// where it goes on (before window offset `limit` of `text`, stream offset `base`): a
    /// block has one trigger, and its entries past the first region have none of their own.
    static func resume(
        before limit: Int, in text: Span<UInt8>, base: Int, into found: inout [SecretMatch],
        progress: inout SecretDecodingProgress
    ) {
        while let next = progress.continuation, next.at - base < limit {
            progress.continuation = nil
            let at = next.at - base
            guard at >= 0, at < text.count else { continue }
            let windowStart = max(0, at - lookbehind)
            let window = text.extracting(windowStart..<min(text.count, at + lookahead))
            let region = SecretDecoding.dataEntries(window, from: at - windowStart, isJSON: next.isJSON)
            progress.record(region, slot: SecretDecoding.dataBlockSlot, base: base + windowStart)
            guard var match = SecretRule.firstMatch(in: region.decoded, progress: &progress) else { continue }
            match.isDecoded = true  // a `data:` block's base64
            match.start += base + windowStart
            match.end += base + windowStart
            if !found.contains(match) { found.append(match) }
        }
    }

    /// Runs the checks of the triggers in `group`, whose pair starts at `position`.
    static func look(
        group: Int, at position: Int, in text: Span<UInt8>, base: Int, prefilter: SecretPrefilter, decoding: Bool,
        rules: inout [SecretRule], decodings: inout [SecretDecoding?], into found: inout [SecretMatch],
        progress: inout SecretDecodingProgress
    ) {
        // (The search tested the byte after the pair and found some member's first eight bytes,
        // its shape and, for a row that wants it, that it starts a word; which member, and the
        // rest of its literal, is told here.)
        // The key rows' quick test, asked once for the members with the same literal (`key` in
        // two rows): the last literal's bounds and its verdict.
        var askedKey = (start: -1, end: -1, mayAssign: false)
        // The rows and their decodings (`rules`, `decodings`: the caller's, empty until then),
        // fetched at the first member that reaches its row (the built-in table's are made then,
        // not at start-up): PERF(guard-text), each was a computed property's array, retained
        // and released for every member, and then for every candidate (53 thousand pairs per
        // 64 MiB of the bench's source code).
        for member in prefilter.memberStarts[group]..<prefilter.memberStarts[group + 1] {
            let entry = prefilter.entries[prefilter.members[member]]
            let start = position - entry.pairOffset
            let end = start + entry.literalCount
            guard start >= 0, end <= text.count else { continue }
            // The first eight bytes in one comparison, the rest (if any) one by one, where the
            // prefilter keeps them (no copy of the literal per candidate).
            if start + 8 <= text.count {
                let word = loadWord(text.extracting(start..<(start &+ 8)))
                guard (word | entry.fold) & entry.mask == entry.prefix else { continue }
                if entry.literalCount > 8 {
                    guard prefilter.hasLiteral(of: entry, in: text, at: start) else { continue }
                }
            } else {
                guard prefilter.hasLiteral(of: entry, in: text, at: start) else { continue }
            }
            switch entry.quickTest {
            case .none: break
            case .startsWord: guard SecretText.startsWord(text, at: start) else { continue }
            case .endsKey:
                if askedKey.start != start || askedKey.end != end {
                    askedKey = (start, end, SecretRule.mayAssign(text, keyStart: start, keyEnd: end))
                }
                guard askedKey.mayAssign else { continue }
            }
            let windowStart = max(0, position - lookbehind)
            let window = text.extracting(windowStart..<min(text.count, position + lookahead))
            if rules.isEmpty {
                rules = prefilter.rules
                decodings = prefilter.ruleDecodings
            }
            guard entry.rule < rules.count else {
                if decoding {
                    decode(
                        prefilter.decoders[entry.rule - prefilter.rules.count], window, start - windowStart,
                        end - windowStart, base: base + windowStart, prefilter: prefilter, into: &found)
                }
                continue
            }
            // The row is a class: a struct row was copied here at every candidate (its
            // triggers, its format's arrays), even borrowed through a span, PERF(guard-text).
            let matched: SecretMatch?
            if let undoing = decodings[entry.rule] {
                guard decoding else { continue }
                matched = SecretRule.decodedMatch(
                    undoing, window, start - windowStart, end - windowStart, base: base + windowStart,
                    progress: &progress)
            } else {
                matched = rules[entry.rule].match(
                    in: window, literalAt: start - windowStart, end: end - windowStart)
            }
            guard var match = matched else { continue }
            match.start += base + windowStart
            match.end += base + windowStart
            if !found.contains(match) { found.append(match) }
        }
    }

    /// Runs `decoder` at its literal `start..<end` of `window` (stream offset `base`), every row
    /// over what it decodes, and adds the findings at the places their bytes came from.
    static func decode(
        _ decoder: SecretDecoder, _ window: Span<UInt8>, _ start: Int, _ end: Int, base: Int,
        prefilter: SecretPrefilter, into found: inout [SecretMatch]
    ) {
        guard let decoded = decoder.decode(window, start, end), !decoded.bytes.isEmpty else { return }
        precondition(decoded.origins.count == decoded.bytes.count, "a decoder gives one origin per byte")
        var inner: [SecretMatch] = []
        evaluate(
            decoded.bytes.span, base: 0, from: 0, to: decoded.bytes.count, into: &inner, prefilter: prefilter,
            decoding: false)
        for var match in inner {
            let last = min(max(match.end, match.start + 1), decoded.bytes.count) - 1
            match.start = base + decoded.origins[match.start]
            match.end = base + decoded.origins[last] + 1
            match.valueOffset = 0
            match.isDecoded = true
            if !found.contains(match) { found.append(match) }
        }
    }

    /// The eight bytes of `word` as a little-endian integer (one load once optimized).
    @inline(__always) static func loadWord(_ word: Span<UInt8>) -> UInt64 {
        // Two halves: Swift 6.2's type checker (Debian's swiftlang) gives up on one expression of eight.
        let low: UInt64 = UInt64(word[0]) | UInt64(word[1]) << 8 | UInt64(word[2]) << 16 | UInt64(word[3]) << 24
        let high: UInt64 = UInt64(word[4]) << 32 | UInt64(word[5]) << 40 | UInt64(word[6]) << 48 | UInt64(word[7]) << 56
        return low | high
    }

    // MARK: - Bookkeeping

    /// Counts lines up to stream offset `target`, over the kept tail and then the chunk.
    mutating func countLines(to target: Int, chunk: Span<UInt8>, chunkStart: Int) {
        if lines.position < chunkStart {
            let text = tail
            lines.advance(
                over: text.span, from: lines.position - tailStart, to: min(target, chunkStart) - tailStart)
        }
        if target > lines.position {
            lines.advance(over: chunk, from: lines.position - chunkStart, to: target - chunkStart)
        }
    }

    /// Keeps the last `kept` bytes of the stream.
    mutating func keepTail(of chunk: Span<UInt8>, chunkStart: Int) {
        let count = chunk.count
        if count >= Self.kept {
            tail.removeAll(keepingCapacity: true)
            Self.append(chunk, (count - Self.kept)..<count, to: &tail)
        } else {
            Self.append(chunk, 0..<count, to: &tail)
            if tail.count > Self.kept { tail.removeFirst(tail.count - Self.kept) }
        }
        tailStart = bytesScanned - tail.count
    }

    /// Appends `span[range]` to `array`: a plain copy loop, which the optimizer turns into a
    /// block copy (a `Span` is not a `Sequence` that `append(contentsOf:)` takes).
    static func append(_ span: Span<UInt8>, _ range: Range<Int>, to array: inout [UInt8]) {
        let source = span.extracting(range)
        let start = array.count
        array.append(contentsOf: repeatElement(0, count: source.count))
        var target = array.mutableSpan
        for index in 0..<source.count { target[start &+ index] = source[index] }
    }

    /// Adds a finding unless one it overlaps is as specific; replaces those less specific.
    mutating func add(_ finding: PendingFinding) {
        guard !isSaturated else { return }
        let match = finding.match
        let overlapping = pending.indices.filter {
            pending[$0].match.start < match.end && match.start < pending[$0].match.end
        }
        if overlapping.contains(where: { pending[$0].match.rank >= match.rank }) { return }
        for index in overlapping.reversed() { pending.remove(at: index) }
        pending.append(finding)
    }

    /// Confirms the pending findings that end before `offset`: no trigger still to come can
    /// produce a finding overlapping them.
    mutating func confirm(before offset: Int) {
        var kept: [PendingFinding] = []
        for finding in pending.sorted(by: { $0.match.start < $1.match.start }) {
            if finding.match.end <= offset {
                findings.append(
                    SecretFinding(
                        pattern: finding.match.pattern, offset: finding.match.start, line: finding.line,
                        column: finding.column, excerpt: finding.match.excerpt,
                        length: finding.match.end - finding.match.start, valueOffset: finding.match.valueOffset,
                        isDecoded: finding.match.isDecoded))
            } else {
                kept.append(finding)
            }
        }
        pending = kept
    }
}
