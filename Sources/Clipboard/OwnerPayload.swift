/// What a launcher sends a detached owner (`SelectionOwnerProcess`, `DataControlOwnerProcess`)
/// on its stdin: one byte of flags, then the text; nothing at all when there is nothing to copy
/// (the caller started the owner ahead of time and its upload failed).
///
/// The flags come with the text, not on the command line, because an owner is started before
/// the text is known (`Clipboard.prepareWrite`), and whether a URL carries its own key is known
/// only with the URL.
enum OwnerPayload {
    /// The flag bit: offer the text with the password manager's mark (`PasswordManagerHint`).
    static let secretFlag: UInt8 = 1

    /// The bytes for `text`.
    static func encode(_ text: [UInt8], isSecret: Bool) -> [UInt8] {
        [isSecret ? secretFlag : 0] + text
    }

    /// The text and its mark, or nil for an empty payload (nothing to copy).
    static func decode(_ payload: [UInt8]) -> (text: [UInt8], isSecret: Bool)? {
        guard let flags = payload.first, payload.count > 1 else { return nil }
        return (Array(payload.dropFirst()), flags & secretFlag != 0)
    }
}
