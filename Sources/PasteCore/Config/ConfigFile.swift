/// A parsed configuration file: git-config style sections of `key = value` lines.
///
/// Grammar (documented in paste-config(5)):
///
///     file     = *(line "\n")
///     line     = blank | comment | section | entry
///     comment  = ("#" | ";") text
///     section  = "[" name [ space '"' subsection '"' ] "]" [comment]
///     entry    = key [ "=" value ]
///     value    = quoted | bare          ; bare ends at " #" or " ;" (an inline comment)
///     quoted   = '"' *(char | "\\" ("\"" | "\\" | "n" | "t")) '"'
///
/// A bare value keeps inner spaces and quotes (so JSON templates need no escaping); a trailing
/// backslash joins the next line. Section and key names are case-insensitive, subsections are not.
public struct ConfigFile: Sendable, Equatable {
    /// One `key = value` line, with where it came from.
    public struct Entry: Sendable, Equatable {
        /// The section name, lowercased (`paste`, `service`).
        public var section: String
        /// The quoted subsection (`pastie` in `[service "pastie"]`), if any.
        public var subsection: String?
        /// The key, lowercased.
        public var key: String
        /// The value after unquoting, before `${…}` expansion.
        public var value: String
        /// The 1-based line the entry starts on.
        public var line: Int
    }

    /// A section header and the line it was declared on.
    public struct Section: Sendable, Equatable {
        public var name: String
        public var subsection: String?
        public var line: Int
    }

    /// The file's path, for messages.
    public var path: String
    /// Every entry, in file order.
    public var entries: [Entry]
    /// Every section header, in file order.
    public var sections: [Section]

    /// Parses configuration text.
    ///
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - path: the file's path, used in error messages.
    /// - Throws: `ConfigError.syntax` naming the line and what was expected.
    public init(parsing text: String, path: String) throws(ConfigError) {
        self.path = path
        entries = []
        sections = []
        var current: Section?
        let physical = text.split(separator: "\n", omittingEmptySubsequences: false)
        var index = 0
        while index < physical.count {
            let lineNumber = index + 1
            var line = String(physical[index])
            index += 1
            // A trailing backslash continues the logical line on the next physical one.
            while line.hasSuffix("\\") && index < physical.count {
                line.removeLast()
                line += String(physical[index]).trimmingSpaces()
                index += 1
            }
            if line.hasSuffix("\r") { line.removeLast() }
            let trimmed = line.trimmingSpaces()
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            if trimmed.hasPrefix("[") {
                let section = try Self.parseSection(trimmed, path: path, line: lineNumber)
                sections.append(section)
                current = section
                continue
            }
            guard let section = current else {
                throw .syntax(path: path, line: lineNumber, expected: "a [section] before 'key = value'")
            }
            let (key, value) = try Self.parseEntry(trimmed, path: path, line: lineNumber)
            entries.append(
                Entry(
                    section: section.name, subsection: section.subsection, key: key, value: value,
                    line: lineNumber))
        }
    }

    /// Parses `[name]` or `[name "sub"]`.
    private static func parseSection(_ text: String, path: String, line: Int) throws(ConfigError)
        -> Section
    {
        guard let close = text.lastIndex(of: "]") else {
            throw .syntax(path: path, line: line, expected: "']' to close the section header")
        }
        let after = text[text.index(after: close)...].trimmingSpaces()
        if !after.isEmpty && !after.hasPrefix("#") && !after.hasPrefix(";") {
            throw .syntax(path: path, line: line, expected: "nothing after ']' but a comment")
        }
        let inside = text[text.index(after: text.startIndex)..<close].trimmingSpaces()
        var name = inside
        var subsection: String?
        if let quote = inside.firstIndex(of: "\"") {
            name = inside[..<quote].trimmingSpaces()
            let rest = inside[quote...]
            guard rest.count >= 2, rest.hasSuffix("\"") else {
                throw .syntax(path: path, line: line, expected: "a closing '\"' after the subsection name")
            }
            subsection = String(rest.dropFirst().dropLast())
                .replacingAll("\\\"", with: "\"").replacingAll("\\\\", with: "\\")
            if subsection?.isEmpty == true {
                throw .syntax(path: path, line: line, expected: "a non-empty name between the quotes")
            }
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }) else {
            throw .syntax(path: path, line: line, expected: "a section name of letters, digits and '-'")
        }
        return Section(name: name.lowercased(), subsection: subsection, line: line)
    }

    /// Parses `key = value` (or a bare `key`, which means `true`).
    private static func parseEntry(_ text: String, path: String, line: Int) throws(ConfigError)
        -> (String, String)
    {
        let key: String
        var rawValue: Substring
        if let equals = text.firstIndex(of: "=") {
            key = text[..<equals].trimmingSpaces()
            rawValue = text[text.index(after: equals)...]
        } else {
            key = stripInlineComment(Substring(text)).trimmingSpaces()
            rawValue = "true"
        }
        guard !key.isEmpty, key.first!.isLetter,
            key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
        else {
            throw .syntax(path: path, line: line, expected: "'key = value' with a key of letters, digits and '-'")
        }
        rawValue = Substring(rawValue.trimmingSpaces())
        let value: String
        if rawValue.hasPrefix("\"") {
            value = try unquote(rawValue, path: path, line: line)
        } else {
            value = stripInlineComment(rawValue).trimmingSpaces()
        }
        return (key.lowercased(), value)
    }

    /// Removes an inline comment: `#` or `;` that starts the value or follows white space.
    private static func stripInlineComment(_ text: Substring) -> Substring {
        var previous: Character = " "
        for index in text.indices {
            let character = text[index]
            if (character == "#" || character == ";") && (previous == " " || previous == "\t") {
                return text[..<index]
            }
            previous = character
        }
        return text
    }

    /// Decodes a double-quoted value; only a comment may follow the closing quote.
    private static func unquote(_ text: Substring, path: String, line: Int) throws(ConfigError) -> String {
        var result = ""
        var iterator = text.dropFirst().makeIterator()
        while let character = iterator.next() {
            switch character {
            case "\"":
                let rest = String(iterator.map { $0 }).trimmingSpaces()
                if !rest.isEmpty && !rest.hasPrefix("#") && !rest.hasPrefix(";") {
                    throw .syntax(path: path, line: line, expected: "nothing after the closing quote but a comment")
                }
                return result
            case "\\":
                switch iterator.next() {
                case "\"": result.append("\"")
                case "\\": result.append("\\")
                case "n": result.append("\n")
                case "t": result.append("\t")
                default:
                    throw .syntax(path: path, line: line, expected: "an escape of \\\" \\\\ \\n or \\t")
                }
            default: result.append(character)
            }
        }
        throw .syntax(path: path, line: line, expected: "a closing '\"'")
    }
}
