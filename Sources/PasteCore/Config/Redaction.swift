/// Hides secrets in what paste prints: `--dry-run`, `--verbose` and error messages.
public enum Redaction {
    /// What replaces a secret.
    public static let mask = "[redacted]"

    /// Header names whose values are credentials, whatever words they hold.
    static let sensitiveNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
        "x-auth-token", "x-token", "private-token", "x-access-token",
    ]

    /// Header names that never carry a credential: their values are not registered for
    /// masking (`Redactor.register(header:)`), so a `Content-Type` stays readable.
    static let publicNames: Set<String> = [
        "accept", "accept-charset", "accept-encoding", "accept-language", "cache-control", "connection",
        "content-disposition", "content-encoding", "content-language", "content-type", "dnt", "expect", "origin",
        "pragma", "referer", "user-agent", "x-requested-with",
    ]

    /// Whether a `Name: value` header line carries a credential: a known name, or one holding
    /// `auth`, `token`, `secret`, `password`, `passwd`, `apikey` or `api-key`, or ending in
    /// `-key` (`X-Auth`, `X-Auth-Token`, `Private-Token`, `X-Secret`).
    ///
    /// The one rule for `--dry-run` and the `-v` trace (Upload's `HeaderRedaction`) alike.
    public static func isSensitiveHeader(_ line: String) -> Bool {
        let name = (line.firstIndex(of: ":").map { line[..<$0] } ?? line[...]).trimmingSpaces().lowercased()
        return isSensitiveHeaderName(name)
    }

    /// Whether a header name (lower case) names a credential (see `isSensitiveHeader`).
    static func isSensitiveHeaderName(_ name: String) -> Bool {
        sensitiveNames.contains(name) || holdsAny(name, headerWords) || name.hasSuffix("-key")
    }

    /// The shortest value `looksLikeCredential` takes for one.
    static let shortestCredential = 16

    /// Whether a value of a header not named like a credential looks like one anyway: at least
    /// `shortestCredential` characters with no space, letters and digits mixed (a token, a
    /// key, a UUID), not a word or a media type.
    public static func looksLikeCredential(_ value: some StringProtocol) -> Bool {
        value.count >= shortestCredential && !value.contains(where: \.isWhitespace)
            && value.contains(where: \.isLetter) && value.contains(where: \.isNumber)
    }

    /// Whether a header of this name never carries a credential (`Content-Type`, `Accept`, …).
    public static func isPublicHeader(_ name: String) -> Bool {
        publicNames.contains(name.trimmingSpaces().lowercased())
    }

    /// Whether a URL query parameter of this name carries a credential: a field name that does
    /// (`isSensitiveField`: `api_key`, `access_token`, `secret`, `password`), or one holding
    /// `auth` (`auth`, `oauth_signature`).
    public static func isSensitiveQuery(_ name: String) -> Bool {
        isSensitiveField(name) || holdsAny(name.lowercased(), [Array("auth".utf8)])
    }

    /// Whether a form field (or JSON member) of this name carries a credential: its name holds
    /// `token`, `secret`, `password` or `passwd`, or ends in `key` (`api_key`, `apikey`).
    ///
    /// The classic pastie field `paste[authorization]=burger` is deliberately not one: it is a
    /// shared word every client sends, written in the design's own example config.
    public static func isSensitiveField(_ name: String) -> Bool {
        let lower = name.lowercased()
        return holdsAny(lower, fieldWords) || lower.hasSuffix("key") || lower.hasSuffix("key]")
    }

    /// The words that make a header name a credential's, in UTF-8.
    private static let headerWords = ["auth", "token", "secret", "password", "passwd", "apikey", "api-key"].map {
        Array($0.utf8)
    }

    /// The words that make a field name a credential's, in UTF-8.
    private static let fieldWords = ["token", "secret", "password", "passwd"].map { Array($0.utf8) }

    /// Whether one of `words` is somewhere in `text`, byte by byte.
    ///
    /// PERF(hotkey): `String.contains(String)` goes through `_StringProcessing`'s generic
    /// searcher, whose first use alone was ~7 % of a 1 KiB dry run's instructions.
    private static func holdsAny(_ text: String, _ words: [[UInt8]]) -> Bool {
        let bytes = Array(text.utf8)
        return words.contains { word in
            bytes.count >= word.count
                && (0...(bytes.count - word.count)).contains { bytes[$0..<($0 + word.count)].elementsEqual(word) }
        }
    }

    /// The header line with its value masked when it is a credential.
    public static func header(_ line: String) -> String {
        guard isSensitiveHeader(line), let colon = line.firstIndex(of: ":") else { return line }
        let value = line[line.index(after: colon)...].trimmingSpaces()
        // Keep the scheme word of `Authorization: Bearer xyz` so the reader knows what was sent.
        if let space = value.firstIndex(of: " "), value[..<space].allSatisfy(\.isLetter) {
            return "\(line[..<colon]): \(value[..<space]) \(mask)"
        }
        return "\(line[..<colon]): \(mask)"
    }
}
