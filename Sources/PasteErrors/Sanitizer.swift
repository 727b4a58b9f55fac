/// Makes what a server sent, and what the person typed or configured, safe to print on a
/// terminal or put on the clipboard.
///
/// A server is not trusted: its URL could carry escape sequences that rewrite the terminal, a
/// right-to-left override that makes it read as another address, or a `javascript:` scheme that
/// runs when clicked. URLs are validated strictly; error bodies are stripped of escapes and
/// control characters and cut short. Values from argv, the config and the environment (file
/// names, option values, service names) are shown through `shown(_:limit:)` in every message:
/// a file named `$'\e]0;PWNED\a'` must not retitle the terminal, and a 100 kB option must not
/// fill it.
public enum Sanitizer {
    /// The longest URL accepted from a server (browsers handle more; pastebins never need it).
    public static let maximumURLLength = 2_048
    /// How much of an error body is shown.
    public static let excerptLength = 160
    /// How much of a value from the person, the config or a server a message shows (in
    /// characters, escapes counted as written), before `…`.
    public static let shownLength = 80
    /// How much of a URL a message shows: a link is of use only whole, so more than other values
    /// (a PrivateBin link with its key is about 100 characters), and still bounded.
    public static let shownURLLength = 300
    /// How much of a file's path a message shows: a path names what failed and is of use only
    /// whole (an outbox entry's path is past 80 characters), and still bounded.
    public static let shownPathLength = 300
    /// The longest line paste writes to stderr, whatever it is made of: the last bound, for
    /// text no message shaped (a library's error description).
    public static let lineLength = 1_000

    /// Why a URL from a server was refused.
    public enum URLProblem: Error, Sendable, Equatable {
        case notHTTP(scheme: String)
        case tooLong(Int)
        case controlCharacters
        case whitespace
        /// A character RFC 3986 leaves out of every URL and that ends one in text: a quote, an
        /// angle bracket or a backtick (`http://host/api/"http://host/abc"`, a JSON string
        /// taken as a path).
        case notInURL(Character)
        case noHost
        /// A bidirectional control (U+202A–202E, U+2066–2069, U+200E, U+200F, U+061C): the URL
        /// would read, on screen, in another order than the one it leads to.
        case bidirectionalControl(Unicode.Scalar)
        /// A character that takes no room on screen (U+200B–200D, U+2060, U+FEFF): two URLs
        /// that look the same would lead to different places.
        case invisibleCharacter(Unicode.Scalar)
        /// User information before the host (`http://bank.example@evil.example/`): what reads
        /// as the host is not the one the URL leads to.
        case userInfo
        /// An ideographic full stop in the host (U+3002, U+FF0E, U+FF61), which browsers read as
        /// a dot: `127.0.0.1。evil.example` leads to evil.example.
        case ideographicFullStop(Unicode.Scalar)
        /// A host that mixes scripts (Cyrillic or full-width letters among Latin ones): it
        /// reads as a host it is not.
        case mixedScriptHost(String)
    }

    /// Validates a URL from a server: http(s), a host, no user information, no whitespace,
    /// control, bidirectional or invisible characters, bounded length. Surrounding white space
    /// (a trailing newline) is trimmed first.
    public static func validateURL(_ raw: String) -> Result<String, URLProblem> {
        if let plain = plainHTTPURL(raw) { return .success(plain) }
        return checkedURL(raw)
    }

    /// `validateURL`'s verdict by every check, for any text (`plainHTTPURL` takes the common
    /// case first).
    static func checkedURL(_ raw: String) -> Result<String, URLProblem> {
        var text = Substring(raw)
        while let first = text.first, first == " " || first == "\t" || first == "\n" || first == "\r" {
            text.removeFirst()
        }
        while let last = text.last, last == " " || last == "\t" || last == "\n" || last == "\r" {
            text.removeLast()
        }
        if text.unicodeScalars.contains(where: {
            $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value)
        }) {
            return .failure(.controlCharacters)
        }
        if let scalar = text.unicodeScalars.first(where: isBidirectionalControl) {
            return .failure(.bidirectionalControl(scalar))
        }
        if let scalar = text.unicodeScalars.first(where: { isInvisible($0) || isHiddenInURL($0) }) {
            return .failure(.invisibleCharacter(scalar))
        }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace }) { return .failure(.whitespace) }
        if let character = text.first(where: { Self.charactersNotInURL.contains($0) }) {
            return .failure(.notInURL(character))
        }
        if text.utf8.count > maximumURLLength { return .failure(.tooLong(text.utf8.count)) }
        let lower = text.lowercased()
        let scheme = lower.firstIndex(of: ":").map { String(lower[..<$0]) } ?? ""
        guard scheme == "http" || scheme == "https" else { return .failure(.notHTTP(scheme: scheme)) }
        let afterScheme = lower.dropFirst(scheme.count + 1)
        guard afterScheme.hasPrefix("//"), let hostStart = afterScheme.dropFirst(2).first, hostStart != "/" else {
            return .failure(.noHost)
        }
        // The authority ends at the path, the query or the fragment (a backslash too: browsers
        // read it as a slash in http URLs). An `@` inside it puts user information first.
        let authority = afterScheme.dropFirst(2).prefix { !"/\\?#".contains($0) }
        if authority.contains("@") { return .failure(.userInfo) }
        if let stop = authority.unicodeScalars.first(where: { Self.ideographicFullStops.contains($0.value) }) {
            return .failure(.ideographicFullStop(stop))
        }
        if isMixedScript(authority) { return .failure(.mixedScriptHost(String(authority))) }
        return .success(String(text))
    }

    /// The common answer, a plain http(s) URL of printable ASCII, accepted in one pass over its
    /// bytes; nil when the text is anything else, and `validateURL`'s checks decide.
    ///
    /// PERF(hotkey): the checks below on Unicode scalars and `Character`s (properties looked up
    /// per scalar, a `Set<Character>`, `lowercased()`) were 113,000 instructions for one
    /// 40-byte URL (callgrind); this pass is a few hundred. It accepts only what they accept:
    /// bytes 0x21–0x7E have no control, bidirectional, invisible, hidden, white-space,
    /// ideographic or non-Latin character, so what is left to check is the refused ASCII
    /// (`charactersNotInURL`), the length, the scheme, a host and no user information. Only
    /// space, tab and line feed are trimmed here: a carriage return is left to `validateURL`,
    /// where `"\r\n"` is one `Character` that its trimming keeps.
    static func plainHTTPURL(_ raw: String) -> String? {
        let bytes = raw.utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        func isTrimmed(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A }
        while start < end, isTrimmed(bytes[start]) { start = bytes.index(after: start) }
        while start < end, isTrimmed(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        let text = bytes[start..<end]
        guard text.count <= maximumURLLength else { return nil }
        var position = 0
        // 0: in the scheme; 1: in the authority; 2: past it.
        var part = 0
        var schemeLength = 0
        for byte in text {
            guard byte > 0x20 && byte < 0x7F else { return nil }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "`"): return nil
            default: break
            }
            switch part {
            case 0:
                if byte == UInt8(ascii: ":") {
                    schemeLength = position
                    part = 1
                }
            case 1:
                // Offsets 1 and 2 after the colon: "//"; 3: the host's first character.
                let offset = position - schemeLength
                if offset <= 2 {
                    guard byte == UInt8(ascii: "/") else { return nil }
                } else {
                    switch byte {
                    case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                        if offset == 3 { return nil }
                        part = 2
                    case UInt8(ascii: "@"): return nil
                    default: break
                    }
                }
            default: break
            }
            position += 1
        }
        guard part != 0, position - schemeLength > 3 else { return nil }
        let scheme = text.prefix(schemeLength).map { $0 | 0x20 }
        guard scheme.elementsEqual("http".utf8) || scheme.elementsEqual("https".utf8) else { return nil }
        return String(raw[start..<end])
    }

    /// What `URLProblem.notInURL` refuses.
    static let charactersNotInURL: Set<Character> = ["\"", "<", ">", "`"]

    /// The full stops browsers read as `.` in a host (UTS #46): ideographic, full-width and
    /// half-width.
    static let ideographicFullStops: Set<UInt32> = [0x3002, 0xFF0E, 0xFF61]

    /// Whether a scalar is hidden in a URL though `isInvisible` lets it be: every
    /// Default_Ignorable code point (the soft hyphen U+00AD, the tags U+E0000–E007F, the
    /// Hangul fillers U+3164 and U+FFA0, variation selectors, …) and the combining marks that
    /// overlay the character before them (U+0334–0338, U+20D2…: `/` drawn through a letter).
    static func isHiddenInURL(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint || scalar.value == 0x3164 || scalar.value == 0xFFA0
            || (scalar.value > 0x7F && scalar.properties.canonicalCombiningClass == .overlay)
    }

    /// Whether a host mixes letters of different kinds in one label: ASCII (Latin) letters
    /// with Greek, Cyrillic or Armenian ones (Cyrillic `а`), or full-width Latin (`ａ`). A host all in one non-Latin
    /// script (an internationalised name) is left alone.
    static func isMixedScript(_ authority: Substring) -> Bool {
        for label in authority.split(separator: ".") {
            let letters = label.unicodeScalars.filter { $0.properties.isAlphabetic }
            // Latin letters with accents (`bücher`) are Latin still: only the scripts whose
            // letters pass for Latin ones (Greek, Cyrillic, Armenian) count as another.
            if letters.contains(where: \.isASCII) && letters.contains(where: { (0x370...0x58F).contains($0.value) }) {
                return true
            }
            // Full-width Latin letters are Latin that reads as ASCII.
            if letters.contains(where: { (0xFF21...0xFF5A).contains($0.value) }) { return true }
        }
        return false
    }

    /// Whether a scalar reorders the text around it on screen (Unicode's explicit bidirectional
    /// formatting characters, UAX #9 §2, and the implicit marks).
    public static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }

    /// Whether a scalar is a zero-width character that hides between others (zero-width space,
    /// joiners, word joiner, byte order mark).
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B...0x200D, 0x2060, 0xFEFF: true
        default: false
        }
    }

    /// A value from the person, the config, the environment or a server, as a message may
    /// show it: every control and format character escaped visibly, cut at `limit` characters.
    ///
    /// ESC becomes `\e`, BEL `\a`, the other C0 controls `\n`, `\t`, `\r`, `\0` or `\x1f`,
    /// DEL `\x7f`; C1 controls, bidirectional and invisible characters, and the rest of Unicode's
    /// format, line and paragraph separators become `\u{202E}`. Everything else is kept, so a
    /// plain file name reads as it is. Past `limit` characters of the result (escapes counted
    /// as written) the rest is replaced by `…`: applied twice, the result is the same.
    public static func shown(_ value: some StringProtocol, limit: Int = shownLength) -> String {
        var out = ""
        var count = 0
        for scalar in value.unicodeScalars {
            let piece = escaped(scalar)
            let length = piece?.unicodeScalars.count ?? 1
            // An earlier cut's `…` meets the limit exactly and is replaced by itself.
            if count + length > limit { return out + "…" }
            if let piece { out += piece } else { out.unicodeScalars.append(scalar) }
            count += length
        }
        return out
    }

    /// How `shown` writes a scalar that must not reach a terminal as it is; nil for the others.
    private static func escaped(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x1B: return "\\e"
        case 0x07: return "\\a"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x00: return "\\0"
        case 0x01..<0x20, 0x7F:
            let hex = String(scalar.value, radix: 16)
            return "\\x" + (hex.count < 2 ? "0" : "") + hex
        default:
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                return isBidirectionalControl(scalar) || isInvisible(scalar)
                    ? "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" : nil
            }
        }
    }

    /// A short, printable excerpt of a server's body: escape sequences removed, control
    /// characters replaced, runs of white space folded, cut at `limit` characters.
    public static func excerpt(_ bytes: some Sequence<UInt8>, limit: Int = excerptLength) -> String {
        let text = String(decoding: Array(bytes.prefix(limit * 8)), as: UTF8.self)
        return printable(text, limit: limit)
    }

    /// The text with terminal escapes stripped and control characters gone, on one line.
    public static func printable(_ text: String, limit: Int = Int.max) -> String {
        var out = ""
        var scalars = text.unicodeScalars.makeIterator()
        var lastWasSpace = true
        var count = 0
        while let scalar = scalars.next(), count < limit {
            if scalar == "\u{1B}" || scalar == "\u{9B}" {
                skipEscape(after: scalar, in: &scalars)
                continue
            }
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                || scalar.properties.isWhitespace
            {
                if !lastWasSpace {
                    out += " "
                    count += 1
                }
                lastWasSpace = true
                continue
            }
            // Bidirectional overrides can make a URL read differently from what it is.
            if (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) { continue }
            out.unicodeScalars.append(scalar)
            lastWasSpace = false
            count += 1
        }
        while out.hasSuffix(" ") { out.removeLast() }
        return count >= limit ? out + "…" : out
    }

    /// Consumes one escape sequence (ECMA-48: CSI, OSC, DCS and two-byte escapes).
    private static func skipEscape(
        after introducer: Unicode.Scalar, in scalars: inout String.UnicodeScalarView.Iterator
    ) {
        var kind = introducer == "\u{9B}" ? Unicode.Scalar("[") : scalars.next()
        switch kind {
        case "[":
            // CSI: parameters and intermediates up to a final byte in 0x40...0x7E.
            while let next = scalars.next() { if (0x40...0x7E).contains(next.value) { return } }
        case "]", "P", "X", "^", "_":
            // OSC, DCS, SOS, PM, APC: up to BEL or ST (ESC \).
            while let next = scalars.next() {
                if next == "\u{07}" || next == "\u{9C}" { return }
                if next == "\u{1B}" {
                    kind = scalars.next()
                    return
                }
            }
        default: return
        }
    }
}

extension DefaultStringInterpolation {
    /// Interpolates a file's path (or a label made of one) as `Sanitizer.shown` makes it safe
    /// to print, up to `Sanitizer.shownPathLength` characters.
    public mutating func appendInterpolation(shownPath value: some StringProtocol) {
        appendLiteral(Sanitizer.shown(value, limit: Sanitizer.shownPathLength))
    }

    /// Interpolates a value from the person, the config, the environment or a server as
    /// `Sanitizer.shown` makes it safe to print: `"cannot read '\(shown: path)'"`.
    public mutating func appendInterpolation(shown value: some StringProtocol, limit: Int = Sanitizer.shownLength) {
        appendLiteral(Sanitizer.shown(value, limit: limit))
    }
}
