/// Hides secrets in what paste prints: `--dry-run`, `--verbose` and error messages.
public enum Redaction {
    /// What replaces a secret.
    public static let mask = "[redacted]"

    /// Header names whose values are credentials.
    static let sensitiveNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
        "x-auth-token", "x-token", "private-token", "x-access-token",
    ]

    /// Whether a `Name: value` header line carries a credential.
    public static func isSensitiveHeader(_ line: String) -> Bool {
        guard let colon = line.firstIndex(of: ":") else { return false }
        let name = line[..<colon].trimmingSpaces().lowercased()
        return sensitiveNames.contains(name) || name.contains("token") || name.contains("secret")
            || name.contains("password") || name.hasSuffix("-key")
    }

    /// Whether a form field (or JSON member) of this name carries a credential: its name holds
    /// `token`, `secret`, `password` or `passwd`, or ends in `key` (`api_key`, `apikey`).
    ///
    /// The classic pastie field `paste[authorization]=burger` is deliberately not one: it is a
    /// shared word every client sends, written in the design's own example config.
    public static func isSensitiveField(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["token", "secret", "password", "passwd"].contains { lower.contains($0) }
            || lower.hasSuffix("key") || lower.hasSuffix("key]")
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
