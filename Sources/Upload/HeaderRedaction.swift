/// Hides credentials in trace lines before anyone sees them.
enum HeaderRedaction {
    /// Header names whose values are secrets, compared lowercased.
    static let secretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
    ]

    /// What replaces a secret value.
    static let mask = "<redacted>"

    /// Proxy credentials shorter than this are not searched for in trace lines: a one- or
    /// two-letter user name would mask pieces of ordinary words (the header that carries them,
    /// Proxy-Authorization, is masked whole anyway).
    static let shortestSecret = 3

    /// Whether a header name holds a secret: the known names, and anything naming a token,
    /// a key, a secret or a password (`X-Auth-Token`, `Private-Token`, `X-Secret`).
    static func isSecret(_ name: String) -> Bool {
        let lower = name.lowercased()
        if secretHeaders.contains(lower) { return true }
        return ["token", "secret", "password", "passwd", "api-key", "apikey", "auth"].contains {
            lower.contains($0)
        }
    }

    /// The line with its value masked when it is a `Name: value` header holding a secret.
    static func redact(_ line: String) -> String {
        guard let colon = line.firstIndex(of: ":") else { return line }
        let name = line[..<colon]
        guard !name.contains(" "), isSecret(String(name)) else { return line }
        return "\(name): \(mask)"
    }

    /// The line with every occurrence of the given secrets (a proxy's user and password, which
    /// libcurl may name in its notes: "Proxy auth using Basic with user '…'") masked.
    static func redact(_ line: String, secrets: Set<String>) -> String {
        var result = line
        for secret in secrets where result.contains(secret) {
            result = result.replacing(secret, with: mask)
        }
        return result
    }
}
