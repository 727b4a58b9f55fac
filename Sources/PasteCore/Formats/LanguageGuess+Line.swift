/// The tests `LanguageGuess` makes on a line's UTF-8 bytes: prefixes, suffixes and words are
/// compared byte by byte, whitespace is Unicode's (`Character.isWhitespace`), and a test of
/// characters (`isLetter`) decodes only a slice that is not ASCII.
extension ArraySlice where Element == UInt8 {
    /// Whether the bytes start with `prefix`'s UTF-8.
    func hasPrefix(_ prefix: String) -> Bool { starts(with: prefix.utf8) }

    /// Whether the bytes start with `prefix`.
    func hasPrefix(_ prefix: [UInt8]) -> Bool {
        guard count >= prefix.count else { return false }
        return holds(prefix, at: startIndex)
    }

    /// Whether the bytes start with `prefix` (ASCII), letters compared without case.
    /// (A loop, not `zip`: the generic `Zip2Sequence`'s metadata was made at run time, on the
    /// hotkey's path.)
    func hasPrefix(_ prefix: String, ignoringCase: Bool) -> Bool {
        guard count >= prefix.utf8.count else { return false }
        var position = startIndex
        for expected in prefix.utf8 {
            let byte = self[position]
            let lower = (0x41...0x5A).contains(byte) && ignoringCase ? byte | 0x20 : byte
            guard lower == expected else { return false }
            position += 1
        }
        return true
    }

    /// Whether the bytes end with `suffix`'s UTF-8.
    func hasSuffix(_ suffix: String) -> Bool {
        let bytes = suffix.utf8
        guard count >= bytes.count else { return false }
        return self[(endIndex - bytes.count)...].elementsEqual(bytes)
    }

    /// Whether `word`'s UTF-8 is somewhere in the bytes.
    func holds(_ word: String) -> Bool { holds(Array(word.utf8)) }

    /// Whether `word` is somewhere in the bytes.
    func holds(_ word: [UInt8]) -> Bool {
        guard let first = word.first else { return true }
        guard count >= word.count else { return false }
        var position = startIndex
        while position <= endIndex - word.count {
            if self[position] == first && holds(word, at: position) { return true }
            position += 1
        }
        return false
    }

    /// Whether `word` is in the bytes at `position`.
    func holds(_ word: [UInt8], at position: Int) -> Bool {
        guard endIndex - position >= word.count else { return false }
        var offset = 0
        while offset < word.count {
            if self[position + offset] != word[offset] { return false }
            offset += 1
        }
        return true
    }

    /// The length of the whitespace character (`Character.isWhitespace`: U+0009–U+000D,
    /// U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F,
    /// U+3000) at `position`, or 0.
    func whitespaceLength(at position: Int) -> Int {
        let byte = self[position]
        if byte == 0x20 || (0x09...0x0D).contains(byte) { return 1 }
        guard byte >= 0xC2 else { return 0 }
        func next(_ offset: Int) -> UInt8? { position + offset < endIndex ? self[position + offset] : nil }
        switch byte {
        case 0xC2: return next(1) == 0x85 || next(1) == 0xA0 ? 2 : 0
        case 0xE1: return next(1) == 0x9A && next(2) == 0x80 ? 3 : 0
        case 0xE2:
            if next(1) == 0x80, let last = next(2),
                (0x80...0x8A).contains(last) || last == 0xA8 || last == 0xA9 || last == 0xAF
            {
                return 3
            }
            return next(1) == 0x81 && next(2) == 0x9F ? 3 : 0
        case 0xE3: return next(1) == 0x80 && next(2) == 0x80 ? 3 : 0
        default: return 0
        }
    }

    /// Whether every character is whitespace (true when empty).
    var isBlank: Bool { droppingWhitespace.isEmpty }

    /// The bytes after the leading whitespace.
    var droppingWhitespace: ArraySlice<UInt8> {
        var position = startIndex
        while position < endIndex {
            let length = whitespaceLength(at: position)
            if length == 0 { break }
            position += length
        }
        return self[position...]
    }

    /// The bytes after the leading spaces and tabs.
    var droppingIndent: ArraySlice<UInt8> { drop { $0 == 0x20 || $0 == 0x09 } }

    /// The bytes before the trailing spaces and tabs.
    var droppingTrailingIndent: ArraySlice<UInt8> {
        var end = endIndex
        while end > startIndex, self[end - 1] == 0x20 || self[end - 1] == 0x09 { end -= 1 }
        return self[..<end]
    }

    /// The bytes after the leading spaces (not tabs).
    var droppingSpaces: ArraySlice<UInt8> { drop { $0 == 0x20 } }

    /// How many spaces the bytes start with.
    var leadingSpaces: Int { prefix { $0 == 0x20 }.count }

    /// The bytes after the first `count` characters (UTF-8 sequences).
    func droppingCharacters(_ count: Int) -> ArraySlice<UInt8> {
        var position = startIndex
        for _ in 0..<count where position < endIndex {
            position += 1
            while position < endIndex, self[position] & 0xC0 == 0x80 { position += 1 }
        }
        return self[position...]
    }

    /// Whether every character passes `test`: ASCII byte by byte, anything else decoded.
    func allCharacters(_ test: (Character) -> Bool) -> Bool {
        guard allSatisfy({ $0 < 0x80 }) else { return String(decoding: self, as: UTF8.self).allSatisfy(test) }
        return allSatisfy { test(Character(Unicode.Scalar($0))) }
    }
}
