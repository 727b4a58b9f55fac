import PasteCore

/// Byte-level reading helpers for the secret scanner's checks: classes, runs, literals and
/// decoders over a `Span<UInt8>`, with every index checked against the span.
enum SecretText {
    // MARK: - Classes

    @inline(__always) static func ascii(_ character: Unicode.Scalar) -> UInt8 {
        UInt8(truncatingIfNeeded: character.value)
    }
    @inline(__always) static func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5a }
    @inline(__always) static func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7a }
    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    @inline(__always) static func isLetter(_ byte: UInt8) -> Bool { isUpper(byte) || isLower(byte) }
    @inline(__always) static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
    /// Letters, digits and `_`: what identifiers are made of.
    @inline(__always) static func isWord(_ byte: UInt8) -> Bool { isAlphanumeric(byte) || byte == 0x5f }
    /// What key names are made of: identifier characters, `-` and `.` (`db.password`, `api-key`).
    @inline(__always) static func isKey(_ byte: UInt8) -> Bool {
        isWord(byte) || byte == 0x2d || byte == 0x2e
    }
    @inline(__always) static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }
    @inline(__always) static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d
    }
    @inline(__always) static func isQuote(_ byte: UInt8) -> Bool {
        byte == 0x22 || byte == 0x27 || byte == 0x60
    }
    @inline(__always) static func lowercased(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte + 32 : byte }

    // MARK: - Reading

    /// Whether `literal` occurs in `text` at `index`.
    static func has(_ text: Span<UInt8>, at index: Int, _ literal: String, ignoringCase: Bool = false) -> Bool {
        guard index >= 0 else { return false }
        var offset = index
        for byte in literal.utf8 {
            guard offset < text.count else { return false }
            let here = text[offset]
            guard here == byte || (ignoringCase && lowercased(here) == lowercased(byte)) else { return false }
            offset += 1
        }
        return true
    }

    /// Whether the bytes of `literal` occur in `text` at `index`.
    static func has(_ text: Span<UInt8>, at index: Int, _ literal: [UInt8], ignoringCase: Bool) -> Bool {
        guard index >= 0, index + literal.count <= text.count else { return false }
        for offset in 0..<literal.count {
            let here = text[index + offset]
            let wanted = literal[offset]
            guard here == wanted || (ignoringCase && lowercased(here) == lowercased(wanted)) else { return false }
        }
        return true
    }

    /// How many bytes from `index` belong to `set`, counting at most `max`.
    static func run(_ text: Span<UInt8>, from index: Int, max: Int, _ set: SecretAlphabet) -> Int {
        var end = index
        while end < text.count && end - index < max && set.contains(text[end]) { end += 1 }
        return end - index
    }

    /// How many bytes before `index` belong to `set`, counting at most `max`.
    static func runBackwards(_ text: Span<UInt8>, before index: Int, max: Int, _ set: SecretAlphabet) -> Int {
        var start = index
        while start > 0 && index - start < max && set.contains(text[start - 1]) { start -= 1 }
        return index - start
    }

    /// The first position of `literal` in `from..<to`, or nil.
    static func find(_ text: Span<UInt8>, _ literal: String, from: Int, to: Int, ignoringCase: Bool = false) -> Int? {
        guard let first = literal.utf8.first else { return from }
        var position = max(from, 0)
        let limit = min(to, text.count)
        while position < limit {
            let byte = text[position]
            if (byte == first || (ignoringCase && lowercased(byte) == lowercased(first)))
                && has(text, at: position, literal, ignoringCase: ignoringCase)
            {
                return position
            }
            position += 1
        }
        return nil
    }

    /// The start of the line holding `index`, looking back at most `within` bytes (nil when the
    /// line starts further back).
    static func lineStart(_ text: Span<UInt8>, of index: Int, within: Int) -> Int? {
        var start = index
        while start > 0 && index - start <= within {
            if text[start - 1] == 0x0a { return start }
            start -= 1
        }
        return start == 0 ? 0 : nil
    }

    /// The end of the line holding `index` (its `\r` or `\n`, or the end of the text).
    static func lineEnd(_ text: Span<UInt8>, of index: Int) -> Int {
        var end = index
        while end < text.count && text[end] != 0x0a && text[end] != 0x0d { end += 1 }
        return end
    }

    /// The bytes of `text[start..<end]`, copied.
    static func bytes(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(max(0, end - start))
        var index = start
        while index < end {
            result.append(text[index])
            index += 1
        }
        return result
    }

    /// `text[start..<end]` decoded as UTF-8 (invalid bytes become U+FFFD).
    static func string(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: bytes(text, start, end), as: UTF8.self)
    }

    /// The index of the `quote` that closes a literal whose first byte is at `start`: on the same
    /// line, fewer than `limit` bytes on (and inside the text); nil when the line or the limit
    /// comes first. What every quoted argument is read with (`sqlPassword`, `credentialCall`,
    /// `uciOption`).
    static func closingQuote(_ text: Span<UInt8>, _ quote: UInt8, from start: Int, limit: Int) -> Int? {
        let highest = min(text.count, start + limit)
        var index = start
        while index < highest {
            let byte = text[index]
            if byte == quote { return index }
            if byte == 0x0a { return nil }
            index += 1
        }
        return nil
    }

    // MARK: - Word boundaries

    /// Whether a name starts at `index`: at the start, or after a byte no name is made of
    /// (`isKey`), or after `separator` (a path's `/` before a command, a member's `.` before a
    /// call). `default_value:` holds no `value:`, `my-curl` no `curl`.
    static func startsName(_ text: Span<UInt8>, at index: Int, after separator: UInt8? = nil) -> Bool {
        guard index > 0 else { return true }
        let previous = text[index - 1]
        return !isKey(previous) || previous == separator
    }

    /// Whether a token may start at `index`: at the start, after a byte that is not a letter or
    /// digit (so `_` and `-` may glue it to a word: `my_ghp_…`), after a terminal escape
    /// sequence (`\e[32m`), a JSON escape (`\n`), a URL escape (`%3D`) or one of `glue`.
    static func startsWord(_ text: Span<UInt8>, at index: Int, glue: [String] = []) -> Bool {
        guard index > 0 else { return true }
        let previous = text[index - 1]
        if !isAlphanumeric(previous) { return true }
        // ECMA-48 control sequence: ESC [ parameters final-byte, e.g. `\e[1;32m`.
        if previous >= 0x40 && previous <= 0x7e {
            var position = index - 2
            while position >= 0 && index - position < 24 && (isDigit(text[position]) || text[position] == 0x3b) {
                position -= 1
            }
            if position >= 1 && text[position] == ascii("[") && text[position - 1] == 0x1b { return true }
        }
        // `\n`, `\r`, `\t` written as escapes in JSON or source code.
        if index >= 2 && text[index - 2] == ascii("\\")
            && (previous == ascii("n") || previous == ascii("r") || previous == ascii("t"))
        {
            return true
        }
        // `%3D` and the like: a URL-encoded separator.
        if index >= 3 && text[index - 3] == ascii("%") && isHex(text[index - 2]) && isHex(previous) {
            return true
        }
        for word in glue where has(text, at: index - word.utf8.count, word) {
            return startsWord(text, at: index - word.utf8.count)
        }
        return false
    }

    /// Whether a token may end at `index`: at the end, or before a byte that is not a letter
    /// or digit.
    static func endsWord(_ text: Span<UInt8>, at index: Int) -> Bool {
        index >= text.count || !isAlphanumeric(text[index])
    }

    // MARK: - Classes of a run

    /// Which classes occur in `text[start..<end]`: (lower, upper, digit).
    static func classes(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> (lower: Bool, upper: Bool, digit: Bool) {
        var lower = false
        var upper = false
        var digit = false
        var index = start
        while index < end {
            let byte = text[index]
            lower = lower || isLower(byte)
            upper = upper || isUpper(byte)
            digit = digit || isDigit(byte)
            index += 1
        }
        return (lower, upper, digit)
    }

    // MARK: - Decoding

    /// Decodes base64 (RFC 4648 §4 and, with `-` and `_`, §5), padding optional; nil on a
    /// character outside the alphabet.
    static func decodeBase64(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        var index = start
        while index < end {
            let byte = text[index]
            index += 1
            let value: UInt32
            if isUpper(byte) {
                value = UInt32(byte - 0x41)
            } else if isLower(byte) {
                value = UInt32(byte - 0x61 + 26)
            } else if isDigit(byte) {
                value = UInt32(byte - 0x30 + 52)
            } else if byte == ascii("-") || byte == ascii("+") {
                value = 62
            } else if byte == ascii("_") || byte == ascii("/") {
                value = 63
            } else if byte == ascii("=") {
                break
            } else {
                return nil
            }
            buffer = buffer << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return output
    }

    /// Whether `haystack` contains `needle`.
    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let bytes = Array(needle.utf8)
        guard haystack.count >= bytes.count else { return false }
        for start in 0...(haystack.count - bytes.count)
        where haystack[start..<(start + bytes.count)].elementsEqual(bytes) {
            return true
        }
        return false
    }

    /// Whether `bytes` are `user:password` in printable ASCII with a real password.
    static func isUserAndPassword(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 3, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }),
            let colon = bytes.firstIndex(of: ascii(":"))
        else { return false }
        let password = Array(bytes[(colon + 1)...])
        return !password.isEmpty && !SecretValue.isPlaceholder(password)
    }

    // MARK: - Checksums

    /// CRC-32 (ISO-HDLC, as zlib's `crc32`) of `text[start..<end]`.
    static func crc32(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        var index = start
        while index < end {
            crc ^= UInt32(text[index])
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
            index += 1
        }
        return ~crc
    }

    /// The number spelled in base62 (`0–9 A–Z a–z`) by `text[start..<end]`; nil on another byte.
    static func base62(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> UInt64? {
        var value: UInt64 = 0
        var index = start
        while index < end {
            let byte = text[index]
            let digit: UInt64
            if isDigit(byte) {
                digit = UInt64(byte - 0x30)
            } else if isUpper(byte) {
                digit = UInt64(byte - 0x41 + 10)
            } else if isLower(byte) {
                digit = UInt64(byte - 0x61 + 36)
            } else {
                return nil
            }
            value = value * 62 + digit
            index += 1
        }
        return value
    }
}
