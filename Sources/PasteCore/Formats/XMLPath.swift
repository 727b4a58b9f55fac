/// The XPath subset ShareX definitions use to read a URL out of an XML answer
/// (`{xml:/files/file[1]/url}`), over a small XML reader.
///
/// Paths: steps separated by `/` (from the document) or `//` (any depth); a step is an element
/// name or `*`, optionally with a 1-based position (`file[2]`), or, as the last step, `@name`
/// (an attribute) or `text()`. A relative path starts at the document too, as .NET's
/// `SelectSingleNode` on a document does. The value is that of the first node found in
/// document order: an element's text is all the text inside it. Names are compared without
/// their namespace prefix. Anything else in a path is refused when the definition is loaded.
public struct XMLPath: Sendable, Equatable {
    /// The path as written.
    public let source: String
    private let steps: [Step]
    private let target: Target

    private struct Step: Sendable, Equatable {
        var isDescendant: Bool
        /// nil for `*`.
        var name: String?
        var position: Int?
    }

    private enum Target: Sendable, Equatable {
        case element
        case attribute(String)
        case text
    }

    /// Why a path is not in the subset.
    public struct Unsupported: Error, Sendable, Equatable {
        /// The step that could not be read.
        public var step: String
    }

    /// Parses `source`.
    public init(_ source: String) throws(Unsupported) {
        self.source = source
        var steps: [Step] = []
        var target = Target.element
        var rest = Substring(source.trimmingSpaces())
        if !rest.hasPrefix("/") { rest = "/" + rest }
        while !rest.isEmpty {
            guard target == .element else { throw Unsupported(step: String(rest)) }
            var isDescendant = false
            if rest.hasPrefix("//") {
                isDescendant = true
                rest = rest.dropFirst(2)
            } else if rest.hasPrefix("/") {
                rest = rest.dropFirst()
            } else {
                throw Unsupported(step: String(rest))
            }
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            let text = String(rest[..<end])
            rest = rest[end...]
            if text == "text()" {
                target = .text
                continue
            }
            if text.hasPrefix("@") {
                let name = String(text.dropFirst())
                guard Self.isName(name) else { throw Unsupported(step: text) }
                target = .attribute(name)
                continue
            }
            var name = Substring(text)
            var position: Int?
            if let open = text.firstIndex(of: "["), text.hasSuffix("]") {
                name = text[..<open]
                guard let number = Int(text[text.index(after: open)..<text.index(before: text.endIndex)]), number >= 1
                else { throw Unsupported(step: text) }
                position = number
            }
            guard name == "*" || Self.isName(String(name)) else { throw Unsupported(step: text) }
            steps.append(
                Step(
                    isDescendant: isDescendant, name: name == "*" ? nil : Self.localName(String(name)),
                    position: position))
        }
        guard !steps.isEmpty || target != .element else { throw Unsupported(step: source) }
        self.steps = steps
        self.target = target
    }

    private static func isName(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || "_-.:".contains($0) }
    }

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    /// The value the path selects in `xml`, or nil when the text is not XML or nothing matches.
    public func value(in xml: String) -> String? {
        guard let document = XMLElement.parseDocument(xml) else { return nil }
        var nodes = [document]
        for step in steps {
            var next: [XMLElement] = []
            for node in nodes {
                // `//name[2]` is the second `name` child of any parent, as in XPath.
                for parent in step.isDescendant ? [node] + node.descendants : [node] {
                    var matching = parent.elements.filter { step.name == nil || Self.localName($0.name) == step.name }
                    if let position = step.position {
                        matching = matching.indices.contains(position - 1) ? [matching[position - 1]] : []
                    }
                    next += matching
                }
            }
            nodes = next
        }
        guard let first = nodes.first else { return nil }
        switch target {
        case .element: return first.text
        case .text: return first.directText
        case .attribute(let name):
            for node in nodes {
                if let value = node.attributes.first(where: { Self.localName($0.name) == name })?.value { return value }
            }
            return nil
        }
    }
}

/// An element of a parsed XML document (only what XMLPath reads).
final class XMLElement {
    let name: String
    var attributes: [(name: String, value: String)] = []
    /// Children in order: elements and text runs.
    var children: [Child] = []

    enum Child {
        case element(XMLElement)
        case text(String)
    }

    init(name: String) { self.name = name }

    var elements: [XMLElement] {
        children.compactMap { if case .element(let element) = $0 { return element } else { return nil } }
    }

    /// Every element below this one, in document order.
    var descendants: [XMLElement] {
        elements.flatMap { [$0] + $0.descendants }
    }

    /// All the text inside, at any depth (XPath's string value of an element).
    var text: String {
        children.map {
            switch $0 {
            case .text(let text): text
            case .element(let element): element.text
            }
        }.joined()
    }

    /// The text directly inside (`text()`), the first run.
    var directText: String? {
        for child in children { if case .text(let text) = child { return text } }
        return nil
    }

    /// The deepest nesting read: a hostile answer cannot exhaust the stack.
    static let maximumDepth = 256

    /// Parses a document; returns a nameless root whose one element child is the document
    /// element, or nil when the text is not well-formed enough to read.
    static func parseDocument(_ xml: String) -> XMLElement? {
        var reader = Reader(characters: Array(xml.unicodeScalars))
        let root = XMLElement(name: "")
        guard reader.parseContent(into: root, depth: 0), reader.isAtEnd, root.elements.count == 1 else { return nil }
        return root
    }

    private struct Reader {
        let characters: [Unicode.Scalar]
        var position = 0

        var isAtEnd: Bool { position >= characters.count }

        func starts(with text: String) -> Bool {
            var index = position
            for scalar in text.unicodeScalars {
                guard index < characters.count, characters[index] == scalar else { return false }
                index += 1
            }
            return true
        }

        mutating func skip(past text: String) -> Bool {
            while !isAtEnd {
                if starts(with: text) {
                    position += text.unicodeScalars.count
                    return true
                }
                position += 1
            }
            return false
        }

        /// Reads children until the end of input (document) or a closing tag (left unread).
        mutating func parseContent(into parent: XMLElement, depth: Int) -> Bool {
            guard depth < XMLElement.maximumDepth else { return false }
            var text = ""
            func flush() {
                if !text.isEmpty {
                    if parent.name.isEmpty {
                        // Outside the document element only white space is allowed.
                        if !text.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
                            parent.children.append(.text(text))
                        }
                    } else {
                        parent.children.append(.text(text))
                    }
                    text = ""
                }
            }
            while !isAtEnd {
                if starts(with: "</") {
                    flush()
                    return !parent.name.isEmpty
                } else if starts(with: "<!--") {
                    guard skip(past: "-->") else { return false }
                } else if starts(with: "<![CDATA[") {
                    position += 9
                    let start = position
                    guard skip(past: "]]>") else { return false }
                    text += String(String.UnicodeScalarView(characters[start..<(position - 3)]))
                } else if starts(with: "<?") {
                    guard skip(past: "?>") else { return false }
                } else if starts(with: "<!") {
                    guard skipDeclaration() else { return false }
                } else if characters[position] == "<" {
                    flush()
                    guard let element = parseElement(depth: depth) else { return false }
                    parent.children.append(.element(element))
                } else if characters[position] == "&" {
                    guard let decoded = parseEntity() else { return false }
                    text += decoded
                } else {
                    text.unicodeScalars.append(characters[position])
                    position += 1
                }
            }
            flush()
            return parent.name.isEmpty
        }

        /// `<!DOCTYPE …>`, with an internal subset in brackets.
        mutating func skipDeclaration() -> Bool {
            var depth = 0
            while !isAtEnd {
                let scalar = characters[position]
                position += 1
                if scalar == "[" { depth += 1 }
                if scalar == "]" { depth -= 1 }
                if scalar == ">" && depth <= 0 { return true }
            }
            return false
        }

        mutating func parseName() -> String? {
            let start = position
            while !isAtEnd {
                let scalar = characters[position]
                if scalar.properties.isWhitespace || "/>=".unicodeScalars.contains(scalar) { break }
                position += 1
            }
            return position > start ? String(String.UnicodeScalarView(characters[start..<position])) : nil
        }

        mutating func skipSpace() {
            while !isAtEnd, characters[position].properties.isWhitespace { position += 1 }
        }

        mutating func parseElement(depth: Int) -> XMLElement? {
            position += 1
            guard let name = parseName() else { return nil }
            let element = XMLElement(name: name)
            while true {
                skipSpace()
                guard !isAtEnd else { return nil }
                if starts(with: "/>") {
                    position += 2
                    return element
                }
                if characters[position] == ">" {
                    position += 1
                    break
                }
                guard let attribute = parseName() else { return nil }
                skipSpace()
                guard !isAtEnd, characters[position] == "=" else { return nil }
                position += 1
                skipSpace()
                guard !isAtEnd, characters[position] == "\"" || characters[position] == "'" else { return nil }
                let quote = characters[position]
                position += 1
                var value = ""
                while !isAtEnd, characters[position] != quote {
                    if characters[position] == "&" {
                        guard let decoded = parseEntity() else { return nil }
                        value += decoded
                    } else {
                        value.unicodeScalars.append(characters[position])
                        position += 1
                    }
                }
                guard !isAtEnd else { return nil }
                position += 1
                element.attributes.append((attribute, value))
            }
            guard parseContent(into: element, depth: depth + 1), starts(with: "</") else { return nil }
            position += 2
            guard parseName() == name else { return nil }
            skipSpace()
            guard !isAtEnd, characters[position] == ">" else { return nil }
            position += 1
            return element
        }

        /// `&lt;` and the other four, `&#N;`, `&#xN;`.
        mutating func parseEntity() -> String? {
            guard let end = characters[position...].prefix(12).firstIndex(of: ";") else { return nil }
            let name = String(String.UnicodeScalarView(characters[(position + 1)..<end]))
            position = end + 1
            switch name {
            case "lt": return "<"
            case "gt": return ">"
            case "amp": return "&"
            case "quot": return "\""
            case "apos": return "'"
            default:
                let number: UInt32? =
                    name.hasPrefix("#x") || name.hasPrefix("#X")
                    ? UInt32(name.dropFirst(2), radix: 16) : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
                return number.flatMap(Unicode.Scalar.init).map { String($0) }
            }
        }
    }
}
