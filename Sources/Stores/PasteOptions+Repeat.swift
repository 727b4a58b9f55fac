import PasteCore

extension PasteOptions {
    /// A short digest of every option that changes the paste made of a text: `-p`, `-e`
    /// (`never` included), `-t`, `-l` and `--burn`. Kept in each history record, so the repeat
    /// window reuses a URL only for a paste made the same way (`History.recent`): a private
    /// paste never gets a public paste's URL, nor `-e 1w` the URL of one that expires in an hour.
    ///
    /// Sixteen hexadecimal digits of the SHA-256 of a canonical line (`JSONText.quote`d
    /// strings, so no title can pass for another field). The service is not part of it: a
    /// record names its service already.
    public var repeatKey: String {
        let canonical =
            "private=\(isPrivate) expiry=\(expirySeconds.map(String.init) ?? "-") never=\(neverExpires)"
            + " burn=\(burnsAfterReading) title=\(title.map(JSONText.quote) ?? "-")"
            + " lang=\(language.map(JSONText.quote) ?? "-")"
        return String(ContentDigest.sha256(Array(canonical.utf8)).prefix(Self.repeatKeyLength))
    }

    /// How many hexadecimal digits `repeatKey` keeps: 64 bits, so two option sets of one text
    /// never share a key by chance.
    static let repeatKeyLength = 16
}
