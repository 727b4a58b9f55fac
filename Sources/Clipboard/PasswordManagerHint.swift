/// The mark a password manager puts beside what it copies: the target (X11) or MIME type
/// (Wayland) `x-kde-passwordManagerHint`, whose value is `secret`.
///
/// KeePassXC, KDE applications and `wl-copy --sensitive` offer it with a password; clipboard
/// managers (Klipper, CopyQ, cliphist, clipcat) leave such content out of their history. paste
/// reads the mark and refuses the content (`ClipboardError.markedSecret`), and offers the mark
/// itself beside a URL that carries its own key (`ClipboardText.isSecret`).
public enum PasswordManagerHint {
    /// The target or MIME type's name.
    public static let name = "x-kde-passwordManagerHint"
    /// The value that marks the content a secret.
    public static let secret: [UInt8] = Array("secret".utf8)

    /// Whether an answer for the hint says `secret` (trailing white space aside).
    static func isSecret(_ value: [UInt8]) -> Bool {
        var trimmed = value[...]
        while let last = trimmed.last, last == 0 || last == 0x0A || last == 0x0D || last == 0x20 {
            trimmed = trimmed.dropLast()
        }
        return trimmed.elementsEqual(secret)
    }
}
