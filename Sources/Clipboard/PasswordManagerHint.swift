/// The mark a password manager puts beside what it copies: the target (X11) or MIME type
/// (Wayland) `x-kde-passwordManagerHint`, whose value is `secret`.
///
/// KeePassXC, KDE applications and `wl-copy --sensitive` offer it with a password; clipboard
/// managers (Klipper, CopyQ, cliphist, clipcat) leave such content out of their history. paste
/// reads the mark and refuses the content (`ClipboardError.markedSecret`), and offers the mark
/// itself beside a URL that carries its own key (`ClipboardText.isSecret`).
///
/// The mark is read on every side paste can see: with XWayland beside a compositor, the X
/// selection's as well as the Wayland one's, since a compositor's bridge may carry the text
/// without it (sway's carries `text/plain;charset=utf-8` alone).
public enum PasswordManagerHint {
    /// The target or MIME type's name.
    public static let name = "x-kde-passwordManagerHint"
    /// The value that marks the content a secret.
    public static let secret: [UInt8] = Array("secret".utf8)

    /// Whether an owner that offers the mark, and answered it with `answer`, marks its content a
    /// secret: the value `secret` (trailing white space and NULs aside) does; so does an owner
    /// that cannot say what its mark means (no answer, `nil`: a refusal, a timeout, an `INCR`
    /// transfer not read; or an answer of nothing but white space), taken at its word. Any other
    /// value is an explicit "not a secret".
    static func marksSecret(_ answer: [UInt8]?) -> Bool {
        guard let answer else { return true }
        var trimmed = answer[...]
        while let last = trimmed.last, last == 0 || last == 0x0A || last == 0x0D || last == 0x20 {
            trimmed = trimmed.dropLast()
        }
        return trimmed.isEmpty || trimmed.elementsEqual(secret)
    }
}
