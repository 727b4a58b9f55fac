/// Line breaking and ellipsis for text of any width, URLs included.
///
/// Lines break at spaces; a word wider than the line (a long URL) breaks between any two
/// characters (grapheme clusters), since a URL has no spaces and must be shown whole.
enum TextWrapping {
    /// The ellipsis appended to cut text.
    static let ellipsis = "…"

    /// Breaks `text` into lines no wider than `maxWidth`, at most `maxLines` of them.
    ///
    /// Newlines in `text` start new lines; when more lines would be needed, the last one kept
    /// ends in an ellipsis.
    static func lines(
        _ text: String, maxWidth: Int, maxLines: Int = .max, measure: (String) -> Int
    ) -> [String] {
        guard maxLines > 0 else { return [] }
        var result: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            result += wrapParagraph(String(paragraph), maxWidth: maxWidth, measure: measure)
        }
        guard result.count > maxLines else { return result }
        var kept = Array(result.prefix(maxLines))
        kept[maxLines - 1] = ellipsized(kept[maxLines - 1], maxWidth: maxWidth, force: true, measure: measure)
        return kept
    }

    private static func wrapParagraph(_ paragraph: String, maxWidth: Int, measure: (String) -> Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in paragraph.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if measure(candidate) <= maxWidth {
                current = candidate
                continue
            }
            if !current.isEmpty {
                lines.append(current)
                current = ""
            }
            if measure(word) <= maxWidth {
                current = word
            } else {
                var pieces = breakAnywhere(word, maxWidth: maxWidth, measure: measure)
                current = pieces.removeLast()
                lines += pieces
            }
        }
        lines.append(current)
        return lines
    }

    /// Splits `word` into pieces no wider than `maxWidth`, each at least one character.
    static func breakAnywhere(_ word: String, maxWidth: Int, measure: (String) -> Int) -> [String] {
        var pieces: [String] = []
        var current = ""
        for character in word {
            let candidate = current + String(character)
            if !current.isEmpty, measure(candidate) > maxWidth {
                pieces.append(current)
                current = String(character)
            } else {
                current = candidate
            }
        }
        pieces.append(current)
        return pieces
    }

    /// `text` if it fits in `maxWidth`, else its longest prefix that fits followed by "…".
    ///
    /// With `force`, the ellipsis is added even when the text fits (it was cut elsewhere).
    static func ellipsized(_ text: String, maxWidth: Int, force: Bool = false, measure: (String) -> Int) -> String {
        if !force, measure(text) <= maxWidth { return text }
        var kept = Substring(text)
        while !kept.isEmpty, measure(kept + ellipsis) > maxWidth {
            kept = kept.dropLast()
        }
        // Drop a trailing space so the ellipsis sits on the last word.
        while kept.last == " " { kept = kept.dropLast() }
        return kept + ellipsis
    }

    /// `text` safe to draw: tabs become spaces; control characters and bidirectional overrides
    /// (which could disguise a URL) become U+FFFD; newlines survive only when `keepsNewlines`.
    static func sanitized(_ text: String, keepsNewlines: Bool = false) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepsNewlines: result.append(scalar)
            case 0x09: result.append(" ")
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                result.append("\u{FFFD}")
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
