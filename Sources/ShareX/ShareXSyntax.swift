import PasteCore

/// The two template syntaxes of ShareX custom uploaders, parsed into `Template` parts.
///
/// Read from ShareX's own source (ShareX.UploadersLib/CustomUploader): `ShareXSyntaxParser`
/// and its functions for definitions newer than 13.7.1, and the older `CustomUploaderParser`
/// (`$name:arg$`, `RegexList`) for 12.4 to 13.7.1, which ShareX migrates on load.
///
/// Current syntax: `{name}` or `{name:param|param…}`; parameters may hold functions;
/// `\` makes the next character literal. Legacy syntax: `$name$` or `$name:value$` between
/// dollar signs, `\` escaping, no nesting; `$regex:N|G$` names group G of the N-th expression of
/// `RegexList`. Functions: `input`, `filename`, `random`, `select`, `prompt` (`inputbox`),
/// `base64`, and when reading the answer `response`, `responseurl`, `header`, `json` (a
/// JSONPath subset), `xml` (an XPath subset), `regex`.
///
/// Where paste differs: a stray `}` or `|` outside a function is text (ShareX stops reading
/// there); `{response}` is trimmed of surrounding white space; an unknown function is an error
/// when the file is loaded (ShareX yields nothing or fails at upload time); `{outputbox:…}` is
/// not supported.
///
/// `package`: the ShareX fuzzer (Fuzz/sharex) parses with it directly.
package enum ShareXSyntax {
    /// Where a template is used: a request part, or a result read from the answer.
    package enum Side {
        case request
        case answer
    }

    /// What a parse needs to know besides the text.
    package struct Setting {
        var file: String
        /// The definition's key, for messages (`URL`, `Arguments.text`).
        var key: String
        var side: Side
        var isLegacy: Bool
        /// The legacy `RegexList`.
        var regexList: [String] = []

        package init(file: String, key: String, side: Side, isLegacy: Bool, regexList: [String] = []) {
            self.file = file
            self.key = key
            self.side = side
            self.isLegacy = isLegacy
            self.regexList = regexList
        }
    }

    // MARK: - Current syntax

    /// Parses a value in the current `{…}` syntax.
    package static func parse(_ text: String, _ setting: Setting) throws(ShareXError) -> Template {
        if setting.isLegacy { return try parseLegacy(text, setting) }
        // ShareX reads `$response$` in a definition newer than 13.7.1 as those ten characters,
        // which makes a link that leads nowhere: refused, naming the construct.
        if let construct = legacyConstruct(in: text) {
            throw .badSyntax(
                file: setting.file, key: setting.key,
                reason: "'\(construct)' is the syntax of ShareX up to 13.7.1, but the file's Version is newer; "
                    + "write it in braces ('{\(construct.dropFirst().dropLast())}'), or give Version 13.7.1")
        }
        var parser = CurrentParser(characters: Array(text), setting: setting)
        return try parser.parseTopLevel()
    }

    private struct CurrentParser {
        let characters: [Character]
        let setting: Setting
        var position = 0

        init(characters: [Character], setting: Setting) {
            self.characters = characters
            self.setting = setting
        }

        mutating func parseTopLevel() throws(ShareXError) -> Template {
            try parseSequence(isParameter: false)
        }

        /// The characters a backslash escapes in ShareX's syntax.
        static let syntaxCharacters: Set<Character> = ["{", "}", "|", "\\", ":"]

        /// Reads text and functions up to the end, or (in a parameter) up to the `}` or `|`
        /// that ends it, which is left unread.
        ///
        /// - Parameter keepsRegexEscapes: in a `{regex:…}` parameter, a backslash before a
        ///   character that is not ShareX syntax stays (`\s`, `\d`, `\.`): ShareX's escaping
        ///   would read `\s` as `s`, and a regex written by hand would silently match something
        ///   else (issue 40, item 5). `\\s`, as ShareX wants it, still reads `\s`.
        mutating func parseSequence(isParameter: Bool, keepsRegexEscapes: Bool = false) throws(ShareXError)
            -> Template
        {
            var template = Template.Builder()
            while position < characters.count {
                let character = characters[position]
                if character == "\\" {
                    position += 1
                    if position < characters.count {
                        let escaped = characters[position]
                        if keepsRegexEscapes && !Self.syntaxCharacters.contains(escaped) {
                            template.appendLiteral("\\")
                        }
                        template.appendLiteral(escaped)
                    }
                    position += 1
                    continue
                }
                if isParameter && (character == "}" || character == "|") { break }
                if character == "{" {
                    position += 1
                    template.append(try parseFunction())
                    continue
                }
                template.appendLiteral(character)
                position += 1
            }
            return template.finish()
        }

        /// Reads a function after its `{`, through its closing `}`.
        mutating func parseFunction() throws(ShareXError) -> Template.Part {
            var name = ""
            var parameters: [Template] = []
            while position < characters.count {
                let character = characters[position]
                if character == "\\" {
                    position += 1
                    if position < characters.count { name.append(characters[position]) }
                    position += 1
                    continue
                }
                if character == "}" {
                    position += 1
                    return try ShareXSyntax.function(name, parameters, setting)
                }
                if character == ":" {
                    position += 1
                    let isRegex = name.lowercased() == "regex"
                    while true {
                        // Every parameter of a regex: its pattern is the first or (after an
                        // input) the second; a group's name or number holds no backslash.
                        parameters.append(try parseSequence(isParameter: true, keepsRegexEscapes: isRegex))
                        guard position < characters.count else { break }
                        if characters[position] == "|" {
                            position += 1
                            continue
                        }
                        position += 1  // the closing "}"
                        return try ShareXSyntax.function(name, parameters, setting)
                    }
                    break
                }
                if character == "{" {
                    throw .badSyntax(file: setting.file, key: setting.key, reason: "'{' inside a function name")
                }
                name.append(character)
                position += 1
            }
            throw .badSyntax(file: setting.file, key: setting.key, reason: "'{\(name)' is never closed with '}'")
        }
    }

    // MARK: - Legacy syntax

    /// The functions of the legacy syntax, by name (lower case).
    static let legacyFunctionNames: Set<String> = [
        "input", "filename", "random", "select", "prompt", "inputbox", "base64", "response", "responseurl", "header",
        "json", "xml", "regex",
    ]

    /// The first `$name$` or `$name:…$` in `text` whose name is a legacy function, as written.
    static func legacyConstruct(in text: String) -> String? {
        var rest = Substring(text)
        while let start = rest.firstIndex(of: "$") {
            let after = rest[rest.index(after: start)...]
            guard let end = after.firstIndex(of: "$") else { return nil }
            let inside = after[..<end]
            let name = inside.prefix { $0 != ":" }
            if legacyFunctionNames.contains(name.lowercased()) { return String(rest[start...end]) }
            rest = after
        }
        return nil
    }

    /// Parses a value in the legacy `$…$` syntax (ShareX 12.4 to 13.7.1).
    static func parseLegacy(_ text: String, _ setting: Setting) throws(ShareXError) -> Template {
        var template = Template.Builder()
        var syntax = ""
        var isInSyntax = false
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            if character == "\\" {
                if let next = iterator.next() {
                    if isInSyntax { syntax.append(next) } else { template.appendLiteral(next) }
                }
                continue
            }
            if character == "$" {
                if isInSyntax {
                    if !syntax.isEmpty { template.append(try legacyFunction(syntax, setting)) }
                    syntax = ""
                }
                isInSyntax.toggle()
                continue
            }
            if isInSyntax { syntax.append(character) } else { template.appendLiteral(character) }
        }
        if isInSyntax {
            throw .badSyntax(file: setting.file, key: setting.key, reason: "'$\(syntax)' is never closed with '$'")
        }
        return template.finish()
    }

    /// One `$name:value$`: the value is split at `|` where the function takes several
    /// parameters (random, select, prompt, regex) and kept whole otherwise (json, header, base64).
    private static func legacyFunction(_ syntax: String, _ setting: Setting) throws(ShareXError) -> Template.Part {
        let name: String
        let value: String?
        if let colon = syntax.firstIndex(of: ":") {
            name = String(syntax[..<colon])
            value = String(syntax[syntax.index(after: colon)...])
        } else {
            name = syntax
            value = nil
        }
        let lower = name.lowercased()
        if lower == "regex" {
            guard setting.side == .answer else { throw answerOnly("regex", setting) }
            return try legacyRegex(value ?? "", setting)
        }
        let splits = ["random", "select", "prompt", "inputbox"].contains(lower)
        let parameters: [Template] =
            value.map { text in
                (splits ? text.split(separator: "|", omittingEmptySubsequences: false).map(String.init) : [text])
                    .map { Template(literal: $0) }
            } ?? []
        return try function(name, parameters, setting)
    }

    /// `$regex:N$`, `$regex:N|G$` or `$regex:N,G$`: group G (number or name; the whole match
    /// without one) of the match of `RegexList[N-1]`.
    private static func legacyRegex(_ value: String, _ setting: Setting) throws(ShareXError) -> Template.Part {
        let digits = value.prefix { $0.isASCII && $0.isNumber }
        guard let index = Int(digits), index >= 1, index <= setting.regexList.count else {
            throw .badSyntax(
                file: setting.file, key: setting.key,
                reason: "$regex:\(value)$ names no expression of RegexList (it has \(setting.regexList.count))")
        }
        let rest = value.dropFirst(digits.count)
        var group = RegexGroup.whole
        if let separator = rest.first, separator == "|" || separator == ",", rest.count > 1 {
            let name = String(rest.dropFirst())
            group = Int(name).map { .number($0) } ?? .name(name)
        }
        let pattern = setting.regexList[index - 1]
        try checkPattern(pattern, setting)
        return .answer(.regex(pattern: pattern, group: simplest(group, pattern), input: nil))
    }

    // MARK: - Functions

    private static func answerOnly(_ name: String, _ setting: Setting) -> ShareXError {
        .badSyntax(
            file: setting.file, key: setting.key, reason: "{\(name)} reads the answer; it cannot be used in a request")
    }

    /// The part for a call of function `name` with `parameters`.
    static func function(_ name: String, _ parameters: [Template], _ setting: Setting) throws(ShareXError)
        -> Template.Part
    {
        let lower = name.lowercased()
        func literal(_ index: Int, _ what: String) throws(ShareXError) -> String {
            guard index < parameters.count, let text = parameters[index].literalText, !text.isEmpty else {
                throw .badSyntax(
                    file: setting.file, key: setting.key, reason: "{\(lower):…} needs \(what) written as plain text")
            }
            return text
        }
        func atLeast(_ count: Int) throws(ShareXError) {
            guard parameters.count >= count else {
                throw .badSyntax(
                    file: setting.file, key: setting.key,
                    reason: "{\(lower)} needs at least \(count) parameter\(count == 1 ? "" : "s")")
            }
        }
        switch lower {
        case "input":
            guard setting.side == .request else {
                throw .badSyntax(
                    file: setting.file, key: setting.key, reason: "{input} is not known when the answer is read")
            }
            return .placeholder(.content, fallback: nil)
        case "filename":
            return .placeholder(.filename, fallback: nil)
        case "random":
            try atLeast(2)
            return .random(parameters)
        case "select":
            try atLeast(1)
            return .select(parameters)
        case "prompt", "inputbox":
            let title = parameters.first ?? Template(literal: setting.isLegacy ? "ShareX - Prompt" : "Input")
            return .prompt(title: title, initial: parameters.count > 1 ? parameters[1] : Template([]))
        case "base64":
            try atLeast(1)
            return .base64(parameters[0])
        case "response", "responseurl", "header", "json", "xml", "regex":
            guard setting.side == .answer else { throw answerOnly(lower, setting) }
        default:
            throw .unknownFunction(file: setting.file, key: setting.key, name: name)
        }
        switch lower {
        case "response": return .answer(.body)
        case "responseurl": return .answer(.url)
        case "header": return .answer(.header(try literal(0, "a header name")))
        case "json":
            try atLeast(1)
            let path = try literal(parameters.count > 1 ? 1 : 0, "a JSON path")
            let input = parameters.count > 1 ? parameters[0] : nil
            return .answer(.json(pointer: try jsonPointer(fromPath: path, setting), input: input))
        case "xml":
            try atLeast(1)
            let source = try literal(parameters.count > 1 ? 1 : 0, "an XPath")
            let path: XMLPath
            do {
                path = try XMLPath(source)
            } catch {
                throw .badSyntax(
                    file: setting.file, key: setting.key,
                    reason: "XPath '\(source)' is outside the supported subset (at '\(error.step)')")
            }
            return .answer(.xml(path, input: parameters.count > 1 ? parameters[0] : nil))
        default:
            // {regex:pattern}, {regex:pattern|group}, {regex:input|pattern|group}
            try atLeast(1)
            let hasInput = parameters.count > 2
            let pattern = try literal(hasInput ? 1 : 0, "a pattern")
            try checkPattern(pattern, setting)
            var group = RegexGroup.whole
            let groupIndex = hasInput ? 2 : 1
            if groupIndex < parameters.count, let name = parameters[groupIndex].literalText, !name.isEmpty {
                group = Int(name).map { .number($0) } ?? .name(name)
            }
            return .answer(
                .regex(pattern: pattern, group: simplest(group, pattern), input: hasInput ? parameters[0] : nil))
        }
    }

    /// The group as `.firstParticipating` when that takes the same text (the whole match of a
    /// pattern without groups, group 1 of a pattern with one): the form the config spelling
    /// `{regex:RE}` has, so such a definition prints as a section.
    static func simplest(_ group: RegexGroup, _ pattern: String) -> RegexGroup {
        let captures = (try? TextPattern(pattern))?.captureCount ?? -1
        switch group {
        case .whole where captures == 0, .number(0) where captures == 0, .number(1) where captures == 1:
            return .firstParticipating
        case .number(0):
            return .whole
        default:
            return group
        }
    }

    private static func checkPattern(_ pattern: String, _ setting: Setting) throws(ShareXError) {
        do {
            _ = try TextPattern(pattern)
        } catch {
            throw .badRegex(file: setting.file, key: setting.key, pattern: pattern, reason: error.description)
        }
    }

    /// ShareX's JSONPath (Json.NET `SelectToken`) as an RFC 6901 pointer, for the subset real
    /// definitions use: `a.b`, `$.a.b[0]`, `a['b c']`, `files[0].url`. Wildcards, recursive
    /// descent, filters and slices are refused.
    static func jsonPointer(fromPath path: String, _ setting: Setting) throws(ShareXError) -> String {
        func unsupported(_ why: String) -> ShareXError {
            .badSyntax(file: setting.file, key: setting.key, reason: "JSON path '\(path)': \(why)")
        }
        var text = Substring(path)
        if path.contains("..") { throw unsupported("recursive descent (..) is not supported") }
        // ShareX puts "$." in front of a path that does not start with it.
        if text.hasPrefix("$.") {
            text = text.dropFirst(2)
        } else if text == "$" {
            return ""
        }
        var tokens: [String] = []
        var expectsName = true
        while !text.isEmpty {
            if text.hasPrefix("..") { throw unsupported("recursive descent (..) is not supported") }
            if text.hasPrefix(".") {
                text = text.dropFirst()
                expectsName = true
                continue
            }
            if text.hasPrefix("[") {
                guard let close = text.firstIndex(of: "]") else { throw unsupported("'[' is never closed") }
                let inside = text[text.index(after: text.startIndex)..<close]
                text = text[text.index(after: close)...]
                if inside.count >= 2, let quote = inside.first, quote == "'" || quote == "\"", inside.last == quote {
                    tokens.append(String(inside.dropFirst().dropLast()))
                } else if let index = Int(inside), index >= 0 {
                    tokens.append(String(index))
                } else {
                    throw unsupported("'[\(inside)]' is not supported (only [N] and ['name'])")
                }
                expectsName = false
                continue
            }
            guard expectsName else { throw unsupported("expected '.' or '[' before '\(text)'") }
            let end = text.firstIndex { $0 == "." || $0 == "[" } ?? text.endIndex
            let name = String(text[..<end])
            if name == "*" || name.contains("?") || name.contains("(") {
                throw unsupported("'\(name)' is not supported (no wildcards or filters)")
            }
            tokens.append(name)
            text = text[end...]
            expectsName = false
        }
        guard !tokens.isEmpty else { throw unsupported("it names nothing") }
        return tokens.map { "/" + $0.replacingAll("~", with: "~0").replacingAll("/", with: "~1") }.joined()
    }

    // MARK: - Data bodies

    /// A JSON or XML `Data` template. In the current syntax ShareX replaces only `{input}` and
    /// `{filename}` there (any case) and leaves everything else as written; the legacy syntax
    /// parses every `$function$`. Either way every value is escaped for the body (`Rendering`).
    package static func parseData(_ text: String, _ setting: Setting) throws(ShareXError) -> Template {
        if setting.isLegacy { return try parseLegacy(text, setting) }
        var template = Template.Builder()
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            template.appendLiteral(rest[..<open])
            let after = rest[open...]
            let lower = after.prefix(10).lowercased()
            if lower.hasPrefix("{input}") {
                template.append(.placeholder(.content, fallback: nil))
                rest = after.dropFirst(7)
            } else if lower.hasPrefix("{filename}") {
                template.append(.placeholder(.filename, fallback: nil))
                rest = after.dropFirst(10)
            } else {
                template.appendLiteral("{")
                rest = after.dropFirst()
            }
        }
        template.appendLiteral(rest)
        return template.finish()
    }
}
