import PasteCore

/// Hides credentials in trace lines before anyone sees them.
///
/// Which headers hold one is PasteCore's rule (`Redaction.isSensitiveHeader`), the same one
/// `--dry-run` follows; the values themselves are masked again by the run's `Redactor` on the
/// way out.
enum HeaderRedaction {
    /// What replaces a secret value.
    static let mask = Redaction.mask

    /// Proxy credentials shorter than this are not searched for in trace lines: a one- or
    /// two-letter user name would mask pieces of ordinary words (the header that carries them,
    /// Proxy-Authorization, is masked whole anyway).
    static let shortestSecret = Redactor.shortestValue

    /// Whether a header name holds a secret: the known names, and anything naming a token,
    /// a key, a secret or a password (`X-Auth-Token`, `Private-Token`, `X-Secret`).
    static func isSecret(_ name: String) -> Bool {
        Redaction.isSensitiveHeader(name)
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
