/// `application/x-www-form-urlencoded` bodies, as the WHATWG URL standard serialises them.
enum FormEncoding {
    /// Encodes name/value pairs: `a=1&b=x+y`. Bytes outside `*-._0-9A-Za-z` become `%XX`
    /// (UTF-8), and a space becomes `+` (WHATWG "application/x-www-form-urlencoded serializer").
    static func encode(_ pairs: [(name: String, value: String)]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            append(pair.name, to: &out)
            out.append(UInt8(ascii: "="))
            append(pair.value, to: &out)
        }
        return out
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func append(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"),
                UInt8(ascii: "."), UInt8(ascii: "_"):
                out.append(byte)
            case UInt8(ascii: " "):
                out.append(UInt8(ascii: "+"))
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }
}
