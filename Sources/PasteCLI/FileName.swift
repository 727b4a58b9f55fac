import PasteCore

/// A file name as the person gave it (`-f NAME`, or a line of `-f -`'s list): the bytes argv or
/// stdin held, which need not be UTF-8 (issue 45, item 10).
///
/// Linux file names are bytes: a Latin-1 `caf\xe9.txt` exists and opens, but a `String` made
/// from it reads `caf\u{FFFD}.txt`, a name no file has. The bytes are kept from argv to
/// `open(2)`; messages show the name with each byte that is not UTF-8 as `\xNN`.
public struct FileName: Sendable, Equatable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name's bytes, as `open(2)` takes them.
    public var bytes: [UInt8]

    /// The name of these bytes.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// A name that is text already (a test's, the flush's).
    public init(_ text: String) { bytes = Array(text.utf8) }

    public init(stringLiteral text: String) { self.init(text) }

    /// `-f -`: read the names from stdin.
    static let standardInput: FileName = "-"

    /// The name as text when it is UTF-8 (nearly always), else nil.
    var text: String? { String(validating: bytes, as: UTF8.self) }

    /// The name as text with U+FFFD for each byte that is not UTF-8: what a service is told the
    /// file is called, and what its extension says of the language.
    var repaired: String { String(decoding: bytes, as: UTF8.self) }

    /// The name as messages show it: each byte that is not UTF-8 as `\xNN` (`caf\xe9.txt`).
    public var description: String {
        var shown = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                shown.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                position += encoded.count
            case .error(let length):
                for byte in bytes[position..<position + length] {
                    shown += "\\x" + String(repeating: "0", count: byte < 16 ? 1 : 0) + String(byte, radix: 16)
                }
                position += length
            case .emptyInput:
                return shown
            }
        }
    }
}
