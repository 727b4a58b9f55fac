import SystemInterop

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

    /// What an owner process got on its stdin.
    enum Received {
        /// The text to own, and whether it goes with the mark; stdin is on /dev/null now.
        case text([UInt8], isSecret: Bool)
        /// Nothing: the caller started the owner ahead of time and had nothing to copy in the
        /// end. The owner leaves without touching the selection: it keeps what it had.
        case nothing
        /// Stdin could not be read.
        case readFailed
    }

    /// Reads the whole payload from stdin (to its end of file: the launcher closes it once the
    /// text is sent) and decodes it.
    static func receive() -> Received {
        let payload: [UInt8]
        do {
            payload = try StandardStream.input.withDescriptor { (input) throws(Errno) in try input.readAll() }
        } catch {
            return .readFailed
        }
        guard let (text, isSecret) = decode(payload) else { return .nothing }
        StandardStream.input.redirectToNull()
        return .text(text, isSecret: isSecret)
    }
}
