import PasteCore

/// A way pasted text hides a secret from the rules, and how to undo it around one candidate.
///
/// Each decoding declares the literals that justify running it (`triggers`); they are rows of
/// `SecretRule.table` like any kind's (`SecretRule.Check.decoded`), so the prefilter finds them
/// in the same pass as every other trigger, and a decoding runs only where one of them is. It
/// then works on a bounded region of the scanner's window around that trigger (a JSON string,
/// a run of percent escapes, the values under a Kubernetes `data:`, three lines of coloured
/// text, one YAML block scalar), never over the whole text, and the region's decoded bytes are
/// scanned with the whole table (`SecretRule.decodedMatch`). What is decoded:
///
/// - `jsonEscapes`: JSON string escapes, one to three levels deep (`\/` as PHP's `json_encode`
///   writes a URL, `\\n` in a key inside nested JSON or a Python `repr`);
/// - `percentEncoding`: `%XX` escapes (a PEM or an `Authorization` header in a query string or
///   a logged form body);
/// - `base64Values`: the values under a Kubernetes Secret's `data:` (YAML or JSON), and base64
///   that starts with the base64 of `-----BEGIN`, `Basic ` or `Bearer `;
/// - `controlSequences`: terminal colour codes (`grep --color`, `bat`), on a line and the two
///   after it;
/// - `yamlBlockScalar`: a `key: |` or `key: >` whose value is on the lines after it.
///
/// Each trigger starts a region of its own unless an earlier region of the same decoding (its
/// `slot`) already covers it (`SecretDecodingProgress`, kept by the scanner across chunks): a run
/// of triggers (16 MiB of `%20`) is decoded a region at a time, in linear time, and a long run or
/// a long `data:` block is decoded all the way, a region after another, not only its first
/// `regionAfter` bytes (issue 45, items 8 and 12).
///
/// Hard wraps are undone by the token check itself (`SecretRule.wrappedToken`): there the
/// candidate is a token cut at a line end.
enum SecretDecoding: Sendable, CaseIterable {
    case jsonEscapes
    case percentEncoding
    case base64Values
    case controlSequences
    case yamlBlockScalar
    case boxTable

    /// The literals that make the scanner run this decoding (each at least two bytes, for the
    /// prefilter).
    var triggers: [String] {
        switch self {
        // `\\n` (or deeper) only after a PEM header's dashes: `\n` alone is in every string
        // of source code.
        // `\":` is an escaped key (`{\"password\": \"…\"}` in a Docker log or a notebook);
        // `\"]` and ` = \"` are code inside a JSON string (a notebook's source lines:
        // `os.environ[\"KEY\"] = \"…\"`).
        case .jsonEscapes: ["\\/", "-----\\\\", "\\\\/", "\\\":", "\\\"]", " = \\\""]
        // The escapes that split what the rules look for: a blank, `/`, `:`, `=`, `+`, `@`, a
        // line break (three bytes each, so the prefilter's next-byte test rules out `%2d`).
        case .percentEncoding: ["%20", "%2F", "%2f", "%3A", "%3a", "%3D", "%3d", "%2B", "%2b", "%0A", "%0a", "%40"]
        // A Kubernetes Secret's `data:` is a top-level key (`metadata:` is not it).
        // The base64 of secret-bearing names, at each of the three alignments: a `.env` or a
        // config file encoded whole (`base64 < .env`).
        case .base64Values: ["\ndata:", "\"data\":", "LS0tLS1CRUdJT", "QmFzaWMg", "QmVhcmVyI"] + Self.base64Keywords
        // A box-drawing table's column rule (`doppler secrets`, `psql`'s unicode style, rich).
        case .boxTable: ["\u{2502} "]
        case .controlSequences: ["\u{1b}["]
        // The indicator and the byte after it (a line end or a chomping indicator), so the
        // prefilter's pair is not ` |` or ` >`, which are everywhere in code.
        case .yamlBlockScalar:
            [": |\n", ": >\n", ": |-", ": >-", ": |+", ": >+", ": |\r", ": >\r"]
        }
    }

    /// `PASSWORD`, `password`, `Password`, `SECRET`, `secret`, `_TOKEN`, `API_KEY` as they read
    /// in base64 at each of the three offsets a byte can have in a group of three.
    static let base64Keywords = [
        "UEFTU1dPUk", "BBU1NXT1JE", "QQVNTV09SR", "cGFzc3dvcm", "Bhc3N3b3Jk", "wYXNzd29yZ", "UGFzc3dvcm", "QYXNzd29yZ",
        "U0VDUkVU", "NFQ1JFV", "TRUNSRV", "c2VjcmV0", "NlY3Jld", "zZWNyZX", "X1RPS0VO", "9UT0tFT", "fVE9LRU",
        "QVBJX0tFW", "FQSV9LRV", "BUElfS0VZ",
    ]

    /// The longest region decoded around one trigger, before and after it.
    static let regionBefore = 1024
    static let regionAfter = 6144
    /// How far past its trigger a region cut at `regionAfter` covers the triggers after it: a
    /// trigger beyond starts the next region, which reaches back to it (`regionBefore`), so a
    /// secret that starts in the first half of a region is whole in it (a PEM key is under 4
    /// KiB), and one that starts later is in the next.
    static let restartDistance = regionAfter / 2

    /// How many coverage slots the decodings use (`slot(of:at:)`).
    static let slotCount = 7

    /// The coverage slot of the trigger at `start`: one per decoding, and two for base64 (a
    /// `data:` block, a base64 run), whose regions are of different kinds.
    func slot(of text: Span<UInt8>, at start: Int) -> Int {
        switch self {
        case .jsonEscapes: 0
        case .percentEncoding: 1
        case .base64Values: text[start] == 0x0a || text[start] == SecretText.ascii("\"") ? 2 : 3
        case .controlSequences: 4
        case .yamlBlockScalar: 5
        case .boxTable: 6
        }
    }

    /// The slot of a `data:` block's regions (and their continuations).
    static let dataBlockSlot = 2

    /// The region around the trigger at `start..<end` in `text`: its decoded bytes with where
    /// each came from (none when there is nothing to decode there), how far it covers the
    /// triggers after it, and where a `data:` block goes on past it.
    func region(_ text: Span<UInt8>, literalAt start: Int, end: Int) -> SecretRegion {
        switch self {
        case .jsonEscapes: Self.jsonEscapes(text, start)
        case .percentEncoding: Self.percentEncoding(text, start)
        case .base64Values: Self.base64Values(text, start, end)
        case .controlSequences: Self.controlSequences(text, start)
        case .yamlBlockScalar: Self.yamlBlockScalar(text, start, end)
        case .boxTable: Self.boxTable(text, start)
        }
    }

    /// Where a region cut at `highest` stops covering later triggers: where it ends, when it
    /// ended by itself before `highest`; else `restartDistance` past its trigger.
    static func coveredEnd(of to: Int, highest: Int, trigger: Int) -> Int {
        to < highest ? to : min(to, trigger + restartDistance)
    }

    // MARK: - JSON string escapes

    /// The JSON string holding the trigger (from the nearest unescaped `"` before it to the
    /// next one after it, or the line's ends), unescaped up to `jsonLevels` times.
    static func jsonEscapes(_ text: Span<UInt8>, _ trigger: Int) -> SecretRegion {
        let backslash = SecretText.ascii("\\")
        let quote = SecretText.ascii("\"")
        func isUnescapedQuote(_ index: Int) -> Bool {
            guard text[index] == quote else { return false }
            var count = 0
            while index - count - 1 >= 0 && text[index - count - 1] == backslash { count += 1 }
            return count % 2 == 0
        }
        var from = trigger
        let lowest = max(0, trigger - regionBefore)
        while from > lowest && !isUnescapedQuote(from - 1) && text[from - 1] != 0x0a { from -= 1 }
        var to = trigger
        let highest = min(text.count, trigger + regionAfter)
        while to < highest && !isUnescapedQuote(to) && text[to] != 0x0a { to += 1 }
        var region = SecretRegion(
            coveredEnd: coveredEnd(of: to, highest: highest, trigger: trigger), work: (to - from) * (1 + jsonLevels))
        var decoded = SecretDecoded(text, from, to)
        for _ in 0..<jsonLevels {
            guard let next = decoded.unescapingJSON() else { break }
            decoded = next
        }
        if decoded.bytes.count < to - from { region.decoded = decoded }
        return region
    }

    /// How many levels of escaping are undone: JSON in JSON (or in a Python `repr`), and once
    /// more for a log line that writes such JSON as a string.
    static let jsonLevels = 3

    // MARK: - Percent-encoding

    /// The run of URL characters holding the trigger (up to a blank, a quote, `&` or `<`),
    /// percent-decoded, when it holds at least two valid escapes.
    static func percentEncoding(_ text: Span<UInt8>, _ trigger: Int) -> SecretRegion {
        func isRun(_ byte: UInt8) -> Bool {
            !SecretText.isSpace(byte) && !SecretText.isQuote(byte) && byte != SecretText.ascii("&")
                && byte != SecretText.ascii("<") && byte != SecretText.ascii(">")
        }
        guard isEscape(text, trigger) else { return SecretRegion(coveredEnd: trigger + 1) }
        var from = trigger
        let lowest = max(0, trigger - regionBefore)
        while from > lowest && isRun(text[from - 1]) { from -= 1 }
        var to = trigger
        let highest = min(text.count, trigger + regionAfter)
        var escapes = 0
        while to < highest && isRun(text[to]) {
            if isEscape(text, to) { escapes += 1 }
            to += 1
        }
        var region = SecretRegion(coveredEnd: coveredEnd(of: to, highest: highest, trigger: trigger), work: to - from)
        guard escapes >= 2 else { return region }
        var bytes: [UInt8] = []
        var origins: [Int] = []
        bytes.reserveCapacity(to - from)
        origins.reserveCapacity(to - from + 1)
        var index = from
        while index < to {
            origins.append(index)
            if isEscape(text, index), index + 2 < to {
                bytes.append(hexValue(text[index + 1]) << 4 | hexValue(text[index + 2]))
                index += 3
            } else {
                bytes.append(text[index])
                index += 1
            }
        }
        origins.append(to)
        region.decoded = SecretDecoded(bytes: bytes, origins: origins)
        return region
    }

    static func isEscape(_ text: Span<UInt8>, _ index: Int) -> Bool {
        index + 2 < text.count && text[index] == SecretText.ascii("%") && SecretText.isHex(text[index + 1])
            && SecretText.isHex(text[index + 2])
    }

    static func hexValue(_ byte: UInt8) -> UInt8 {
        SecretText.isDigit(byte) ? byte - 0x30 : SecretText.lowercased(byte) - 0x61 + 10
    }

    // MARK: - Base64 values

    /// The shortest base64 value decoded (eight characters: six bytes).
    static let minimumBase64 = 8

    /// Under `data:` (a Kubernetes Secret in YAML) or `"data": {` (in JSON): each `key: value`
    /// of the block, its value decoded, as `key: decoded` lines. Elsewhere: the base64 run that
    /// starts with the trigger (the base64 of `-----BEGIN`, `Basic `, `Bearer `), decoded, its
    /// lines (as `base64` wraps them at 76) joined.
    static func base64Values(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> SecretRegion {
        if text[start] == 0x0a { return dataBlock(text, start + 1, end) }
        if text[start] == SecretText.ascii("\"") { return dataBlock(text, start, end) }
        if base64Keywords.contains(where: { SecretText.has(text, at: start, $0) }) {
            return base64Run(text, from: base64RunStart(text, around: start), trigger: start)
        }
        guard SecretText.startsWord(text, at: start) else { return SecretRegion(coveredEnd: start + 1) }
        return base64Run(text, from: start, trigger: start)
    }

    /// Where the base64 run holding `index` starts: back over base64 characters (not `=`, which
    /// ends a `KEY=` before it), and over the lines before while each is a full line of the
    /// same wrapped run (as `base64` writes 76 a line).
    static func base64RunStart(_ text: Span<UInt8>, around index: Int) -> Int {
        let lowest = max(0, index - regionBefore)
        let letters = SecretAlphabet("A-Za-z0-9+/")
        var start = index
        while start > lowest && letters.contains(text[start - 1]) { start -= 1 }
        let width = SecretText.run(text, from: start, max: 200, letters)
        while start > lowest + 1 && text[start - 1] == 0x0a {
            var previous = start - 1
            if previous > lowest && text[previous - 1] == 0x0d { previous -= 1 }
            let length = SecretText.runBackwards(text, before: previous, max: 200, letters)
            let lineStart = previous - length
            guard length >= 60, length >= width, lineStart == 0 || !letters.contains(text[lineStart - 1]) else { break }
            start = lineStart
        }
        return start
    }

    /// The base64 run from `start` (wrapped lines joined), decoded when it is text.
    static func base64Run(_ text: Span<UInt8>, from start: Int, trigger: Int) -> SecretRegion {
        var bytes: [UInt8] = []
        var origins: [Int] = []
        var index = start
        let highest = min(text.count, start + regionAfter)
        var runEnd = start
        var encoded: [UInt8] = []
        while index < highest {
            let byte = text[index]
            if SecretAlphabet.base64.contains(byte) || byte == SecretText.ascii("=") {
                encoded.append(byte)
                index += 1
                runEnd = index
            } else if byte == 0x0a || byte == 0x0d {
                // `base64` wraps at 76: a line of base64 continues on the next.
                var next = index
                while next < highest && (text[next] == 0x0a || text[next] == 0x0d || SecretText.isBlank(text[next])) {
                    next += 1
                }
                guard next < highest, SecretAlphabet.base64.contains(text[next]) else { break }
                index = next
            } else {
                break
            }
        }
        var region = SecretRegion(
            coveredEnd: coveredEnd(of: index, highest: highest, trigger: trigger), work: index - start)
        guard let decoded = decodedText(encoded) else { return region }
        bytes = decoded
        origins = Array(repeating: start, count: bytes.count)
        origins.append(runEnd)
        region.decoded = SecretDecoded(bytes: bytes, origins: origins)
        return region
    }

    /// The values of a `data:` block, decoded: the first `regionAfter` bytes of its entries,
    /// and where the block goes on past them (`dataEntries`).
    static func dataBlock(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> SecretRegion {
        let isJSON = text[start] == SecretText.ascii("\"")
        let none = SecretRegion(coveredEnd: end)
        var index = end
        if isJSON {
            while index < text.count && SecretText.isSpace(text[index]) { index += 1 }
            guard index < text.count, text[index] == SecretText.ascii("{") else { return none }
            index += 1
        } else {
            // `data:` as a YAML key of its own (not `metadata:`), ending its line.
            guard SecretRule.startsLine(text, start) else { return none }
            while index < text.count && SecretText.isBlank(text[index]) { index += 1 }
            guard index < text.count, text[index] == 0x0a || text[index] == 0x0d else { return none }
        }
        return dataEntries(text, from: index, isJSON: isJSON)
    }

    /// The entries of a `data:` block from `start` (the end of `data:`'s line or of its `{`, or
    /// where the last region of the block stopped), for `regionAfter` bytes, their values
    /// decoded as `key: decoded` lines. A block longer than that goes on in the region after
    /// (`SecretRegion.continuation`), which the scanner decodes when it gets there, however
    /// long the block is (issue 45, item 8).
    static func dataEntries(_ text: Span<UInt8>, from start: Int, isJSON: Bool) -> SecretRegion {
        var index = start
        var bytes: [UInt8] = []
        var origins: [Int] = []
        let highest = min(text.count, start + regionAfter)
        var found = false
        var isOver = false
        while index < highest {
            // The next entry: an optionally quoted key, `:`, an optionally quoted value.
            while index < highest && (SecretText.isSpace(text[index]) || text[index] == SecretText.ascii(",")) {
                index += 1
            }
            guard index < highest else { break }
            guard text[index] != SecretText.ascii("}") else {
                isOver = true
                break
            }
            let lineStart = index
            if !isJSON, let first = SecretText.lineStart(text, of: index, within: regionBefore),
                index == first
            {
                isOver = true
                break  // back at the key's own indentation: the block is over
            }
            var keyEnd = index
            while keyEnd < highest && text[keyEnd] != SecretText.ascii(":") && text[keyEnd] != 0x0a { keyEnd += 1 }
            guard keyEnd < highest else { break }
            guard text[keyEnd] == SecretText.ascii(":") else {
                isOver = true
                break
            }
            var valueStart = keyEnd + 1
            while valueStart < highest && SecretText.isBlank(text[valueStart]) { valueStart += 1 }
            if valueStart < highest && SecretText.isQuote(text[valueStart]) { valueStart += 1 }
            let length = SecretText.run(text, from: valueStart, max: regionAfter, .base64)
            var valueEnd = valueStart + length
            while valueEnd < highest && text[valueEnd] == SecretText.ascii("=") { valueEnd += 1 }
            if length >= minimumBase64,
                let decoded = decodedText(SecretText.bytes(text, valueStart, valueEnd))
            {
                for position in lineStart..<(keyEnd + 1) {
                    bytes.append(text[position])
                    origins.append(position)
                }
                bytes.append(0x20)
                origins.append(valueStart)
                bytes += decoded
                origins += repeatElement(valueStart, count: decoded.count)
                bytes.append(0x0a)
                origins.append(valueEnd)
                found = true
            }
            index = valueEnd
            while index < highest && text[index] != 0x0a && text[index] != SecretText.ascii(",") { index += 1 }
        }
        // Cut at `highest`: the block goes on in the next region (none when the text ends).
        let continues = !isOver && index >= highest
        var region = SecretRegion(coveredEnd: index, work: index - start)
        region.continuation = continues ? (at: index, isJSON: isJSON) : nil
        guard found else { return region }
        origins.append(index)
        region.decoded = SecretDecoded(bytes: bytes, origins: origins)
        return region
    }

    /// `encoded` decoded, when it is text: base64 of printable UTF-8 (tabs and line breaks
    /// allowed), not of binary (a DER key is matched by its PEM form, a certificate not at all).
    static func decodedText(_ encoded: [UInt8]) -> [UInt8]? {
        guard encoded.count >= minimumBase64, let decoded = SecretText.decodeBase64(encoded.span, 0, encoded.count),
            !decoded.isEmpty
        else { return nil }
        let printable = decoded.filter { ($0 >= 0x20 && $0 != 0x7f) || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }
        return printable.count == decoded.count ? decoded : nil
    }

    // MARK: - Box-drawing tables

    /// `│`, the rule between a box table's columns (U+2502, three bytes in UTF-8).
    static let columnRule: [UInt8] = [0xE2, 0x94, 0x82]

    /// The box-drawing table holding the trigger (its lines of `│` cells and its `├──┼──┤`
    /// borders, within the region), each row as `NAME="VALUE"` on a line of its own: a cell's
    /// lines wrapped by the renderer (`doppler secrets` wraps a long value inside its cell, the
    /// row's other cells empty) joined back into one value.
    static func boxTable(_ text: Span<UInt8>, _ trigger: Int) -> SecretRegion {
        let lowest = max(0, trigger - regionBefore)
        let highest = min(text.count, trigger + regionAfter)
        func isBoxLine(_ start: Int, _ end: Int) -> Bool {
            var index = start
            while index + 1 < end {
                if text[index] == 0xE2 && (text[index + 1] == 0x94 || text[index + 1] == 0x95) { return true }
                index += 1
            }
            return false
        }
        // Back to the table's first line.
        var from = SecretText.lineStart(text, of: trigger, within: regionBefore) ?? lowest
        while from > lowest {
            let previousEnd = from - 1
            guard let previousStart = SecretText.lineStart(text, of: previousEnd, within: from - lowest),
                isBoxLine(previousStart, previousEnd)
            else { break }
            from = previousStart
        }
        typealias Cell = (bytes: [UInt8], origins: [Int])
        var rows: [[Cell]] = []
        var lastWasData = false
        var index = from
        while index < highest {
            let lineEnd = min(highest, SecretText.lineEnd(text, of: index))
            guard isBoxLine(index, lineEnd) else { break }
            // The rules on this line.
            var rules: [Int] = []
            var position = index
            while position + 2 < lineEnd {
                if text[position] == columnRule[0] && text[position + 1] == columnRule[1]
                    && text[position + 2] == columnRule[2]
                {
                    rules.append(position)
                    position += 3
                } else {
                    position += 1
                }
            }
            if rules.count >= 3 {
                var cells: [Cell] = []
                for pair in 0..<(rules.count - 1) {
                    var cellStart = rules[pair] + 3
                    var cellEnd = rules[pair + 1]
                    while cellStart < cellEnd && SecretText.isBlank(text[cellStart]) { cellStart += 1 }
                    while cellEnd > cellStart && SecretText.isBlank(text[cellEnd - 1]) { cellEnd -= 1 }
                    cells.append((SecretText.bytes(text, cellStart, cellEnd), Array(cellStart..<cellEnd)))
                }
                if lastWasData, let first = cells.first, first.bytes.isEmpty, var row = rows.popLast() {
                    for (column, cell) in cells.enumerated() where column < row.count {
                        row[column].bytes += cell.bytes
                        row[column].origins += cell.origins
                    }
                    rows.append(row)
                } else {
                    rows.append(cells)
                }
                lastWasData = true
            } else {
                lastWasData = false
            }
            index = lineEnd < text.count ? lineEnd + 1 : lineEnd
            if lineEnd < text.count && text[lineEnd] == 0x0d && index < text.count && text[index] == 0x0a { index += 1 }
        }
        var region = SecretRegion(coveredEnd: index, work: index - from)
        var bytes: [UInt8] = []
        var origins: [Int] = []
        for row in rows where row.count >= 2 && !row[0].bytes.isEmpty && !row[1].bytes.isEmpty {
            let name = row[0]
            let value = row[1]
            let quote: [UInt8] = value.bytes.contains(where: SecretText.isQuote) ? [] : [SecretText.ascii("\"")]
            bytes += name.bytes
            origins += name.origins
            bytes.append(SecretText.ascii("="))
            origins.append(value.origins[0])
            bytes += quote
            origins += quote.map { _ in value.origins[0] }
            bytes += value.bytes
            origins += value.origins
            bytes += quote
            origins += quote.map { _ in value.origins[value.origins.count - 1] }
            bytes.append(0x0a)
            origins.append(value.origins[value.origins.count - 1])
        }
        guard !bytes.isEmpty else { return region }
        origins.append(index)
        region.decoded = SecretDecoded(bytes: bytes, origins: origins)
        return region
    }

    // MARK: - Terminal colour codes

    /// How many lines after the trigger's are taken with it: a PEM header and its first body
    /// lines, a token wrapped once.
    static let controlSequenceLines = 2

    /// The trigger's line and the two after it without ECMA-48 control sequences (`ESC [`,
    /// parameter and intermediate bytes, a final byte), when the trigger is the line's first.
    static func controlSequences(_ text: Span<UInt8>, _ trigger: Int) -> SecretRegion {
        let highest = min(text.count, trigger + regionAfter)
        // The triggers after this one on its line are in its region (or, on a line longer than
        // the look back, as far from its start as this one): only the next line's start anew.
        var lineEnd = trigger
        while lineEnd < highest && text[lineEnd] != 0x0a { lineEnd += 1 }
        guard let lineStart = SecretText.lineStart(text, of: trigger, within: regionBefore) else {
            return SecretRegion(coveredEnd: lineEnd, work: regionBefore + lineEnd - trigger)
        }
        var to = trigger
        var lines = 0
        while to < highest {
            if text[to] == 0x0a {
                lines += 1
                if lines > controlSequenceLines { break }
            }
            to += 1
        }
        var bytes: [UInt8] = []
        var origins: [Int] = []
        bytes.reserveCapacity(to - lineStart)
        origins.reserveCapacity(to - lineStart + 1)
        var index = lineStart
        while index < to {
            if text[index] == 0x1b, index + 1 < to, text[index + 1] == SecretText.ascii("[") {
                var end = index + 2
                while end < to, (0x20...0x3f).contains(text[end]) { end += 1 }
                if end < to, (0x40...0x7e).contains(text[end]) {
                    index = end + 1
                    continue
                }
            }
            bytes.append(text[index])
            origins.append(index)
            index += 1
        }
        origins.append(to)
        var region = SecretRegion(coveredEnd: lineEnd, work: to - lineStart)
        region.decoded = SecretDecoded(bytes: bytes, origins: origins)
        return region
    }

    // MARK: - YAML block scalars

    /// `key: |` (or `>`, with a chomping indicator `-`/`+` and an indentation digit) ending its
    /// line, then lines indented deeper: `key: ` and the value, its lines joined with line
    /// breaks (`|`) or blanks (`>`), so the rule for the key sees the value after it.
    static func yamlBlockScalar(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> SecretRegion {
        // A block scalar's lines are its value: a trigger inside them is decoded with it (the
        // decoded text is scanned with every decoding again).
        guard let (decoded, blockEnd) = yamlBlockValue(text, start, end) else {
            return SecretRegion(coveredEnd: start + 1, work: 0)
        }
        var region = SecretRegion(coveredEnd: blockEnd, work: blockEnd - start)
        region.decoded = decoded
        return region
    }

    /// The `key: value` of a block scalar, and where its lines end.
    static func yamlBlockValue(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> (SecretDecoded, Int)? {
        let isFolded = text[start + 2] == SecretText.ascii(">")
        var index = start + 3
        while index < text.count
            && (text[index] == SecretText.ascii("-") || text[index] == SecretText.ascii("+")
                || SecretText.isDigit(text[index]))
        {
            index += 1
        }
        while index < text.count && SecretText.isBlank(text[index]) { index += 1 }
        guard index < text.count, text[index] == 0x0a || text[index] == 0x0d else { return nil }
        guard let lineStart = SecretText.lineStart(text, of: start, within: SecretRule.maximumKeyLength + 16) else {
            return nil
        }
        var keyStart = lineStart
        while keyStart < start && (SecretText.isBlank(text[keyStart]) || text[keyStart] == SecretText.ascii("-")) {
            keyStart += 1
        }
        let indentation = keyStart - lineStart
        guard keyStart < start else { return nil }
        var bytes: [UInt8] = []
        var origins: [Int] = []
        for position in keyStart..<(start + 1) {
            bytes.append(text[position])
            origins.append(position)
        }
        bytes.append(0x20)
        origins.append(start + 1)
        let highest = min(text.count, end + regionAfter)
        var lines = 0
        while index < highest && (text[index] == 0x0a || text[index] == 0x0d) {
            var contentStart = index
            while contentStart < highest && (text[contentStart] == 0x0a || text[contentStart] == 0x0d) {
                contentStart += 1
            }
            let blankStart = contentStart
            while contentStart < highest && text[contentStart] == 0x20 { contentStart += 1 }
            guard contentStart - blankStart > indentation, contentStart < highest,
                text[contentStart] != 0x0a
            else { break }
            if lines > 0 {
                bytes.append(isFolded ? 0x20 : 0x0a)
                origins.append(index)
            }
            let lineEnd = min(highest, SecretText.lineEnd(text, of: contentStart))
            for position in contentStart..<lineEnd {
                bytes.append(text[position])
                origins.append(position)
            }
            lines += 1
            index = lineEnd
        }
        guard lines > 0 else { return nil }
        // A block scalar is a string, never a reference: one line of it is written quoted, so
        // the key's rule takes it as the literal it is.
        let valueStart = start + 2 - keyStart
        let value = bytes[valueStart...]
        if lines == 1 && !value.contains(where: SecretText.isQuote) {
            bytes.insert(SecretText.ascii("\""), at: valueStart)
            origins.insert(origins[valueStart], at: valueStart)
            bytes.append(SecretText.ascii("\""))
            origins.append(index)
        }
        bytes.append(0x0a)
        origins.append(index)
        origins.append(index)
        return (SecretDecoded(bytes: bytes, origins: origins), index)
    }
}

/// What one decoding did around one trigger (`SecretDecoding.region`), in offsets of the window
/// it was given.
struct SecretRegion {
    /// The decoded bytes, when there was anything to decode.
    var decoded: SecretDecoded?
    /// The triggers of the same slot before this offset need no region of their own: this one
    /// holds what they would decode (or, for those past a cut, enough of it; see
    /// `SecretDecoding.restartDistance`).
    var coveredEnd: Int
    /// Where a `data:` block goes on past the region, and whether it is JSON.
    var continuation: (at: Int, isJSON: Bool)?
    /// How many bytes of the window the decoding went over (`SecretDecodingProgress.work`).
    var work = 0

    init(coveredEnd: Int, work: Int = 0) {
        self.coveredEnd = coveredEnd
        self.work = work
    }
}

/// Bytes decoded from a region of the scanner's window, and where each came from.
struct SecretDecoded {
    /// The decoded bytes.
    var bytes: [UInt8]
    /// For each decoded byte, the window offset of the first source byte it came from; one
    /// more entry at the end: where the region ends.
    var origins: [Int]

    init(bytes: [UInt8], origins: [Int]) {
        precondition(origins.count == bytes.count + 1, "one origin per byte and the end")
        self.bytes = bytes
        self.origins = origins
    }

    /// `text[from..<to]` as it is.
    init(_ text: Span<UInt8>, _ from: Int, _ to: Int) {
        self.init(bytes: SecretText.bytes(text, from, to), origins: Array(from...to))
    }

    /// One level of JSON string escapes undone (`\/ \\ \" \n \r \t \uXXXX` below U+0080); nil
    /// when there was none.
    func unescapingJSON() -> SecretDecoded? {
        let backslash = SecretText.ascii("\\")
        var output: [UInt8] = []
        var sources: [Int] = []
        output.reserveCapacity(bytes.count)
        sources.reserveCapacity(bytes.count + 1)
        var changed = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == backslash, index + 1 < bytes.count {
                let next = bytes[index + 1]
                var replacement: UInt8?
                var length = 2
                switch next {
                case SecretText.ascii("/"), backslash, SecretText.ascii("\""): replacement = next
                case SecretText.ascii("n"): replacement = 0x0a
                case SecretText.ascii("r"): replacement = 0x0d
                case SecretText.ascii("t"): replacement = 0x09
                case SecretText.ascii("u"):
                    if index + 5 < bytes.count, bytes[index + 2] == 0x30, bytes[index + 3] == 0x30,
                        SecretText.isHex(bytes[index + 4]), SecretText.isHex(bytes[index + 5])
                    {
                        let value =
                            SecretDecoding.hexValue(bytes[index + 4]) << 4 | SecretDecoding.hexValue(bytes[index + 5])
                        if value < 0x80 {
                            replacement = value
                            length = 6
                        }
                    }
                default: break
                }
                if let replacement {
                    output.append(replacement)
                    sources.append(origins[index])
                    index += length
                    changed = true
                    continue
                }
            }
            output.append(byte)
            sources.append(origins[index])
            index += 1
        }
        guard changed else { return nil }
        sources.append(origins[bytes.count])
        return SecretDecoded(bytes: output, origins: sources)
    }
}
