/// A match before line and column are known: the byte range and what to show of it.
struct RawSecretMatch {
    var pattern: SecretPattern
    /// The first byte of the match.
    var start: Int
    /// One past the last byte of the secret itself (for assignments: of the value).
    var end: Int
    /// A redacted excerpt (`AKIA…XY`).
    var excerpt: String
}

/// The hand-written matchers of the secret guard, in one forward pass over the bytes.
///
/// Why not regular expressions: FoundationEssentials has no `NSRegularExpression`, and a single
/// pass that only looks closer at a few trigger bytes (`-`, `=`, `:`, and the first letters of
/// known token prefixes at the start of a word) runs at memory speed on ordinary text. Each
/// matcher reads forward from its trigger and never backtracks further than an identifier.
enum SecretScanner {
    /// The longest key name looked at before `=` or `:`.
    static let maximumKeyLength = 64
    /// The longest value an assignment is checked for (longer ones are blobs, not passwords).
    static let maximumValueLength = 256
    /// The shortest literal taken for a password or secret: shorter ones are flags and numbers.
    static let minimumValueLength = 6
    /// How far a PEM block's END line is looked for, to skip the block's base64 body.
    static let maximumPEMLength = 64 * 1024

    /// Every match in `text`, in order of position, at most `limit`.
    static func matches(in text: Span<UInt8>, limit: Int) -> [RawSecretMatch] {
        var found: [RawSecretMatch] = []
        let count = text.count
        var index = 0
        while index < count && found.count < limit {
            let byte = text[index]
            switch byte {
            case ascii("-"):
                if let (match, resume) = privateKey(text, at: index) {
                    found.append(match)
                    index = resume
                    continue
                }
            case ascii("="), ascii(":"):
                if byte == ascii(":"), let match = urlCredentials(text, at: index) {
                    found.append(match)
                } else if let match = assignment(text, at: index) {
                    found.append(match)
                }
            case ascii("A"), ascii("g"), ascii("x"), ascii("h"), ascii("s"), ascii("r"),
                ascii("n"), ascii("p"), ascii("e"):
                if index == 0 || !isWord(text[index - 1]),
                    let match = token(text, at: index, first: byte)
                {
                    found.append(match)
                    index = match.end
                    continue
                }
            default:
                break
            }
            index += 1
        }
        // An assignment whose value is a recognised token is reported once, as the token. The
        // token is found right after its assignment (its start lies past the `=`), so only the
        // next matches need a look.
        var kept: [RawSecretMatch] = []
        kept.reserveCapacity(found.count)
        for (position, candidate) in found.enumerated() {
            if candidate.pattern.isAssignment {
                let following = found[(position + 1)..<min(found.count, position + 3)]
                if following.contains(where: {
                    !$0.pattern.isAssignment && $0.start < candidate.end && candidate.start < $0.end
                }) {
                    continue
                }
            }
            kept.append(candidate)
        }
        return kept
    }

    // MARK: - Private keys

    /// `-----BEGIN <label>-----` where the label ends in `PRIVATE KEY` (or is the PGP block), and
    /// the header is followed by a line break (real or `\n` escaped, as in JSON) and the body.
    /// Returns the match and where to resume: after the block's END line.
    static func privateKey(_ text: Span<UInt8>, at start: Int) -> (RawSecretMatch, Int)? {
        guard has(text, at: start, "-----BEGIN ") else { return nil }
        let labelStart = start + 11
        var index = labelStart
        while index < text.count && index - labelStart <= 40 {
            let byte = text[index]
            if byte == ascii("-") { break }
            guard isUpper(byte) || isDigit(byte) || byte == ascii(" ") else { return nil }
            index += 1
        }
        guard has(text, at: index, "-----") else { return nil }
        let label = string(text, labelStart, index)
        let pattern: SecretPattern
        if label == "PGP PRIVATE KEY BLOCK" {
            pattern = .pgpPrivateKey
        } else if label.hasSuffix("PRIVATE KEY") {
            pattern = .privateKey
        } else {
            return nil
        }
        let headerEnd = index + 5
        // What follows the header: a line break, then the body.
        var body = headerEnd
        if body < text.count && text[body] == ascii("\r") { body += 1 }
        if body < text.count && text[body] == ascii("\n") {
            body += 1
        } else if has(text, at: body, "\\r\\n") {
            body += 4
        } else if has(text, at: body, "\\n") {
            body += 2
        } else if body < text.count {
            return nil  // `"-----BEGIN RSA PRIVATE KEY-----"` quoted in code, not a key
        }
        if pattern == .privateKey && body < text.count {
            while body < text.count && (text[body] == ascii(" ") || text[body] == ascii("\t")) {
                body += 1
            }
            guard has(text, at: body, "Proc-Type:") || base64Run(text, from: body) >= 16 else {
                return nil
            }
        }
        let match = RawSecretMatch(
            pattern: pattern, start: start, end: headerEnd,
            excerpt: "-----BEGIN " + label + "-----")
        let resume = find(text, "-----END ", from: body, within: maximumPEMLength) ?? body
        return (match, max(resume, start + 1))
    }

    // MARK: - Tokens with known prefixes

    /// A token starting at a word start with one of the issuers' prefixes.
    static func token(_ text: Span<UInt8>, at start: Int, first: UInt8) -> RawSecretMatch? {
        switch first {
        case ascii("A"):
            if has(text, at: start, "AKIA") || has(text, at: start, "ASIA") {
                let end = start + 4 + run(text, from: start + 4, max: 17) { isUpper($0) || isDigit($0) }
                guard end - start == 20, !has(text, at: end - 7, "EXAMPLE") else { return nil }
                return make(.awsAccessKeyID, text, start, end, shown: 4)
            }
            if has(text, at: start, "AIza") {
                let end = start + 4 + run(text, from: start + 4, max: 36, isBase64URL)
                guard end - start == 39 else { return nil }
                return make(.googleAPIKey, text, start, end, shown: 4)
            }
        case ascii("g"):
            for prefix in ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"] where has(text, at: start, prefix) {
                let end = start + 4 + run(text, from: start + 4, max: 37, isAlphanumeric)
                guard end - start == 40 else { return nil }
                return make(.gitHubToken, text, start, end, shown: 4)
            }
            if has(text, at: start, "github_pat_") {
                let end = start + 11 + run(text, from: start + 11, max: 255, isWord)
                guard end - start >= 11 + 30 else { return nil }
                return make(.gitHubToken, text, start, end, shown: 11)
            }
            if has(text, at: start, "glpat-") {
                let end = start + 6 + run(text, from: start + 6, max: 255, isBase64URL)
                guard end - start >= 6 + 20 else { return nil }
                return make(.gitLabToken, text, start, end, shown: 6)
            }
        case ascii("x"):
            guard has(text, at: start, "xox"), start + 4 < text.count, text[start + 4] == ascii("-"),
                [ascii("a"), ascii("b"), ascii("p"), ascii("r"), ascii("s")].contains(text[start + 3])
            else { return nil }
            let length = run(text, from: start + 5, max: 255) { isAlphanumeric($0) || $0 == ascii("-") }
            let end = start + 5 + length
            guard length >= 10, containsDigit(text, start + 5, end) else { return nil }
            return make(.slackToken, text, start, end, shown: 5)
        case ascii("h"):
            for prefix in ["hooks.slack.com/services/", "hooks.slack.com/workflows/"]
            where has(text, at: start, prefix) {
                let length = run(text, from: start + prefix.utf8.count, max: 255) {
                    isAlphanumeric($0) || $0 == ascii("/")
                }
                guard length >= 20 else { return nil }
                let end = start + prefix.utf8.count + length
                return make(.slackWebhook, text, start, end, shown: prefix.utf8.count)
            }
        case ascii("s"), ascii("r"):
            if has(text, at: start + 1, "k_live_") {
                let end = start + 8 + run(text, from: start + 8, max: 255, isAlphanumeric)
                guard end - start >= 8 + 20 else { return nil }
                return make(.stripeKey, text, start, end, shown: 8)
            }
            if first == ascii("s"), has(text, at: start, "sk-") {
                let end = start + 3 + run(text, from: start + 3, max: 255, isBase64URL)
                guard end - start >= 3 + 32, hasMixedCaseAndDigits(text, start + 3, end) else {
                    return nil
                }
                return make(.openAIKey, text, start, end, shown: 3)
            }
        case ascii("n"):
            if has(text, at: start, "npm_") {
                let end = start + 4 + run(text, from: start + 4, max: 37, isAlphanumeric)
                guard end - start == 40 else { return nil }
                return make(.npmToken, text, start, end, shown: 4)
            }
        case ascii("p"):
            if has(text, at: start, "pypi-AgEI") {
                let end = start + 5 + run(text, from: start + 5, max: 4096, isBase64URL)
                guard end - start >= 5 + 50 else { return nil }
                return make(.pyPIToken, text, start, end, shown: 9)
            }
        case ascii("e"):
            return jsonWebToken(text, at: start)
        default:
            break
        }
        return nil
    }

    /// `eyJ…` `.` `…` `.` `…`: the header segment must decode to a JSON object naming `"alg"`.
    static func jsonWebToken(_ text: Span<UInt8>, at start: Int) -> RawSecretMatch? {
        guard has(text, at: start, "eyJ") else { return nil }
        let headerLength = run(text, from: start, max: 1024, isBase64URLStrict)
        let payloadStart = start + headerLength + 1
        guard headerLength >= 10, payloadStart < text.count, text[payloadStart - 1] == ascii(".")
        else { return nil }
        let payloadLength = run(text, from: payloadStart, max: 64 * 1024, isBase64URLStrict)
        let signatureStart = payloadStart + payloadLength + 1
        guard payloadLength >= 10, signatureStart <= text.count,
            text[signatureStart - 1] == ascii(".")
        else { return nil }
        let signatureLength = run(text, from: signatureStart, max: 4096, isBase64URLStrict)
        guard let header = decodeBase64URL(text, start, start + headerLength),
            header.first == ascii("{"), contains(header, "\"alg\"")
        else { return nil }
        return make(.jsonWebToken, text, start, signatureStart + signatureLength, shown: 4)
    }

    // MARK: - Assignments

    /// `key = value`, `key: value`, `"key": "value"`, `key := value`, `key => value` where the key
    /// names a password or secret and the value is a plausible literal (see `isPlausibleValue`).
    static func assignment(_ text: Span<UInt8>, at operatorIndex: Int) -> RawSecretMatch? {
        let next = operatorIndex + 1 < text.count ? text[operatorIndex + 1] : 0
        let previous = operatorIndex > 0 ? text[operatorIndex - 1] : 0
        var valueStart = operatorIndex + 1
        var keyEnd = operatorIndex
        if text[operatorIndex] == ascii("=") {
            if next == ascii("=") || [ascii("="), ascii("!"), ascii("<"), ascii(">")].contains(previous) {
                return nil  // a comparison
            }
            if next == ascii(">") { valueStart += 1 }  // Perl, Ruby, PHP
            if previous == ascii(":") { keyEnd -= 1 }  // Go
        } else if next == ascii(":") || previous == ascii(":") || next == ascii("=") {
            return nil  // `::`, or the `:` of `:=` (handled at the `=`)
        }
        // The key, read backwards: spaces, a closing quote or bracket, then the name.
        var index = keyEnd - 1
        while index >= 0 && (text[index] == ascii(" ") || text[index] == ascii("\t")) { index -= 1 }
        if index >= 0 && text[index] == ascii("]") { index -= 1 }
        if index >= 0 && isQuote(text[index]) { index -= 1 }
        let nameEnd = index + 1
        while index >= 0 && nameEnd - index <= maximumKeyLength
            && (isWord(text[index]) || text[index] == ascii("-") || text[index] == ascii("."))
        {
            index -= 1
        }
        let nameStart = index + 1
        guard nameEnd - nameStart >= 3 else { return nil }
        let key = normalizedKey(text, nameStart, nameEnd)
        guard var pattern = keyPattern(key) else { return nil }
        // The value.
        index = valueStart
        while index < text.count && (text[index] == ascii(" ") || text[index] == ascii("\t")) {
            index += 1
        }
        guard index < text.count else { return nil }
        let isQuoted = isQuote(text[index])
        let literalStart = isQuoted ? index + 1 : index
        var literalEnd = literalStart
        if isQuoted {
            let quote = text[index]
            while literalEnd < text.count && text[literalEnd] != quote
                && text[literalEnd] != ascii("\n") && literalEnd - literalStart <= maximumValueLength
            {
                literalEnd += text[literalEnd] == ascii("\\") ? 2 : 1
            }
            guard literalEnd < text.count, text[literalEnd] == quote else { return nil }
        } else {
            while literalEnd < text.count && !isSpace(text[literalEnd])
                && text[literalEnd] != ascii(",") && text[literalEnd] != ascii(";")
                && literalEnd - literalStart <= maximumValueLength
            {
                literalEnd += 1
            }
        }
        let value = bytes(text, literalStart, literalEnd)
        if key.hasSuffix("secretaccesskey") || key.hasSuffix("awssecretkey") {
            if value.count == 40 && value.allSatisfy({ isAlphanumeric($0) || $0 == ascii("/") || $0 == ascii("+") }) {
                pattern = .awsSecretAccessKey
            }
        }
        guard pattern == .awsSecretAccessKey || isPlausibleValue(value, isQuoted: isQuoted) else {
            return nil
        }
        let name = string(text, nameStart, nameEnd)
        return RawSecretMatch(
            pattern: pattern, start: nameStart, end: literalEnd, excerpt: name + "=…")
    }

    /// Key endings (lower-cased, without `_`, `-`, `.`) that name a password.
    static let passwordKeys = ["password", "passwd", "pwd", "passphrase"]
    /// Key endings that name another secret.
    static let secretKeys = [
        "secret", "secretkey", "apikey", "apisecret", "accesstoken", "authtoken", "apitoken",
        "secrettoken", "bearertoken", "refreshtoken", "privatekey", "secretaccesskey", "awssecretkey",
        "clientsecret",
    ]

    static func keyPattern(_ key: String) -> SecretPattern? {
        if passwordKeys.contains(where: { key.hasSuffix($0) }) { return .passwordAssignment }
        if secretKeys.contains(where: { key.hasSuffix($0) }) { return .secretAssignment }
        return nil
    }

    /// A key lower-cased with `_`, `-` and `.` removed: `DB_PASSWORD` and `db.password` alike.
    static func normalizedKey(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> String {
        var bytes: [UInt8] = []
        for index in start..<end {
            let byte = text[index]
            if byte == ascii("_") || byte == ascii("-") || byte == ascii(".") { continue }
            bytes.append(isUpper(byte) ? byte + 32 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether an assigned value looks like a real secret rather than code, a name or a
    /// placeholder.
    ///
    /// Quoted: at least `minimumValueLength` characters, no spaces or template syntax, and either
    /// two character classes (lower, upper, digit, symbol) or twelve characters; names such as
    /// `api_key_header` or `SECRET_KEY` are not secrets. Unquoted (config files, `.env`): the
    /// same, but must hold a digit or a symbol and nothing that makes it an expression (calls,
    /// indexing, `$VAR`).
    static func isPlausibleValue(_ value: [UInt8], isQuoted: Bool) -> Bool {
        guard value.count >= minimumValueLength, value.count <= maximumValueLength,
            !isPlaceholder(value)
        else { return false }
        var hasLower = false
        var hasUpper = false
        var hasDigit = false
        var hasSymbol = false
        for byte in value {
            if isLower(byte) {
                hasLower = true
            } else if isUpper(byte) {
                hasUpper = true
            } else if isDigit(byte) {
                hasDigit = true
            } else if byte == ascii("_") || byte == ascii("-") || byte == ascii(".") {
                continue
            } else if isSpace(byte) || byte < 0x20 || "(){}[]<>\\\"'`,".utf8.contains(byte) {
                return false
            } else {
                hasSymbol = true
            }
        }
        let classes = [hasLower, hasUpper, hasDigit, hasSymbol].filter { $0 }.count
        // snake_case, kebab-case, SCREAMING_CASE and dotted names: identifiers, not secrets.
        if !hasDigit && !hasSymbol && !(hasLower && hasUpper) {
            if value.contains(ascii("_")) || value.contains(ascii("-")) || value.contains(ascii(".")) {
                return false
            }
        }
        if isQuoted { return classes >= 2 || value.count >= 12 }
        // Unquoted in code is mostly a reference (`config.api_key`, `String?`); in a config file
        // a real password has a digit somewhere.
        if !hasDigit || isReference(value) { return false }
        return classes >= 2
    }

    /// Whether an unquoted value is an identifier or dotted path with `_` or `.` in it
    /// (`api_key_v2`, `settings.key2`): a variable, not a literal.
    static func isReference(_ value: [UInt8]) -> Bool {
        guard let first = value.first, isLetter(first) || first == ascii("_") else { return false }
        guard value.allSatisfy({ isWord($0) || $0 == ascii(".") }) else { return false }
        return value.contains(ascii("_")) || value.contains(ascii("."))
    }

    /// Values that only stand in for a secret: empty, one repeated character, a template or
    /// variable reference, or a stock word.
    static func isPlaceholder(_ value: [UInt8]) -> Bool {
        guard let first = value.first else { return true }
        if value.allSatisfy({ $0 == first }) { return true }
        if "$%{<@&*".utf8.contains(first) { return true }
        let lower = String(decoding: value.map { isUpper($0) ? $0 + 32 : $0 }, as: UTF8.self)
        if placeholderWords.contains(lower) { return true }
        return placeholderFragments.contains { lower.contains($0) }
    }

    /// Whole values that are stock placeholders.
    static let placeholderWords: Set<String> = [
        "password", "passwd", "pass", "secret", "changeit", "example", "dummy", "test",
        "testing", "none", "null", "nil", "undefined", "true", "false", "hidden", "masked",
        "todo", "fixme", "username", "user", "pwd", "foo", "bar", "baz", "foobar", "token",
        "apikey", "api_key", "secretkey", "secret_key", "mypassword", "password123", "123456",
        "12345678", "qwerty",
    ]

    /// Fragments that mark a value as a placeholder wherever they appear.
    static let placeholderFragments = [
        "${", "{{", "%(", "$(", "example", "placeholder", "changeme", "change_me", "change-me",
        "your", "xxxx", "****", "....", "redacted", "dummy", "sample", "fake", "insert", "replace",
    ]

    // MARK: - URLs

    /// `scheme://user:password@host` with a literal password.
    static func urlCredentials(_ text: Span<UInt8>, at colon: Int) -> RawSecretMatch? {
        guard has(text, at: colon, "://") else { return nil }
        var schemeStart = colon
        while schemeStart > 0 && colon - schemeStart < 32 {
            let byte = text[schemeStart - 1]
            guard isAlphanumeric(byte) || byte == ascii("+") || byte == ascii("-") || byte == ascii(".")
            else { break }
            schemeStart -= 1
        }
        guard colon - schemeStart >= 2, isLetter(text[schemeStart]) else { return nil }
        let userStart = colon + 3
        var index = userStart
        var passwordStart: Int?
        while index < text.count && index - userStart < maximumValueLength {
            let byte = text[index]
            if byte == ascii("@") { break }
            if isSpace(byte) || "/?#\"'<>`[]{}()\\".utf8.contains(byte) { return nil }
            if byte == ascii(":") && passwordStart == nil { passwordStart = index + 1 }
            index += 1
        }
        guard let passwordStart, index < text.count, text[index] == ascii("@"),
            index + 1 < text.count, isAlphanumeric(text[index + 1])
        else { return nil }
        let password = bytes(text, passwordStart, index)
        guard password.count >= 3, !isPlaceholder(password) else { return nil }
        let prefix = string(text, schemeStart, passwordStart)
        var hostEnd = index + 1
        while hostEnd < text.count && hostEnd - index < 64
            && (isAlphanumeric(text[hostEnd]) || text[hostEnd] == ascii(".") || text[hostEnd] == ascii("-"))
        {
            hostEnd += 1
        }
        let host = string(text, index + 1, hostEnd)
        return RawSecretMatch(
            pattern: .urlCredentials, start: schemeStart, end: index,
            excerpt: prefix + "…@" + host)
    }

    // MARK: - Byte helpers

    @inline(__always) static func ascii(_ character: Unicode.Scalar) -> UInt8 {
        UInt8(truncatingIfNeeded: character.value)
    }
    @inline(__always) static func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5a }
    @inline(__always) static func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7a }
    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    @inline(__always) static func isLetter(_ byte: UInt8) -> Bool { isUpper(byte) || isLower(byte) }
    @inline(__always) static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte)
    }
    /// Letters, digits and `_`: what identifiers and most tokens are made of.
    @inline(__always) static func isWord(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == 0x5f
    }
    @inline(__always) static func isBase64URL(_ byte: UInt8) -> Bool {
        isWord(byte) || byte == 0x2d
    }
    @inline(__always) static func isBase64URLStrict(_ byte: UInt8) -> Bool { isBase64URL(byte) }
    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d
    }
    @inline(__always) static func isQuote(_ byte: UInt8) -> Bool {
        byte == 0x22 || byte == 0x27 || byte == 0x60
    }

    /// The bytes of `text[start..<end]`, copied.
    static func bytes(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(end - start)
        for index in start..<end { result.append(text[index]) }
        return result
    }

    /// `text[start..<end]` decoded as UTF-8 (invalid bytes become U+FFFD).
    static func string(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: bytes(text, start, end), as: UTF8.self)
    }

    /// Whether `literal` occurs in `text` at `index`.
    static func has(_ text: Span<UInt8>, at index: Int, _ literal: String) -> Bool {
        var offset = index
        guard index >= 0 else { return false }
        for byte in literal.utf8 {
            guard offset < text.count, text[offset] == byte else { return false }
            offset += 1
        }
        return true
    }

    /// How many bytes from `index` satisfy `accept`, counting at most `max`.
    @inline(__always)
    static func run(_ text: Span<UInt8>, from index: Int, max: Int, _ accept: (UInt8) -> Bool) -> Int {
        var end = index
        while end < text.count && end - index < max && accept(text[end]) { end += 1 }
        return end - index
    }

    /// The length of the base64 run (`A–Z a–z 0–9 + / =`) at `index`.
    static func base64Run(_ text: Span<UInt8>, from index: Int) -> Int {
        run(text, from: index, max: 80) {
            isAlphanumeric($0) || $0 == ascii("+") || $0 == ascii("/") || $0 == ascii("=")
        }
    }

    /// The first position of `literal` at or after `index`, looking at most `within` bytes.
    static func find(_ text: Span<UInt8>, _ literal: String, from index: Int, within: Int) -> Int? {
        guard let first = literal.utf8.first else { return index }
        var position = index
        let limit = min(text.count, index + within)
        while position < limit {
            if text[position] == first && has(text, at: position, literal) { return position }
            position += 1
        }
        return nil
    }

    static func containsDigit(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Bool {
        for index in start..<end where isDigit(text[index]) { return true }
        return false
    }

    static func hasMixedCaseAndDigits(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var lower = false
        var upper = false
        var digit = false
        for index in start..<end {
            let byte = text[index]
            lower = lower || isLower(byte)
            upper = upper || isUpper(byte)
            digit = digit || isDigit(byte)
        }
        return lower && upper && digit
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let bytes = Array(needle.utf8)
        guard haystack.count >= bytes.count else { return false }
        for start in 0...(haystack.count - bytes.count)
        where haystack[start..<(start + bytes.count)].elementsEqual(bytes) {
            return true
        }
        return false
    }

    /// Decodes unpadded base64url (RFC 4648 §5); nil on a character outside the alphabet.
    static func decodeBase64URL(_ text: Span<UInt8>, _ start: Int, _ end: Int) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for index in start..<end {
            let byte = text[index]
            let value: UInt32
            if isUpper(byte) {
                value = UInt32(byte - 0x41)
            } else if isLower(byte) {
                value = UInt32(byte - 0x61 + 26)
            } else if isDigit(byte) {
                value = UInt32(byte - 0x30 + 52)
            } else if byte == ascii("-") {
                value = 62
            } else if byte == ascii("_") {
                value = 63
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

    /// A token match whose excerpt shows its first `shown` bytes (the public prefix) and last two.
    static func make(
        _ pattern: SecretPattern, _ text: Span<UInt8>, _ start: Int, _ end: Int, shown: Int
    ) -> RawSecretMatch {
        let head = string(text, start, start + shown)
        let tail = string(text, end - 2, end)
        return RawSecretMatch(pattern: pattern, start: start, end: end, excerpt: head + "…" + tail)
    }
}
