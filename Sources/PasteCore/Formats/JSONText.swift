import FoundationEssentials

/// JSON string escaping and a small JSON value, without Foundation's serialization.
public enum JSONText {
    /// The text as the inside of a JSON string (no surrounding quotes), per RFC 8259 §7.
    ///
    /// PERF(hotkey): text with nothing to escape (a URL, a digest, a service name, most
    /// previews) is returned as it is after one pass over its UTF-8 bytes; the scalar loop below
    /// was 117,000 instructions for the seven strings of one history line (callgrind).
    public static func escape(_ text: String) -> String {
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Appends the escape of UTF-8 bytes as the inside of a JSON string, as `escape` writes
    /// their text: only ASCII is ever escaped, so bytes can be escaped chunk by chunk wherever a
    /// stream happens to split (a multi-byte character split between two chunks passes through
    /// unchanged). The bytes must be UTF-8 (`UTF8Validator`); others would pass through as well.
    public static func appendEscaped(_ chunk: Span<UInt8>, to output: inout [UInt8]) {
        output.reserveCapacity(output.count + chunk.count + chunk.count / 8 + 16)
        for index in chunk.indices {
            let byte = chunk[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                output.append(byte)
                continue
            }
            output.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
            case 0x0A: output.append(UInt8(ascii: "n"))
            case 0x0D: output.append(UInt8(ascii: "r"))
            case 0x09: output.append(UInt8(ascii: "t"))
            case 0x08: output.append(UInt8(ascii: "b"))
            case 0x0C: output.append(UInt8(ascii: "f"))
            default:
                let digits = Array("0123456789abcdef".utf8)
                output += [UInt8(ascii: "u"), 0x30, 0x30, digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
    }

    /// The text as a quoted JSON string.
    public static func quote(_ text: String) -> String { "\"" + escape(text) + "\"" }

    /// `time` in ISO 8601 UTC, whole seconds (`2025-01-31T12:00:00Z`; the fraction dropped, as
    /// `JSONEncoder`'s `.iso8601` does), computed here: Foundation's formatters load calendar
    /// and time zone data first, which showed on the hotkey path.
    public static func timestamp(_ time: Date) -> String {
        let seconds = Int64((time.timeIntervalSince1970).rounded(.down))
        let (days, secondOfDay) = (seconds.quotientAndRemainder(dividingBy: 86_400))
        let (day, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        // Days since 1970-01-01 to a civil date (Howard Hinnant's days_from_civil, inverted).
        let shifted = day + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : String(value) }
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-" + two(month) + "-"
            + two(dayOfMonth) + "T" + two(second / 3600) + ":" + two(second / 60 % 60) + ":" + two(second % 60) + "Z"
    }
}
