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
        case .xml: return Self.substituting(Self.xmlEntities, in: text)
        case .percent: return Self.percentEncode(text)
        }
    }

    /// XML's five predefined entities (XML 1.0 §4.6), for text and attributes alike.
    static let xmlEntities: [Character: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;",
    ]

    /// `text` with each character found in `replacements` written as its replacement: the one
    /// loop behind the escapers that replace single characters (XML's entities, the config
    /// file's quoted values).
    package static func substituting(_ replacements: [Character: String], in text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            if let replacement = replacements[character] {
                out += replacement
            } else {
                out.append(character)
            }
        }
        return out
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
