/// A configuration text with holes, parsed once when the configuration is loaded.
///
/// Holes are filled when a request is built (`{content}`, `{title}`, `${env:TOKEN}`) or when
/// the answer is read (`{json:/key}`, `{header:Location}`). Every hole is known when the file is
/// read, so a typo (`{contents}`, `${evn:X}`) is a config error naming the line, never text
/// sent as written. ShareX definitions are parsed into the same parts (`ShareXSyntax`), so one
/// engine runs both, and a definition prints as a config section when every part it uses has a
/// config spelling.
///
/// The config spelling (paste-config(5), TEMPLATES):
///
///     {name} {name:fallback}     a placeholder: content, filename, title, lang, expiry, private;
///                                the fallback is itself a template ({title:{filename}})
///     ${env:NAME} ${file:PATH} ${cmd:COMMAND}    a secret (request side only)
///     {json:/pointer} {regex:RE} {xml:/path} {header:NAME} {body} {location} {url}
///                                a value from the answer (result side only)
///     {{                         a literal "{"
///
/// Anything else is literal text: a `{` that does not start a name followed by `}` or `:` (so
/// JSON's own braces need no escaping), and a `}` outside a hole.
public struct Template: Sendable, Equatable {
    /// The pieces, in order.
    public var parts: [Part]

    /// One piece of a template.
    public indirect enum Part: Sendable, Equatable {
        /// Text as it is.
        case literal(String)
        /// A value of the paste, or the fallback when the paste has none.
        case placeholder(Placeholder, fallback: Template?)
        /// A secret from the environment, a file or a command.
        case reference(Reference)
        /// A value from the server's answer.
        case answer(AnswerValue)
        /// One of the choices, at random (ShareX `{random:a|b}`).
        case random([Template])
        /// One of the choices, picked by the person in a window (ShareX `{select:a|b}`).
        case select([Template])
        /// Text the person types in a window (ShareX `{prompt:title|default}`).
        case prompt(title: Template, initial: Template)
        /// The base64 encoding of the text's UTF-8 (ShareX `{base64:user:password}`).
        case base64(Template)
    }

    /// Makes a template of parts; adjacent text is joined and empty text dropped, so equal
    /// templates have equal parts.
    public init(_ parts: [Part]) {
        var joined: [Part] = []
        for part in parts {
            if case .literal(let text) = part {
                if text.isEmpty { continue }
                if case .literal(let previous)? = joined.last {
                    joined[joined.count - 1] = .literal(previous + text)
                    continue
                }
            }
            joined.append(part)
        }
        self.parts = joined
    }

    /// A template that is just `text`.
    public init(literal text: String) { parts = text.isEmpty ? [] : [.literal(text)] }

    /// The text, when the template has no holes at all.
    public var literalText: String? {
        var text = ""
        for part in parts {
            guard case .literal(let piece) = part else { return nil }
            text += piece
        }
        return text
    }

    /// Every part, depth first, nested templates included.
    public var allParts: [Part] {
        parts.flatMap { part -> [Part] in
            switch part {
            case .literal, .reference: return [part]
            case .placeholder(_, let fallback): return [part] + (fallback?.allParts ?? [])
            case .answer(let value):
                switch value {
                case .json(_, let input?), .xml(_, let input?), .regex(_, _, let input?): return [part] + input.allParts
                default: return [part]
                }
            case .random(let choices), .select(let choices): return [part] + choices.flatMap(\.allParts)
            case .prompt(let title, let initial): return [part] + title.allParts + initial.allParts
            case .base64(let inner): return [part] + inner.allParts
            }
        }
    }

    /// Whether the template uses the placeholder anywhere (fallbacks included).
    public func uses(_ placeholder: Placeholder) -> Bool {
        allParts.contains { if case .placeholder(placeholder, _) = $0 { true } else { false } }
    }

    /// Whether the template reads a secret (`${env:…}`, `${file:…}`, `${cmd:…}`).
    public var hasReference: Bool {
        allParts.contains { if case .reference = $0 { true } else { false } }
    }

    /// Whether the template reads the answer's `Location` without following redirects.
    public var usesLocation: Bool {
        allParts.contains { $0 == .answer(.location) }
    }

    /// Whether the template reads anything from the answer.
    public var readsAnswer: Bool {
        allParts.contains { if case .answer = $0 { true } else { false } }
    }

    /// Whether the template is exactly `{content}` (a form field that carries the content).
    public var isContentAlone: Bool { parts == [.placeholder(.content, fallback: nil)] }
}

/// A value of the paste that a template can hold.
public enum Placeholder: String, Sendable, CaseIterable {
    /// The text being pasted (body templates only).
    case content
    /// The `-f` file's name, else `paste.txt`.
    case filename
    /// `-t TITLE`.
    case title
    /// `-l LANG`, or the language of the `-f` file's extension.
    case lang
    /// `-e DURATION` in the service's expiry unit.
    case expiry
    /// `true` with `-p`.
    case `private`

    /// The name `{filename}` stands for when the paste is not a file.
    public static let defaultFileName = "paste.txt"
}

/// A `${kind:argument}` reference to a secret.
public struct Reference: Sendable, Equatable {
    /// Where the secret comes from.
    public enum Kind: String, Sendable, CaseIterable {
        /// An environment variable.
        case env
        /// A file, `~/` for the home folder; trailing newlines dropped.
        case file
        /// What a command prints (see `CommandWords`); trailing newlines dropped.
        case cmd
    }

    public var kind: Kind
    public var argument: String

    public init(kind: Kind, argument: String) {
        self.kind = kind
        self.argument = argument
    }
}

/// A value read from the server's answer.
public enum AnswerValue: Sendable, Equatable {
    /// The body, surrounding white space trimmed.
    case body
    /// The URL of the last answer, after redirects.
    case url
    /// The `Location` header of the first answer; redirects are then not followed.
    case location
    /// A header of the last answer, by name (any case).
    case header(String)
    /// The value at an RFC 6901 pointer in a JSON body (or in `input`); numbers and booleans as
    /// written.
    case json(pointer: String, input: Template?)
    /// The value an XPath subset selects in an XML body (or in `input`).
    case xml(XMLPath, input: Template?)
    /// A group of the first match of a regular expression in the body (or in `input`).
    case regex(pattern: String, group: RegexGroup, input: Template?)
}

/// Why a template cannot be used: a config error at its line.
public enum TemplateProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// `{contents}`: no placeholder (or, in a result, answer value) of that name.
    case unknownName(String, use: Template.Use)
    /// `${evn:X}`: no reference of that kind.
    case unknownReference(String)
    /// A hole without its closing brace.
    case unclosed(String)
    /// A hole that has no meaning where it is written (`{json:/a}` in a request, `{content}`
    /// in a header, `${env:X}` in a result).
    case notAllowed(String, place: String)
    /// A hole whose argument is not of the right form.
    case badArgument(String, expected: String)
    /// A `{regex:…}` that does not compile.
    case badPattern(String, reason: String)
    /// A `${cmd:…}` whose words cannot be split.
    case badCommand(String, reason: String)

    public var description: String {
        switch self {
        case .unknownName(let name, let use):
            let known =
                switch use {
                case .request: Placeholder.allCases.map { "{\($0.rawValue)}" }
                case .result:
                    ["{json:/…}", "{regex:…}", "{xml:…}", "{header:…}", "{body}", "{location}", "{url}"]
                        + Placeholder.allCases.filter { $0 != .content }.map { "{\($0.rawValue)}" }
                }
            return "unknown placeholder {\(name)}; known: " + known.joined(separator: " ")
        case .unknownReference(let kind):
            return "unknown reference ${\(kind):…}; expected ${env:…}, ${file:…} or ${cmd:…}"
        case .unclosed(let start): return "'\(start)' is never closed with '}'"
        case .notAllowed(let hole, let place): return "\(hole) cannot be used \(place)"
        case .badArgument(let hole, let expected): return "\(hole) needs \(expected)"
        case .badPattern(let pattern, let reason): return "regular expression '\(pattern)' does not compile: \(reason)"
        case .badCommand(let command, let reason): return "command '\(command)' cannot be split into words: \(reason)"
        }
    }
}

// MARK: - The config spelling

extension Template {
    /// Which holes a template may hold.
    public enum Use: Sendable, Equatable {
        /// Filled when the request is built: placeholders and references.
        case request
        /// Filled from the answer: answer values and placeholders (not `{content}`).
        case result
    }

    /// Parses the config spelling.
    ///
    /// - Throws: `TemplateProblem` for an unknown or misplaced hole, an unclosed one, or an
    ///   argument that cannot be used (a regex that does not compile).
    public init(configText text: String, use: Use) throws(TemplateProblem) {
        var parser = ConfigTemplateParser(characters: Array(text), use: use)
        self = try parser.parse(isFallback: false)
    }

    /// The names a hole may have: placeholders, then answer values.
    public static let answerNames: Set<String> = ["json", "regex", "xml", "header", "body", "location", "url"]
}

private struct ConfigTemplateParser {
    let characters: [Character]
    let use: Template.Use
    var position = 0

    init(characters: [Character], use: Template.Use) {
        self.characters = characters
        self.use = use
    }

    /// Parses up to the end, or (in a fallback) up to the `}` that closes it.
    mutating func parse(isFallback: Bool) throws(TemplateProblem) -> Template {
        var parts: [Template.Part] = []
        var literal = ""
        func flush() {
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
        }
        while position < characters.count {
            let character = characters[position]
            if character == "}" && isFallback {
                flush()
                return Template(parts)
            }
            if character == "$", position + 1 < characters.count, characters[position + 1] == "{" {
                flush()
                parts.append(try parseReference())
                continue
            }
            if character == "{", position + 1 < characters.count, characters[position + 1] == "{" {
                literal += "{"
                position += 2
                continue
            }
            if character == "{", let name = holeName(at: position) {
                flush()
                parts.append(try parseHole(name))
                continue
            }
            literal.append(character)
            position += 1
        }
        if isFallback { throw .unclosed("{…:") }
        flush()
        return Template(parts)
    }

    /// The name of the hole that starts at `start` (a `{`): a letter, then letters, digits, `-`
    /// or `_`, then `}` or `:`. Nil when the brace is plain text (`{"a": 1}`, `{ x }`).
    func holeName(at start: Int) -> String? {
        var index = start + 1
        guard index < characters.count, characters[index].isLetter, characters[index].isASCII else { return nil }
        var name = ""
        while index < characters.count, characters[index].isASCII,
            characters[index].isLetter || characters[index].isNumber || characters[index] == "-"
                || characters[index] == "_"
        {
            name.append(characters[index])
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

// MARK: - Printing the config spelling

/// A part of a template that the config spelling cannot say (`--import-sxcu`).
public struct Inexpressible: Error, Sendable, Equatable {
    /// What it is, for the one-line message (`{prompt:…} (a window asking for text)`).
    public var feature: String
}

extension Template {
    /// The config spelling of the template.
    ///
    /// - Throws: `Inexpressible` naming the first part that has no config spelling.
    public func configText() throws(Inexpressible) -> String {
        try configText(isFallback: false)
    }

    private func configText(isFallback: Bool) throws(Inexpressible) -> String {
        var text = ""
        for (index, part) in parts.enumerated() {
            switch part {
            case .literal(let literal):
                text += try Self.configText(
                    ofLiteral: literal, followedBy: index + 1 < parts.count ? parts[index + 1] : nil,
                    isFallback: isFallback)
            case .placeholder(let placeholder, let fallback):
                text += "{" + placeholder.rawValue
                if let fallback { text += ":" + (try fallback.configText(isFallback: true)) }
                text += "}"
            case .reference(let reference):
                text += "${\(reference.kind.rawValue):\(reference.argument)}"
            case .answer(let value):
                text += try Self.configText(of: value)
            case .random: throw Inexpressible(feature: "{random:…} (a random choice)")
            case .select: throw Inexpressible(feature: "{select:…} (a choice in a window)")
            case .prompt: throw Inexpressible(feature: "{prompt:…} (a window asking for text)")
            case .base64: throw Inexpressible(feature: "{base64:…}")
            }
        }
        return text
    }

    /// The config spelling of literal text: a "{" that would start a hole (or "{{") is doubled.
    ///
    /// - Parameter next: the part after this text; every hole but a reference prints starting
    ///   with "{", so a trailing "$" before one would read as `${`.
    private static func configText(ofLiteral literal: String, followedBy next: Part?, isFallback: Bool)
        throws(Inexpressible) -> String
    {
        let characters = Array(literal)
        var nextText = ""
        switch next {
        case .literal(let following)?: nextText = following
        case nil, .reference?: break
        case _?: nextText = "{\u{0}"  // a hole: starts with "{", then nothing a name continues into
        }
        var text = ""
        for (offset, character) in characters.enumerated() {
            let after = String(characters[(offset + 1)...]) + nextText
            if character == "}" && isFallback {
                throw Inexpressible(feature: "a '}' in the fallback of a placeholder")
            }
            if character == "$" && after.hasPrefix("{") {
                throw Inexpressible(feature: "the literal text '${'")
            }
            if character == "{" {
                let probe = ConfigTemplateParser(characters: Array("{" + after), use: .result)
                if after.hasPrefix("{") || probe.holeName(at: 0) != nil {
                    text += "{{"
                    continue
                }
            }
            text.append(character)
        }
        return text
    }

    private static func configText(of value: AnswerValue) throws(Inexpressible) -> String {
        func balanced(_ argument: String, _ name: String) throws(Inexpressible) -> String {
            var depth = 0
            var escaped = false
            for character in argument {
                if escaped {
                    escaped = false
                    continue
                }
                if character == "\\" { escaped = true }
                if character == "{" { depth += 1 }
                if character == "}" {
                    depth -= 1
                    if depth < 0 { break }
                }
            }
            guard depth == 0 else { throw Inexpressible(feature: "{\(name):…} with unbalanced braces") }
            return argument
        }
        switch value {
        case .body: return "{body}"
        case .url: return "{url}"
        case .location: return "{location}"
        case .header(let name): return "{header:\(name)}"
        case .json(let pointer, let input):
            guard input == nil else { throw Inexpressible(feature: "{json:…} over text other than the answer") }
            return "{json:" + (try balanced(pointer, "json")) + "}"
        case .xml(let path, let input):
            guard input == nil else { throw Inexpressible(feature: "{xml:…} over text other than the answer") }
            return "{xml:" + (try balanced(path.source, "xml")) + "}"
        case .regex(let pattern, let group, let input):
            guard input == nil else { throw Inexpressible(feature: "{regex:…} over text other than the answer") }
            let captures = (try? TextPattern(pattern))?.captureCount ?? 0
            switch group {
            case .firstParticipating: break
            case .whole where captures == 0: break
            case .number(0) where captures == 0: break
            case .number(1) where captures == 1: break
            default:
                throw Inexpressible(feature: "{regex:…} taking a group other than the first of its pattern")
            }
            return "{regex:" + (try balanced(pattern, "regex")) + "}"
        }
    }
}

// MARK: - Filling without side effects

extension Template {
    /// The text with placeholders filled from `values` and every other hole standing in as
    /// `x`: for checking at load time what a template becomes (is a `json` template JSON once
    /// filled?), without reading a secret, running a command or asking anyone.
    public func sample(values: [Placeholder: String], rendering: Rendering) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal): text += literal
            case .placeholder(let placeholder, let fallback):
                text += rendering.escaping.apply(
                    values[placeholder] ?? fallback?.sample(values: values, rendering: .verbatim) ?? "")
            case .reference, .answer, .random, .select, .prompt, .base64:
                text += "x"
            }
        }
        return text
    }
}

// MARK: - Escaping

/// How values are written into the text around them.
public enum Escaping: Sendable, Equatable {
    /// As they are.
    case none
    /// Inside a JSON string (RFC 8259 section 7).
    case json
    /// Inside XML text or an attribute (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`).
    case xml
    /// Percent-encoded, every byte but RFC 3986's unreserved characters (for a URL).
    case percent

    /// `text` escaped this way.
    public func apply(_ text: String) -> String {
        switch self {
        case .none: return text
        case .json: return JSONText.escape(text)
        case .xml:
            var out = ""
            for character in text {
                switch character {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "'": out += "&apos;"
                default: out.append(character)
                }
            }
            return out
        case .percent: return Self.percentEncode(text)
        }
    }

    /// Every byte of the UTF-8 but `A-Z a-z 0-9 - . _ ~` as `%XX`.
    public static func percentEncode(_ text: String, keepingSpaceAsPlus: Bool = false) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: " ") where keepingSpaceAsPlus:
                out.append(UInt8(ascii: "+"))
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Which values of a template are escaped, and how.
public struct Rendering: Sendable, Equatable {
    /// How escaped values are written.
    public var escaping: Escaping
    /// Whether `${…}` secrets are escaped (in bodies, not in URLs: `url = ${env:PASTE_URL}`).
    public var escapesReferences: Bool
    /// Whether computed values (`{random:…}`, `{prompt:…}`, answer values) are escaped.
    public var escapesComputed: Bool

    /// Headers, form fields, file names: nothing escaped.
    public static let verbatim = Rendering(escaping: .none, escapesReferences: false, escapesComputed: false)
    /// A URL: placeholder values percent-encoded (a title may hold `&` or `/`).
    public static let url = Rendering(escaping: .percent, escapesReferences: false, escapesComputed: false)
    /// A JSON body: every value JSON-escaped.
    public static let json = Rendering(escaping: .json, escapesReferences: true, escapesComputed: true)
    /// An XML body: every value XML-escaped.
    public static let xml = Rendering(escaping: .xml, escapesReferences: true, escapesComputed: true)
}
