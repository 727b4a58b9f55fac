/// Parses a template's config spelling into its parts (`Template(configText:use:)`).
struct ConfigTemplateParser {
    let characters: [Character]
    let use: Template.Use
    var position = 0

    init(characters: [Character], use: Template.Use) {
        self.characters = characters
        self.use = use
    }

    /// Where a template being parsed ends.
    enum End {
        /// At the end of the text.
        case text
        /// At the `}` that closes a placeholder's fallback (left unread).
        case fallback
        /// At the `|` or `}` after an argument of a function (`{random:a|b}`), left unread;
        /// a `\` in it makes the next character text (`\|`, `\}`, `\\`).
        case argument
    }

    /// Parses up to the end, or (in a fallback) up to the `}` that closes it.
    mutating func parse(isFallback: Bool) throws(TemplateProblem) -> Template {
        try parse(until: isFallback ? .fallback : .text)
    }

    /// Parses up to `end`.
    mutating func parse(until end: End) throws(TemplateProblem) -> Template {
        var template = Template.Builder()
        while position < characters.count {
            let character = characters[position]
            if end == .argument && character == "\\" && position + 1 < characters.count {
                template.appendLiteral(characters[position + 1])
                position += 2
                continue
            }
            if (character == "}" && end != .text) || (character == "|" && end == .argument) {
                return template.finish()
            }
            if character == "$", position + 1 < characters.count, characters[position + 1] == "{" {
                template.append(try parseReference())
                continue
            }
            if character == "{", position + 1 < characters.count, characters[position + 1] == "{" {
                template.appendLiteral("{")
                position += 2
                continue
            }
            if character == "{", let name = holeName(at: position) {
                template.append(try parseHole(name))
                continue
            }
            template.appendLiteral(character)
            position += 1
        }
        if end != .text { throw .unclosed("{…:") }
        return template.finish()
    }

    /// The name of the hole that starts at `start` (a `{`): a letter, then letters, digits, `-`
    /// or `_`, then `}` or `:`. Nil when the brace is plain text (`{"a": 1}`, `{ x }`).
    ///
    /// PERF(hotkey): by ASCII values, not `Character.isLetter`/`isNumber` (Unicode tables for
    /// each character, 4,800 instructions a brace, 43 braces in the built-in services' templates
    /// parsed on every run). The same test: an ASCII character is a letter or a number exactly
    /// when it is `A`–`Z`, `a`–`z` or `0`–`9`.
    func holeName(at start: Int) -> String? {
        func ascii(_ index: Int) -> UInt8? { index < characters.count ? characters[index].asciiValue : nil }
        func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }
        var index = start + 1
        guard let first = ascii(index), isLetter(first) else { return nil }
        var name = ""
        while let byte = ascii(index),
            isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
        {
            name.unicodeScalars.append(Unicode.Scalar(byte))
            index += 1
        }
        guard index < characters.count, characters[index] == "}" || characters[index] == ":" else { return nil }
        return name
    }

    mutating func parseReference() throws(TemplateProblem) -> Template.Part {
        let start = position
        position += 2
        guard let close = characters[position...].firstIndex(of: "}") else {
            throw .unclosed(String(characters[start..<min(characters.count, start + 8)]))
        }
        let inside = String(characters[position..<close])
        position = close + 1
        guard let colon = inside.firstIndex(of: ":"), let kind = Reference.Kind(rawValue: String(inside[..<colon]))
        else {
            throw .unknownReference(String(inside.prefix { $0 != ":" }))
        }
        let argument = String(inside[inside.index(after: colon)...])
        guard use == .request else {
            throw .notAllowed("${\(kind.rawValue):…}", place: "in a result (a secret would be shown)")
        }
        guard !argument.isEmpty else { throw .badArgument("${\(kind.rawValue):…}", expected: "something after ':'") }
        if kind == .cmd {
            do {
                _ = try CommandWords.split(argument)
            } catch {
                throw .badCommand(argument, reason: error.description)
            }
        }
        return .reference(Reference(kind: kind, argument: argument))
    }

    mutating func parseHole(_ name: String) throws(TemplateProblem) -> Template.Part {
        position += 1 + name.count
        let hasArgument = characters[position] == ":"
        position += 1  // past ':' or '}'
        if let placeholder = Placeholder(rawValue: name) {
            if placeholder == .content && use == .result {
                throw .notAllowed("{content}", place: "in a result")
            }
            let fallback = hasArgument ? try parse(isFallback: true) : nil
            if hasArgument { position += 1 }  // past the closing '}'
            return .placeholder(placeholder, fallback: fallback)
        }
        if Template.functionNames.contains(name) { return try parseFunction(name, hasArgument: hasArgument) }
        guard Template.answerNames.contains(name) else { throw .unknownName(name, use: use) }
        guard use == .result else { throw .notAllowed("{\(name)…}", place: "in a request (it reads the answer)") }
        let argument = hasArgument ? try rawArgument(of: name) : nil
        switch name {
        case "body", "url", "location":
            guard argument == nil else { throw .badArgument("{\(name)}", expected: "no argument") }
            return .answer(name == "body" ? .body : name == "url" ? .url : .location)
        case "header":
            guard let argument, !argument.isEmpty, !argument.contains(" ") else {
                throw .badArgument("{header:…}", expected: "a header name")
            }
            return .answer(.header(argument))
        case "json":
            guard let argument, argument.hasPrefix("/") else {
                throw .badArgument("{json:…}", expected: "a JSON pointer such as /data/url")
            }
            return .answer(.json(pointer: argument, input: nil))
        case "xml":
            guard let argument, let path = try? XMLPath(argument) else {
                throw .badArgument("{xml:…}", expected: "a path such as /files/file[1]/url")
            }
            return .answer(.xml(path, input: nil))
        case "regex-group":
            guard let argument else {
                throw .badArgument(
                    "{regex-group:…}", expected: "a group and a regular expression, as {regex-group:2:RE}")
            }
            let (group, pattern) = try Self.regexGroup(argument)
            do {
                _ = try TextPattern(pattern)
            } catch {
                throw .badPattern(pattern, reason: error.description)
            }
            return .answer(.regex(pattern: pattern, group: group, input: nil))
        default:
            guard let argument, !argument.isEmpty else {
                throw .badArgument("{regex:…}", expected: "a regular expression")
            }
            do {
                _ = try TextPattern(argument)
            } catch {
                throw .badPattern(argument, reason: error.description)
            }
            return .answer(.regex(pattern: argument, group: .firstParticipating, input: nil))
        }
    }

    /// The text up to the `}` that closes the hole: braces inside must balance (a regex's
    /// `{2,3}`), and a backslash keeps the next character from counting (`\}`).
    mutating func rawArgument(of name: String) throws(TemplateProblem) -> String {
        var depth = 0
        var text = ""
        while position < characters.count {
            let character = characters[position]
            position += 1
            if character == "\\", position < characters.count {
                text.append(character)
                text.append(characters[position])
                position += 1
                continue
            }
            if character == "{" { depth += 1 }
            if character == "}" {
                if depth == 0 { return text }
                depth -= 1
            }
            text.append(character)
        }
        throw .unclosed("{\(name):")
    }
}
