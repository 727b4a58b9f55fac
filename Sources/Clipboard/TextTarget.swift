/// The text forms a selection can be converted to, in the order we prefer them.
///
/// ICCCM §2.6.2 and the freedesktop practice: `UTF8_STRING` (the de-facto standard), the MIME
/// name `text/plain;charset=utf-8` (GTK, Qt, browsers), `STRING` (ISO Latin-1, by ICCCM
/// definition), then `TEXT` (owner's choice of encoding) and `COMPOUND_TEXT` (ISO 2022).
enum TextTarget: String, CaseIterable, Sendable {
    case utf8String = "UTF8_STRING"
    case textPlainUTF8 = "text/plain;charset=utf-8"
    case string = "STRING"
    case text = "TEXT"
    case compoundText = "COMPOUND_TEXT"

    /// The best text target among `offered` (a `TARGETS` reply), with its exact offered spelling.
    static func preferred(among offered: [String]) -> (target: TextTarget, name: String)? {
        for target in allCases {
            // MIME parameters are case-insensitive: `charset=UTF-8` is the same thing.
            if let name = offered.first(where: { $0 == target.rawValue || $0.lowercased() == target.rawValue }) {
                return (target, name)
            }
        }
        return nil
    }

    /// Targets that describe the selection rather than hold its content; not worth naming in a
    /// "no text target" message.
    static let metaTargets: Set<String> = [
        "TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS", "DELETE", "INSERT_SELECTION", "INSERT_PROPERTY",
    ]
}

/// Text encodings met on the wire.
enum TextEncoding {
    /// ISO 8859-1 (what `STRING` holds) to UTF-8. ASCII, the common case, is returned unchanged.
    static func utf8(fromLatin1 bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                result.append(byte)
            } else {
                result.append(0xC0 | (byte >> 6))
                result.append(0x80 | (byte & 0x3F))
            }
        }
        return result
    }

    /// UTF-8 to ISO 8859-1 for `STRING` requestors, or nil when the text has characters beyond
    /// U+00FF (then we do not offer `STRING` at all, rather than send mojibake).
    static func latin1(fromUTF8 bytes: [UInt8]) -> [UInt8]? {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            guard scalar.value <= 0xFF else { return nil }
            result.append(UInt8(scalar.value))
        }
        return result
    }
}
