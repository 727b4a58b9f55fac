/// A regular expression over a server's answer, with the lookbehinds ShareX definitions use.
///
/// Swift's `Regex` (this toolchain: 6.3) refuses lookbehind (`(?<=…)`, `(?<!…)`: "lookbehind is
/// not currently supported"), yet .NET regexes in ShareX definitions use it to cut a URL out of
/// HTML: `(?<=href=").+?(?=")`. Lookbehinds at the start of a pattern (after inline options
/// such as `(?i)`) are run here instead: a position qualifies when every lookbehind holds
/// there, and the rest of the pattern, compiled by `Regex`, matches from it.
///
/// A positive lookbehind is checked by finding its body's matches, one per start position, in
/// order; a position is where one of them ends. That is exact for fixed-length bodies (the only
/// kind Python, PCRE and older JavaScript engines accept, so the kind portable definitions use);
/// for a variable-length body the engine's preferred match from each start is what counts. A
/// negative lookbehind is checked exactly. Lookbehind anywhere else, or a capture group inside
/// a lookbehind, is refused when the pattern is compiled (load time), never met at run time.
public struct TextPattern {
    /// The pattern as written.
    public let source: String
    /// The pattern after its leading lookbehinds, with the inline options.
    private let rest: Regex<AnyRegexOutput>
    /// Each leading lookbehind: its body alone (to find where it matches) and anchored at the
    /// end of the text (`(?:BODY)\z`, to check a position).
    private let lookbehinds: [(isPositive: Bool, body: Regex<AnyRegexOutput>, endingHere: Regex<AnyRegexOutput>)]

    /// Why a pattern cannot be used.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// `Regex` refused it (its own message).
        case invalid(String)
        /// A lookbehind somewhere other than the start.
        case lookbehindNotAtStart
        /// A capture group inside a lookbehind (its numbering could not be kept).
        case groupInLookbehind

        public var description: String {
            switch self {
            case .invalid(let reason): reason
            case .lookbehindNotAtStart: "a lookbehind is supported only at the start of the pattern"
            case .groupInLookbehind: "a capture group inside a lookbehind is not supported"
            }
        }
    }

    /// Compiles `source`.
    public init(_ source: String) throws(Problem) {
        self.source = source
        let scan = PatternScan(source)
        var behinds: [(Bool, Regex<AnyRegexOutput>, Regex<AnyRegexOutput>)] = []
        for lookbehind in scan.leadingLookbehinds {
            guard PatternScan(lookbehind.body).captureCount == 0 else { throw .groupInLookbehind }
            behinds.append(
                (
                    lookbehind.isPositive, try Self.compile(scan.options + "(?:" + lookbehind.body + ")"),
                    try Self.compile(scan.options + "(?:" + lookbehind.body + ")\\z")
                ))
        }
        guard !PatternScan(scan.rest).hasLookbehind else { throw .lookbehindNotAtStart }
        rest = try Self.compile(scan.options + scan.rest)
        lookbehinds = behinds
    }

    private static func compile(_ text: String) throws(Problem) -> Regex<AnyRegexOutput> {
        do {
            return try Regex(text)
        } catch {
            throw .invalid("\(error)")
        }
    }

    /// The first match in `text`, or nil.
    public func firstMatch(in text: String) -> Regex<AnyRegexOutput>.Match? {
        guard !lookbehinds.isEmpty else { return try? rest.firstMatch(in: text) }
        if let positive = lookbehinds.first(where: \.isPositive) {
            // Candidates: where the first positive lookbehind's body ends, start by start.
            var start = text.startIndex
            while start <= text.endIndex {
                guard let found = try? positive.body.firstMatch(in: text[start...]) else { return nil }
                let position = found.range.upperBound
                if holds(at: position, in: text), let match = try? rest.prefixMatch(in: text[position...]) {
                    return match
                }
                guard found.range.lowerBound < text.endIndex else { return nil }
                start = text.index(after: found.range.lowerBound)
            }
            return nil
        }
        // Only negative lookbehinds: candidates are where the rest matches.
        var start = text.startIndex
        while start <= text.endIndex {
            guard let match = try? rest.firstMatch(in: text[start...]) else { return nil }
            if holds(at: match.range.lowerBound, in: text) { return match }
            guard match.range.lowerBound < text.endIndex else { return nil }
            start = text.index(after: match.range.lowerBound)
        }
        return nil
    }

    /// Whether every lookbehind holds at `position`.
    private func holds(at position: String.Index, in text: String) -> Bool {
        lookbehinds.allSatisfy { lookbehind in
            let matches = (try? lookbehind.endingHere.firstMatch(in: text[..<position])) != nil
            return matches == lookbehind.isPositive
        }
    }

    /// How many capture groups the pattern has (named ones included).
    public var captureCount: Int { PatternScan(source).captureCount }
}

/// Which part of a match a rule takes.
public enum RegexGroup: Sendable, Equatable {
    /// The first capture group that took part in the match, or the whole match when the
    /// pattern has no group (the `regex:RE` rule and `{regex:RE}`).
    case firstParticipating
    /// The whole match (ShareX's `{regex:RE}`).
    case whole
    /// A group by number (0 is the whole match).
    case number(Int)
    /// A group by name.
    case name(String)
}

extension TextPattern {
    /// The text of `group` in the first match in `text`, or nil when nothing matches (or the
    /// group did not take part).
    public func capture(_ group: RegexGroup, in text: String) -> String? {
        guard let match = firstMatch(in: text) else { return nil }
        let output = match.output
        switch group {
        case .whole: return output[0].substring.map(String.init)
        case .firstParticipating:
            guard output.count > 1 else { return output[0].substring.map(String.init) }
            return (1..<output.count).lazy.compactMap { output[$0].substring }.first.map(String.init)
        case .number(let number):
            guard number >= 0, number < output.count else { return nil }
            return output[number].substring.map(String.init)
        case .name(let name):
            return output[name]?.substring.map(String.init)
        }
    }
}

/// A light scan of a regex's text: inline options at its start, leading lookbehinds, capture
/// groups. It skips escapes (`\(`) and character classes (`[(]`), which is all the structure
/// these questions need.
struct PatternScan {
    struct Lookbehind {
        var isPositive: Bool
        var body: String
    }

    /// Inline option groups at the very start (`(?i)`), kept for every piece.
    var options = ""
    var leadingLookbehinds: [Lookbehind] = []
    /// The pattern after the options and leading lookbehinds.
    var rest = ""
    var captureCount = 0
    var hasLookbehind = false

    init(_ pattern: String) {
        let characters = Array(pattern)
        var index = 0
        // Leading options `(?imsx-imsx)` and lookbehinds `(?<=…)` / `(?<!…)`.
        while index < characters.count, characters[index] == "(" {
            let head = String(characters[index..<min(characters.count, index + 4)])
            if head.hasPrefix("(?<=") || head.hasPrefix("(?<!") {
                guard let close = Self.closingParenthesis(characters, openedAt: index) else { break }
                leadingLookbehinds.append(
                    Lookbehind(isPositive: head.hasPrefix("(?<="), body: String(characters[(index + 4)..<close])))
                index = close + 1
            } else if characters.count > index + 2, characters[index + 1] == "?",
                let close = characters[(index + 2)...].firstIndex(of: ")"),
                close > index + 2,
                characters[(index + 2)..<close].allSatisfy({ "imnsxU-".contains($0) })
            {
                options += String(characters[index...close])
                index = close + 1
            } else {
                break
            }
        }
        rest = String(characters[index...])
        // Groups and lookbehinds over the whole pattern.
        var captureCount = 0
        var hasLookbehind = false
        Self.walkStructure(characters, from: 0) { position, character in
            guard character == "(" else { return true }
            let next = String(characters[(position + 1)..<min(characters.count, position + 4)])
            if !next.hasPrefix("?") {
                captureCount += 1
            } else if next.hasPrefix("?<=") || next.hasPrefix("?<!") {
                hasLookbehind = true
            } else if next.hasPrefix("?<") || next.hasPrefix("?'") || next.hasPrefix("?P<") {
                captureCount += 1
            }
            return true
        }
        self.captureCount = captureCount
        self.hasLookbehind = hasLookbehind
    }

    /// The index of the `)` that closes the `(` at `open`, skipping escapes and classes.
    static func closingParenthesis(_ characters: [Character], openedAt open: Int) -> Int? {
        var depth = 0
        var closing: Int?
        walkStructure(characters, from: open) { position, character in
            if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
                if depth == 0 {
                    closing = position
                    return false
                }
            }
            return true
        }
        return closing
    }

    /// Shows `visit` each character of `characters` from `start` on that is structure: not
    /// escaped (`\(`) and not inside a character class (`[(]`, escapes counted inside it too; a
    /// `]` right after `[` or `[^` is taken as a member, as .NET and PCRE read `[]a]`, though
    /// Swift's `Regex` then refuses the pattern with its own message). The one walk both
    /// questions above share; `visit` returns false to stop it.
    static func walkStructure(_ characters: [Character], from start: Int, _ visit: (Int, Character) -> Bool) {
        var position = start
        while position < characters.count {
            let character = characters[position]
            if character == "\\" {
                position += 2
                continue
            }
            if character == "[" {
                position += 1
                if position < characters.count, characters[position] == "^" { position += 1 }
                if position < characters.count, characters[position] == "]" { position += 1 }
                while position < characters.count, characters[position] != "]" {
                    position += characters[position] == "\\" ? 2 : 1
                }
                position += 1  // the `]` that closes the class
                continue
            }
            guard visit(position, character) else { return }
            position += 1
        }
    }
}
