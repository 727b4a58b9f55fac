/// Makes what a server sent safe to print on a terminal or put on the clipboard.
///
/// A server is not trusted: its URL could carry escape sequences that rewrite the terminal, or a
/// `javascript:` scheme that runs when clicked. URLs are validated strictly; error bodies are
/// stripped of escapes and control characters and cut short.
public enum Sanitizer {
    /// The longest URL accepted from a server (browsers handle more; pastebins never need it).
    public static let maximumURLLength = 2_048
    /// How much of an error body is shown.
    public static let excerptLength = 160

    /// Why a URL from a server was refused.
    public enum URLProblem: Error, Sendable, Equatable {
        case notHTTP(scheme: String)
        case tooLong(Int)
        case controlCharacters
        case whitespace
        case noHost
    }

    /// Validates a URL from a server: http(s), a host, no whitespace or control characters,
    /// bounded length. Surrounding white space (a trailing newline) is trimmed first.
    public static func validateURL(_ raw: String) -> Result<String, URLProblem> {
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
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace }) { return .failure(.whitespace) }
        if text.utf8.count > maximumURLLength { return .failure(.tooLong(text.utf8.count)) }
        let lower = text.lowercased()
        let scheme = lower.firstIndex(of: ":").map { String(lower[..<$0]) } ?? ""
        guard scheme == "http" || scheme == "https" else { return .failure(.notHTTP(scheme: scheme)) }
        let afterScheme = lower.dropFirst(scheme.count + 1)
        guard afterScheme.hasPrefix("//"), let hostStart = afterScheme.dropFirst(2).first, hostStart != "/" else {
            return .failure(.noHost)
        }
        return .success(String(text))
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
