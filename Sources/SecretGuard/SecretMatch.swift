import PasteCore

/// A match before line and column are known: the byte range and what to show of it.
struct SecretMatch: Sendable, Equatable {
    var pattern: SecretPattern
    /// The first byte of the match.
    var start: Int
    /// One past the last byte of the secret itself (for assignments: of the value).
    var end: Int
    /// A redacted excerpt (`AKIA…XY`).
    var excerpt: String
    var rank: SecretRule.Rank
    /// Where the secret value begins, counted from `start` (0: the whole match is the secret);
    /// the key name or scheme before it is what masking keeps (`SecretMasking`).
    var valueOffset = 0
    /// Whether the match was found in decoded text (base64, escapes) and placed back on the
    /// bytes it came from: masking then takes the whole encoded run.
    var isDecoded = false
}
