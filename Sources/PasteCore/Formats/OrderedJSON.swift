/// A JSON document that keeps what `JSONDecoder` loses: the order of an object's members and
/// the exact text of numbers. The one JSON tree of paste (answers, PrivateBin's, `.sxcu` files).
///
/// ShareX definitions are JSON objects whose member order is the order of form fields, query
/// parameters and headers on the wire; answers carry ids such as `1234567890123456789` that a
/// `Double` would round. Parsed by hand (RFC 8259), with the line of the first error, so a bad
/// `.sxcu` file is reported where it is bad.
public indirect enum OrderedJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number, as written.
    case number(String)
    case string(String)
    case array([OrderedJSON])
    /// Members in document order (a repeated name keeps every occurrence; lookups take the last,
    /// as most parsers do).
    case object([(name: String, value: OrderedJSON)])

    /// Why a text is not JSON.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The 1-based line of the problem.
        public var line: Int
        /// What was expected there.
        public var expected: String
        public var description: String { "line \(line): expected \(expected)" }
    }

    /// The deepest nesting accepted: a hostile answer cannot exhaust the stack.
    static let maximumDepth = 512

    /// Parses a whole document (white space around it allowed, nothing else).
    public init(parsing bytes: [UInt8]) throws(SyntaxError) {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.failure("the end of the document") }
        self = value
    }

    /// Parses a whole document given as text.
    public init(parsing text: String) throws(SyntaxError) {
        try self.init(parsing: Array(text.utf8))
    }

    public static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.name) == b.map(\.name) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }

    /// The member named `name` (the last one, when repeated).
    public subscript(name: String) -> OrderedJSON? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.name == name }?.value
    }

    /// The member whose name matches `name` ignoring ASCII case (ShareX reads its files so).
    public func member(caseInsensitive name: String) -> OrderedJSON? {
        guard case .object(let members) = self else { return nil }
        let wanted = name.lowercased()
        return members.last { $0.name.lowercased() == wanted }?.value
    }

    /// The value at an RFC 6901 pointer (`/files/0/link`, `~1` and `~0` escapes).
    public func value(at pointer: String) -> OrderedJSON? {
        guard let tokens = JSONPointer.tokens(pointer) else { return nil }
        var current = self
        for token in tokens {
            switch current {
            case .object:
                guard let next = current[token] else { return nil }
                current = next
            case .array(let items):
                guard let index = JSONPointer.index(token, count: items.count) else { return nil }
                current = items[index]
            default: return nil
            }
        }
        return current
    }

    /// The value as text for a URL or a message: a string as it is, a number as written,
    /// `true`/`false`; nil for null, arrays and objects.
    public var scalarText: String? {
        switch self {
        case .string(let text): text
        case .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }

    /// The string value, if this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    // MARK: - Parsing

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func failure(_ expected: String) -> SyntaxError {
            let line = 1 + bytes[..<min(position, bytes.count)].reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
            return SyntaxError(line: line, expected: expected)
        }

        mutating func skipWhitespace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func expect(_ literal: String) -> Bool {
            let word = Array(literal.utf8)
            guard bytes.count - position >= word.count, Array(bytes[position..<position + word.count]) == word else {
                return false
            }
            position += word.count
            return true
        }

        mutating func parseValue(depth: Int) throws(SyntaxError) -> OrderedJSON {
            guard depth < OrderedJSON.maximumDepth else { throw failure("less nesting") }
            guard position < bytes.count else { throw failure("a value") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth)
            case UInt8(ascii: "["): return try parseArray(depth: depth)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"):
                if expect("true") { return .bool(true) }
            case UInt8(ascii: "f"):
                if expect("false") { return .bool(false) }
            case UInt8(ascii: "n"):
                if expect("null") { return .null }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return .number(try parseNumber())
            default: break
            }
            throw failure("a value")
        }

        mutating func parseObject(depth: Int) throws(SyntaxError) -> OrderedJSON {
            position += 1
            var members: [(name: String, value: OrderedJSON)] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw failure("a member name in double quotes")
                }
                let name = try parseString()
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw failure("':'") }
                position += 1
                skipWhitespace()
                members.append((name, try parseValue(depth: depth + 1)))
                skipWhitespace()
                guard position < bytes.count else { throw failure("',' or '}'") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "}") else { throw failure("',' or '}'") }
                position += 1
                return .object(members)
            }
        }

        mutating func parseArray(depth: Int) throws(SyntaxError) -> OrderedJSON {
            position += 1
            var items: [OrderedJSON] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(items)
            }
            while true {
                skipWhitespace()
                items.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard position < bytes.count else { throw failure("',' or ']'") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "]") else { throw failure("',' or ']'") }
                position += 1
                return .array(items)
            }
        }

        mutating func parseNumber() throws(SyntaxError) -> String {
            let start = position
            func digits() -> Int {
                let first = position
                while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                    position += 1
                }
                return position - first
            }
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            let integerStart = position
            guard digits() > 0 else { throw failure("a digit") }
            if bytes[integerStart] == UInt8(ascii: "0") && position - integerStart > 1 {
                position = integerStart + 1
                throw failure("no leading zero")
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard digits() > 0 else { throw failure("a digit after '.'") }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
                {
                    position += 1
                }
                guard digits() > 0 else { throw failure("a digit in the exponent") }
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        mutating func parseString() throws(SyntaxError) -> String {
            position += 1
            var scalars = String.UnicodeScalarView()
            var runStart = position
            func flushRun() {
                if runStart < position {
                    scalars.append(
                        contentsOf: String(decoding: bytes[runStart..<position], as: UTF8.self).unicodeScalars)
                }
            }
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    flushRun()
                    position += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw failure("no control character inside a string") }
                if byte != UInt8(ascii: "\\") {
                    position += 1
                    continue
                }
                flushRun()
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hexQuad()
                    // A surrogate pair spells one scalar beyond the BMP (RFC 8259 section 7).
                    if (0xD800...0xDBFF).contains(code), expect("\\u") {
                        let low = try hexQuad()
                        if (0xDC00...0xDFFF).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            scalars.append("\u{FFFD}")
                            code = low
                        }
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: throw failure("a valid escape after '\\'")
                }
                runStart = position
            }
            throw failure("'\"' to close the string")
        }

        mutating func hexQuad() throws(SyntaxError) -> UInt32 {
            guard bytes.count - position >= 4 else { throw failure("four hex digits after '\\u'") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = Character(Unicode.Scalar(bytes[position])).hexDigitValue else {
                    throw failure("four hex digits after '\\u'")
                }
                value = value * 16 + UInt32(digit)
                position += 1
            }
            return value
        }
    }
}
