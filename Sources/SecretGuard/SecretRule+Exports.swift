import PasteCore

// MARK: - Passwords in exports and data source names (issue 42: the structural layer)
//
// Two shapes with no name beside their value: a password manager's or a browser's CSV export,
// whose header line names the column, and Go's MySQL data source name (`user:pw@tcp(host)/db`),
// whose `@tcp(` says what the words before it are.

extension SecretRule {
    /// The header names of a password column: KeePass's and 1Password's `Password`, Chrome's,
    /// Firefox's and LastPass's `password`, Bitwarden's `login_password`.
    /// (Unquoted only: `,"password"` and `"password",` cost the prefilter a pair in every JSON text.)
    static let csvPasswordTriggers = [",password", ",Password", ",login_password"]

    /// The most rows under a CSV header looked at.
    static let csvRowLimit = 64

    /// A CSV export's password column: the trigger's line is a header (three fields or more,
    /// each a short name), and a row under it holds a plausible password in that column, not a
    /// stored hash (`$2b$…`, `$6$…`) or a placeholder. Found as the value itself.
    static func csvPassword(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        guard let lineStart = SecretText.lineStart(text, of: start, within: 512) else { return nil }
        let lineEnd = SecretText.lineEnd(text, of: start)
        guard lineEnd - lineStart <= 1024, let header = csvFields(text, lineStart, lineEnd), header.count >= 3
        else { return nil }
        // The first column named as a password from the trigger on.
        guard
            let column = header.firstIndex(where: { field in
                field.end > start
                    && ["password", "login_password"].contains(
                        SecretText.string(text, field.start, field.end).lowercased())
            })
        else { return nil }
        let isHeader = header.allSatisfy { field in
            field.end - field.start <= 40
                && (field.start..<field.end).allSatisfy { SecretText.isKey(text[$0]) || text[$0] == 0x20 }
        }
        guard isHeader else { return nil }
        var rowStart = lineEnd
        for _ in 0..<csvRowLimit {
            while rowStart < text.count && (text[rowStart] == 0x0a || text[rowStart] == 0x0d) { rowStart += 1 }
            guard rowStart < text.count else { return nil }
            let rowEnd = SecretText.lineEnd(text, of: rowStart)
            // (A row cut by the window's end is not judged.)
            guard rowEnd < text.count else { return nil }
            if let row = csvFields(text, rowStart, rowEnd), row.count == header.count {
                let field = row[column]
                let value = SecretText.bytes(text, field.start, field.end)
                if value.count >= SecretValue.minimumLength, SecretValue.isCommandPassword(value, isSingleQuoted: true),
                    SecretValue.isPlausible(value, isQuoted: true), !SecretValue.isCryptHash(value)
                {
                    return (field.start, field.end, "CSV password column")
                }
            }
            rowStart = rowEnd
        }
        return nil
    }

    /// The fields of a CSV line, each without its quotes (`""` inside them kept as is); nil when
    /// a quote is not closed on the line.
    static func csvFields(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> [(start: Int, end: Int)]? {
        var fields: [(start: Int, end: Int)] = []
        var index = start
        while true {
            if index < end && text[index] == 0x22 {
                var close = index + 1
                while close < end && !(text[close] == 0x22 && (close + 1 >= end || text[close + 1] != 0x22)) {
                    close += text[close] == 0x22 ? 2 : 1
                }
                guard close < end else { return nil }
                fields.append((index + 1, close))
                index = close + 1
            } else {
                let fieldStart = index
                while index < end && text[index] != SecretText.ascii(",") { index += 1 }
                fields.append((fieldStart, index))
            }
            guard index < end, text[index] == SecretText.ascii(",") else { break }
            index += 1
        }
        return fields
    }

    /// Go's MySQL data source name, `user:password@tcp(host:port)/db` (or `@unix(/path)`): the
    /// password between the user's colon and the `@` of the trigger, printable, no placeholder
    /// and no variable. Found as the value itself.
    static func goDataSource(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        var index = start
        let lowest = max(0, start - SecretValue.maximumLength)
        while index > lowest && !SecretText.isSpace(text[index - 1]) && !SecretText.isQuote(text[index - 1])
            && text[index - 1] != SecretText.ascii("=") && text[index - 1] != SecretText.ascii("`")
        {
            index -= 1
        }
        guard let colon = SecretText.find(text, ":", from: index, to: start), colon > index else { return nil }
        let value = SecretText.bytes(text, colon + 1, start)
        // (In Go's string a `$` is itself; one before a name or a brace is a shell's or a
        // template's variable, `root:${DB_PASS}@tcp(…)` in a `.env` or a compose file.)
        let hasVariable = value.indices.contains { index in
            value[index] == SecretText.ascii("$") && index + 1 < value.count
                && (SecretText.isLetter(value[index + 1]) || "_{(".utf8.contains(value[index + 1]))
        }
        guard value.count >= SecretValue.minimumLength, !hasVariable,
            SecretValue.isCommandPassword(value, isSingleQuoted: true)
        else { return nil }
        return (colon + 1, start, "user:…@tcp(…) (password)")
    }
}

// MARK: - Passwords in XML elements and cookie files

extension SecretRule {
    /// A password in an XML element of its own: Windows' answer file (`unattend.xml`:
    /// `<AdministratorPassword><Value>…</Value><PlainText>true</PlainText>`, the `<Value>` under
    /// an element whose name bears a password) and FileZilla's site manager (`<Pass
    /// encoding="base64">…</Pass>`, the base64 decoded; an older `<Pass>…</Pass>` as it is).
    /// Found as the value itself.
    static func xmlPassword(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        let isFileZilla = SecretText.has(text, at: start, "<Pass")
        var valueStart = end
        var isBase64 = false
        if isFileZilla {
            if SecretText.has(text, at: end, " encoding=\"base64\">") {
                valueStart = end + 19
                isBase64 = true
            } else {
                guard SecretText.has(text, at: end, ">") else { return nil }
                valueStart = end + 1
            }
        } else {
            // The element the `<Value>` is in: the opening tag before it, past blanks and lines.
            var index = start
            while index > 0 && start - index < 128 && SecretText.isSpace(text[index - 1]) { index -= 1 }
            guard index > 0, text[index - 1] == SecretText.ascii(">") else { return nil }
            let tagEnd = index - 1
            var tagStart = tagEnd
            while tagStart > 0 && tagEnd - tagStart < 64 && SecretText.isKey(text[tagStart - 1]) { tagStart -= 1 }
            guard tagStart > 0, text[tagStart - 1] == SecretText.ascii("<"), tagStart < tagEnd,
                SecretName.verdict(SecretText.bytes(text, tagStart, tagEnd)) == .secret
            else { return nil }
        }
        guard let close = SecretText.find(text, "</", from: valueStart, to: valueStart + SecretValue.maximumLength),
            close > valueStart
        else { return nil }
        var value = SecretText.bytes(text, valueStart, close)
        if isBase64 {
            guard let decoded = SecretText.decodeBase64(text, valueStart, close) else { return nil }
            value = decoded
        }
        guard value.count >= SecretValue.minimumLength, SecretValue.isCommandPassword(value, isSingleQuoted: true)
        else { return nil }
        return (valueStart, close, isFileZilla ? "<Pass>…</Pass>" : "<Value>…</Value> (password)")
    }

    /// A Netscape cookie file (curl's `-c` jar, `cookies.txt` exports), its header line the trigger:
    /// a line under it (domain, subdomains, path, secure, expiry, name, value, tab-separated; an
    /// HttpOnly cookie's domain after `#HttpOnly_`) holding a session cookie with a random value.
    /// Found as the value itself.
    static func cookieFile(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Found? {
        var lineStart = SecretText.lineEnd(text, of: end)
        for _ in 0..<200 {
            guard lineStart < text.count else { return nil }
            lineStart += 1
            let lineEnd = SecretText.lineEnd(text, of: lineStart)
            // (A line cut by the window's end is not judged.)
            guard lineEnd < text.count else { return nil }
            if let found = cookieFileLine(text, lineStart, lineEnd) { return found }
            lineStart = lineEnd
        }
        return nil
    }

    /// A cookie file's line from `lineStart` to `lineEnd` (`cookieFile`).
    static func cookieFileLine(_ text: Span<UInt8>, _ lineStart: Int, _ lineEnd: Int) -> Found? {
        guard lineEnd - lineStart <= 8192 else { return nil }
        var fields: [(start: Int, end: Int)] = []
        var fieldStart = lineStart
        for index in lineStart...lineEnd where index == lineEnd || text[index] == 0x09 {
            fields.append((fieldStart, index))
            fieldStart = index + 1
        }
        guard fields.count == 7 else { return nil }
        func field(_ index: Int) -> String { SecretText.string(text, fields[index].start, fields[index].end) }
        guard ["TRUE", "FALSE"].contains(field(1)), ["TRUE", "FALSE"].contains(field(3)),
            fields[4].end > fields[4].start,
            (fields[4].start..<fields[4].end).allSatisfy({ SecretText.isDigit(text[$0]) })
        else { return nil }
        let name = SecretText.bytes(text, fields[5].start, fields[5].end)
        let value = SecretText.bytes(text, fields[6].start, fields[6].end)
        guard SecretName.isSessionCookie(name), SecretValue.isRandom(value) else { return nil }
        return (fields[6].start, fields[6].end, SecretText.string(text, fields[5].start, fields[5].end) + "\t…")
    }
}
