extension Template {
    /// The config spelling of the template.
    ///
    /// - Throws: `Inexpressible` naming the first part that has no config spelling.
    public func configText() throws(Inexpressible) -> String {
        try configText(in: .text)
    }

    private func configText(in end: ConfigTemplateParser.End) throws(Inexpressible) -> String {
        var text = ""
        for (index, part) in parts.enumerated() {
            switch part {
            case .literal(let literal):
                text += try Self.configText(
                    ofLiteral: literal, followedBy: index + 1 < parts.count ? parts[index + 1] : nil, in: end)
            case .placeholder(let placeholder, let fallback):
                text += "{" + placeholder.rawValue
                if let fallback { text += ":" + (try fallback.configText(in: .fallback)) }
                text += "}"
            case .reference(let reference):
                text += "${\(reference.kind.rawValue):\(reference.argument)}"
            case .answer(let value):
                text += try Self.configText(of: value)
            case .random(let choices): text += try Self.function("random", choices)
            case .select(let choices): text += try Self.function("select", choices)
            case .prompt(let title, let initial):
                text += try Self.function("prompt", initial.parts.isEmpty ? [title] : [title, initial])
            case .base64(let inner): text += try Self.function("base64", [inner])
            }
        }
        return text
    }

    /// `{name:A|B…}`, each argument spelled as `ConfigTemplateParser.parseFunction` reads it.
    private static func function(_ name: String, _ arguments: [Template]) throws(Inexpressible) -> String {
        var texts: [String] = []
        for argument in arguments { texts.append(try argument.configText(in: .argument)) }
        return "{\(name):" + texts.joined(separator: "|") + "}"
    }

    /// The config spelling of literal text: a "{" that would start a hole (or "{{") is doubled.
    ///
    /// - Parameter next: the part after this text; every hole but a reference prints starting
    ///   with "{", so a trailing "$" before one would read as `${`.
    private static func configText(ofLiteral literal: String, followedBy next: Part?, in end: ConfigTemplateParser.End)
        throws(Inexpressible) -> String
    {
        let characters = Array(literal)
        var nextText = ""
        switch next {
        case .literal(let following)?: nextText = following
        // The end of a fallback or an argument is read as "}" follows it.
        case nil: nextText = end == .text ? "" : "}"
        case .reference?: break
        case _?: nextText = "{\u{0}"  // a hole: starts with "{", then nothing a name continues into
        }
        var text = ""
        for (offset, character) in characters.enumerated() {
            let after = String(characters[(offset + 1)...]) + nextText
            if end == .argument && (character == "\\" || character == "|" || character == "}") {
                text += "\\" + String(character)
                continue
            }
            if end == .argument && character == "$" && after.hasPrefix("{") {
                text += "\\$"
                continue
            }
            if character == "}" && end == .fallback {
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
            let chosen: String
            switch group {
            case .firstParticipating: return "{regex:" + (try balanced(pattern, "regex")) + "}"
            case .whole where captures == 0, .number(0) where captures == 0, .number(1) where captures == 1:
                return "{regex:" + (try balanced(pattern, "regex")) + "}"
            case .whole: chosen = "0"
            case .number(let number): chosen = String(number)
            case .name(let name):
                guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                    throw Inexpressible(feature: "{regex:…} taking the group named '\(name)'")
                }
                chosen = name
            }
            return "{regex-group:" + chosen + ":" + (try balanced(pattern, "regex-group")) + "}"
        }
    }
}
