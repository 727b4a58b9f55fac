import PasteCore

extension SecretRule {
    // MARK: - Decoded regions

    /// The first secret in the region a decoding undoes around the trigger at `start..<end`,
    /// placed back in `text` (whose first byte is at stream offset `base`): from the source
    /// byte its first decoded byte came from to the one after its last. Nil, without decoding,
    /// when an earlier region of the same slot covers the trigger (`progress`).
    ///
    /// The decoded bytes are scanned with the whole table, so a decoding inside a decoding
    /// (percent-encoded JSON) is undone too; each level works on fewer bytes than the one
    /// before, which bounds the depth.
    static func decodedMatch(
        _ decoding: SecretDecoding, _ text: Span<UInt8>, _ start: Int, _ end: Int, base: Int,
        progress: inout SecretDecodingProgress
    ) -> SecretMatch? {
        let slot = decoding.slot(of: text, at: start)
        guard !progress.covers(base + start, slot: slot) else { return nil }
        let region = decoding.region(text, literalAt: start, end: end)
        progress.record(region, slot: slot, base: base)
        var match = firstMatch(in: region.decoded, progress: &progress)
        // Base64's characters hold bits of two bytes: masking takes the whole run.
        if decoding == .base64Values { match?.isDecoded = true }
        return match
    }

    /// The first secret in decoded bytes, placed at the window offsets they came from; the
    /// inner scan's work counted in `progress`.
    static func firstMatch(in decoded: SecretDecoded?, progress: inout SecretDecodingProgress) -> SecretMatch? {
        guard let decoded, !decoded.bytes.isEmpty else { return nil }
        var found: [SecretMatch] = []
        let bytes = decoded.bytes
        var inner = SecretDecodingProgress()
        // Decoded again only when this level undid something (fewer bytes than it came from):
        // the depth is bounded, and a region nothing decodes (a run of bare `ESC [`) is not
        // handed to itself again.
        let isShorter = bytes.count < decoded.origins[bytes.count] - decoded.origins[0]
        SecretScanner.evaluate(
            bytes.span, base: 0, from: 0, to: bytes.count, into: &found, decoding: isShorter, progress: &inner)
        progress.work += inner.work
        // The earliest; of those overlapping it, the most specific.
        guard let first = found.min(by: { $0.start < $1.start }) else { return nil }
        let best =
            found.filter { $0.start < first.end && first.start < $0.end }
            .max { $0.rank < $1.rank || ($0.rank == $1.rank && $0.start > $1.start) } ?? first
        var match = best
        match.start = decoded.origins[best.start]
        match.end = max(match.start + 1, decoded.origins[min(best.end, bytes.count)])
        match.valueOffset = 0
        return match
    }

    // MARK: - Hard wraps

    /// The longest part of a token before the line end that cuts it.
    static let maximumWrappedRun = 256
    /// The most lines a wrapped token is followed over.
    static let wrappedLines = 6
    /// The shortest line taken for one a terminal cut: a width people use (80 columns or more,
    /// less a prompt or a margin).
    static let minimumWrapWidth = 60

    /// A token cut at a line end and continued at the start of the next line(s), as a terminal
    /// with a fixed width (or `fold`, or a mail client) wraps it: the line holding the literal
    /// is at least `minimumWrapWidth` long, ends inside the token, and each following line
    /// continues it from its first byte while the line before it was as long as the first.
    static func wrappedToken(_ format: TokenFormat, _ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        // PERF(guard): most failed candidates fail here, before any line is looked at: one that
        // does not start a word, or whose run after the literal does not run into a line end.
        if format.startsWord && format.leading == nil && !SecretText.startsWord(text, at: start, glue: format.glue) {
            return nil
        }
        var lineEnd = end
        let furthest = min(text.count, end + maximumWrappedRun)
        while lineEnd < furthest && !SecretText.isSpace(text[lineEnd]) { lineEnd += 1 }
        guard lineEnd < furthest, text[lineEnd] == 0x0a || text[lineEnd] == 0x0d else { return nil }
        guard lineEnd < text.count, lineEnd >= end,
            let lineStart = SecretText.lineStart(text, of: start, within: SecretScanner.lookbehind)
        else { return nil }
        let width = lineEnd - lineStart
        guard width >= minimumWrapWidth, !SecretText.isSpace(text[lineEnd - 1]) else { return nil }
        // A published example that ends its line is whole, not cut (Discord's, in its docs).
        if SecretValue.publishedExamples.contains(SecretText.bytes(text, start, lineEnd)) { return nil }
        // The joined lines, and where each joined byte came from.
        var joined = SecretText.bytes(text, lineStart, lineEnd)
        var origins = Array(lineStart..<lineEnd)
        var index = lineEnd
        var previousWidth = width
        for _ in 0..<wrappedLines {
            guard previousWidth == width, index < text.count else { break }
            if text[index] == 0x0d { index += 1 }
            guard index < text.count, text[index] == 0x0a else { break }
            index += 1
            guard index < text.count, !SecretText.isSpace(text[index]) else { break }
            let nextEnd = SecretText.lineEnd(text, of: index)
            joined += SecretText.bytes(text, index, nextEnd)
            origins += Array(index..<nextEnd)
            previousWidth = nextEnd - index
            index = nextEnd
        }
        guard joined.count > width else { return nil }
        origins.append(index)
        guard let found = token(format, joined.span, start - lineStart, end - lineStart),
            found.end > width
        else { return nil }
        return (origins[found.start], origins[found.end - 1] + 1, found.excerpt)
    }

    // MARK: - Formats of configuration files

    /// Whether the key ending at or after `index` is the first argument of PHP's `define(`:
    /// `define('DB_PASSWORD', '…')`.
    static func isDefine(_ text: Span<UInt8>, keyStart index: Int) -> Bool {
        var position = index
        while position > 0 && index - position < maximumKeyLength && SecretText.isKey(text[position - 1]) {
            position -= 1
        }
        guard position > 0, SecretText.isQuote(text[position - 1]) else { return false }
        position -= 1
        while position > 0 && SecretText.isBlank(text[position - 1]) { position -= 1 }
        return SecretText.has(text, at: position - 7, "define(", ignoringCase: true)
    }

    /// Whether the key ending at `end` (its trigger word starting at `start`) is a string
    /// literal (in `"` or `'`) and a call's first argument, the second a literal too, `comma`
    /// the `,` between them: a name and its value given to a call (`.option("password", "…")` of
    /// Spark's readers, `setProperty("db.password", "…")`, `headers.put("X-Api-Key", "…")`).
    /// (Not Ansible's `lookup('amazon.aws.aws_secret', 'prod/db')`, whose first argument names
    /// a plugin: `assignedValue` turns it away.)
    static func isArgumentPair(_ text: Span<UInt8>, start: Int, end: Int, comma: Int) -> Bool {
        var position = start
        while position > 0 && start - position < maximumKeyLength && SecretText.isKey(text[position - 1]) {
            position -= 1
        }
        guard position > 0, end < text.count, text[end] == text[position - 1],
            text[end] == SecretText.ascii("\"") || text[end] == SecretText.ascii("'")
        else { return false }
        // The call's first argument: a list of names (`["password", "psk"]`, `{ "pw", "salt" }`)
        // or code spans in prose (`` `DB_PASS`, `authToken` ``) are not a name and its value.
        position -= 1
        while position > 0 && SecretText.isBlank(text[position - 1]) { position -= 1 }
        guard position > 0, text[position - 1] == SecretText.ascii("(") else { return false }
        var index = comma + 1
        while index < text.count && SecretText.isBlank(text[index]) { index += 1 }
        return index < text.count && (text[index] == SecretText.ascii("\"") || text[index] == SecretText.ascii("'"))
    }

    /// `_auth = <base64 of user:password>` (npm's `.npmrc`, also after a registry:
    /// `//registry.example/:_auth=…`), the value optionally quoted.
    static func npmAuth(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        var index = end
        if text[end - 1] != SecretText.ascii("=") {
            while index < text.count && SecretText.isBlank(text[index]) { index += 1 }
            guard index < text.count, text[index] == SecretText.ascii("=") else { return nil }
            index += 1
        }
        while index < text.count && (SecretText.isBlank(text[index]) || SecretText.isQuote(text[index])) {
            index += 1
        }
        let length = SecretText.run(text, from: index, max: 1024, .base64)
        guard length >= 8, let decoded = SecretText.decodeBase64(text, index, index + length),
            SecretText.isUserAndPassword(decoded), decoded.first != SecretText.ascii(":")
        else { return nil }
        return (start + 1, index + length, "_auth=…")
    }

    /// Base64 (33 bytes: 44 characters) or hex (64 or 66 digits) of a Vault unseal key.
    static let unsealKeyLengths = 40...90

    /// `Unseal Key 1: <key>` (what `vault operator init` prints) or `vault operator unseal
    /// <key>`.
    static func vaultUnseal(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        var index = end
        if SecretText.has(text, at: start, "Unseal Key") {
            guard index < text.count, text[index] == SecretText.ascii(" ") else { return nil }
            index += 1
            let digits = SecretText.run(text, from: index, max: 3, .digits)
            guard digits > 0 else { return nil }
            index += digits
            guard index < text.count, text[index] == SecretText.ascii(":") else { return nil }
            index += 1
        }
        let blanks = index
        while index < text.count && SecretText.isBlank(text[index]) { index += 1 }
        guard index > blanks else { return nil }
        let length = SecretText.run(text, from: index, max: unsealKeyLengths.upperBound + 1, .base64)
        let found = SecretText.classes(text, index, index + length)
        guard unsealKeyLengths.contains(length), found.digit, found.lower || found.upper,
            SecretText.endsWord(text, at: index + length)
        else { return nil }
        return (start, index + length, SecretText.string(text, start, end) + " …")
    }

    /// A postfix `sasl_passwd` line: `[smtp.example.com]:587 user:password`, the host starting
    /// its line; the trigger is `]:` and the port's first digit. (A bare `host user:password`
    /// line has no literal to look for: not looked at.)
    static func saslPassword(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        guard let lineStart = SecretText.lineStart(text, of: start, within: 256) else { return nil }
        var hostStart = lineStart
        while hostStart < start && SecretText.isBlank(text[hostStart]) { hostStart += 1 }
        if hostStart < start && text[hostStart] == SecretText.ascii("[") { hostStart += 1 }
        let hostEnd = start
        let host = SecretText.run(text, from: hostStart, max: 254, hostCharacters)
        guard host >= 3, hostStart + host == hostEnd,
            SecretText.bytes(text, hostStart, hostEnd).contains(SecretText.ascii("."))
        else { return nil }
        var index = start + 2
        let port = SecretText.run(text, from: index, max: 6, .digits)
        guard port > 0 else { return nil }
        index += port
        let blanks = index
        while index < text.count && SecretText.isBlank(text[index]) { index += 1 }
        guard index > blanks else { return nil }
        let userStart = index
        while index < text.count && !SecretText.isSpace(text[index]) && text[index] != SecretText.ascii(":") {
            index += 1
        }
        guard index > userStart, index < text.count, text[index] == SecretText.ascii(":") else { return nil }
        let valueStart = index + 1
        let valueEnd = SecretText.lineEnd(text, of: valueStart)
        let value = SecretText.bytes(text, valueStart, valueEnd)
        // (Or a Google app password as Google shows it, with its blanks.)
        guard
            !value.contains(where: SecretText.isBlank) && value.count >= 3 && !SecretValue.isPlaceholder(value)
                || SecretValue.isGroupedAppPassword(value)
        else { return nil }
        return (hostStart, valueEnd, "sasl_passwd " + SecretText.string(text, hostStart, hostEnd) + " …")
    }

    /// A keyword starting its line, blanks and a plausible value ending it: `bindpw …` in
    /// nslcd.conf or ldap.conf (a password in a file that has no `=`).
    static func lineKeyword(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        guard let lineStart = SecretText.lineStart(text, of: start, within: 64) else { return nil }
        var index = lineStart
        while index < start && SecretText.isBlank(text[index]) { index += 1 }
        guard index == start, end < text.count, SecretText.isBlank(text[end]) else { return nil }
        index = end
        while index < text.count && SecretText.isBlank(text[index]) { index += 1 }
        let valueEnd = SecretText.lineEnd(text, of: index)
        var trimmed = valueEnd
        while trimmed > index && SecretText.isBlank(text[trimmed - 1]) { trimmed -= 1 }
        let value = SecretText.bytes(text, index, trimmed)
        // The rest of the line is the value, a literal (taken as quoted: never a reference), or
        // an app password as Google shows it (`abcd efgh ijkl mnop`, msmtprc's favourite).
        guard
            value.count >= 3 && !value.contains(where: SecretText.isBlank)
                && SecretValue.isPlausible(value, isQuoted: true) || SecretValue.isGroupedAppPassword(value)
        else { return nil }
        return (start, trimmed, SecretText.string(text, start, end) + " …")
    }

    /// `password is <value>` (or `pw is`, or "pw for the router is") in prose, as a chat line
    /// gives it ("user is admin, password is …"), or the line after "the password below": the next word (inside its quotes or backticks, without a sentence's last `.`, `,`
    /// or `;`). Prose says "the password is required", "is stored", "is \`changeme\`": the
    /// value must be no word of it, eight characters or more with a digit and three character
    /// classes (lower, upper, digit, symbol), and no placeholder.
    static func proseKeyword(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        var index = end
        if text[end - 1] == SecretText.ascii("w") {
            // "…with the password below:", then the password alone on a line of its own (a
            // service desk's mail), after at most two empty lines.
            index = SecretText.lineEnd(text, of: end)
            for _ in 0..<3 {
                guard index < text.count else { return nil }
                index += 1
                while index < text.count && SecretText.isBlank(text[index]) { index += 1 }
                if index < text.count && text[index] != 0x0a && text[index] != 0x0d { break }
            }
            let lineEnd = SecretText.lineEnd(text, of: index)
            var valueEnd = lineEnd
            while valueEnd > index && SecretText.isBlank(text[valueEnd - 1]) { valueEnd -= 1 }
            let value = SecretText.bytes(text, index, valueEnd)
            guard value.count >= 8, !value.contains(where: SecretText.isBlank), SecretValue.isProsePassword(value)
            else { return nil }
            return (start, valueEnd, SecretText.string(text, start, end) + " …")
        }
        if text[end - 2] == SecretText.ascii("r") && text[end - 3] == SecretText.ascii("o") {
            // "pw for the router is …": what it is for, a few words, then `is`.
            let highest = min(text.count, end + 48)
            var position = end
            while position < highest && text[position] != 0x0a && !SecretText.has(text, at: position, " is ") {
                position += 1
            }
            guard position < highest, SecretText.has(text, at: position, " is ") else { return nil }
            index = position + 4
        }
        var quote: UInt8?
        if index < text.count && (SecretText.isQuote(text[index]) || text[index] == SecretText.ascii("`")) {
            quote = text[index]
            index += 1
        }
        let valueStart = index
        while index < text.count && !SecretText.isSpace(text[index]) && text[index] != quote
            && index - valueStart <= SecretValue.maximumLength
        {
            index += 1
        }
        var valueEnd = index
        if let quote {
            guard valueEnd < text.count, text[valueEnd] == quote else { return nil }
        } else {
            while valueEnd > valueStart && ".,;".utf8.contains(text[valueEnd - 1]) { valueEnd -= 1 }
        }
        let value = SecretText.bytes(text, valueStart, valueEnd)
        guard value.count >= 8, SecretValue.isProsePassword(value) else { return nil }
        return (start, valueEnd, SecretText.string(text, start, end - 1) + " …")
    }

    /// A word of prose, in quotes or backticks or bare: its bounds inside them, reading from
    /// `index` (a bare word ends at a blank, or before a sentence's `.`, `,` or `;`).
    static func proseWord(_ text: Span<UInt8>, from index: Int) -> (start: Int, end: Int, next: Int)? {
        guard index < text.count else { return nil }
        if SecretText.isQuote(text[index]) {
            guard
                let closing = SecretText.closingQuote(
                    text, text[index], from: index + 1, limit: SecretValue.maximumLength)
            else { return nil }
            return (index + 1, closing, closing + 1)
        }
        var wordEnd = index
        while wordEnd < text.count && !SecretText.isSpace(text[wordEnd]) && wordEnd - index <= SecretValue.maximumLength
        {
            wordEnd += 1
        }
        var valueEnd = wordEnd
        while valueEnd > index && ".,;".utf8.contains(text[valueEnd - 1]) { valueEnd -= 1 }
        return valueEnd > index ? (index, valueEnd, wordEnd) : nil
    }

    /// A login in prose, its user and password after `login is` or `account is` ("login is
    /// \`zoe\` / \`…\`", "account is admin / …", "login is admin:…"): the password a word no prose
    /// has (`SecretValue.isProsePassword`) or a passphrase of joined words.
    static func proseLogin(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        guard let user = proseWord(text, from: end) else { return nil }
        var index = user.next
        var password: (start: Int, end: Int, next: Int)?
        if let colon = (user.start..<user.end).first(where: { text[$0] == SecretText.ascii(":") }), colon + 1 < user.end
        {
            // `admin:…`, one word.
            password = (colon + 1, user.end, user.next)
        } else {
            while index < text.count && SecretText.isBlank(text[index]) { index += 1 }
            guard index < text.count, text[index] == SecretText.ascii("/") else { return nil }
            index += 1
            while index < text.count && SecretText.isBlank(text[index]) { index += 1 }
            password = proseWord(text, from: index)
        }
        guard let password else { return nil }
        let value = SecretText.bytes(text, password.start, password.end)
        guard value.count >= 8, SecretValue.isProsePassword(value) || SecretValue.isJoinedPassphrase(value) else {
            return nil
        }
        return (start, password.end, SecretText.string(text, start, end - 1) + " … / …")
    }
}
