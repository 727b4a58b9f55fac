/// Which X selection (or its Wayland equivalent) to read or write.
public enum Selection: String, Sendable, CaseIterable {
    /// `CLIPBOARD`: what Ctrl+C / Ctrl+V use.
    case clipboard
    /// `PRIMARY`: the last text selected with the mouse, pasted with the middle button.
    case primary

    /// The X atom name of the selection.
    var atomName: String {
        switch self {
        case .clipboard: "CLIPBOARD"
        case .primary: "PRIMARY"
        }
    }
}

/// A place text can be read from and written to: the X11 selections, the compositor's
/// data-control, wl-clipboard.
///
/// Two requirements: `read(_:)` of one `ReadRequest` value (selection, preferences, an
/// optional observer, and whether the copy that follows keeps what the read used), and
/// `prepareWrite(to:)`. The plain reads (`read(_:timeout:)`, `readContent`) and `write` are
/// built on them below, the same for every backend.
///
/// Text is UTF-8 bytes in both directions; a read may also give an image (written back is
/// always text: the URL).
///
/// Writing means that some process owns the selection on our behalf after the caller returns
/// (X11 and data-control: a detached owner; wl-clipboard: `wl-copy`'s server). How that process
/// comes to be is the clipboard's own business, never the caller's: the caller says only *when*
/// it knows it will copy (`prepareWrite`, up front, so the slow start overlaps its work), or that
/// the copy follows a read (`ReadRequest.copyTarget`, so the reader's connection can serve the
/// copy). For X11 the choice is made in this module (STYLE rule 21): while the process has one
/// thread the owner is forked (from the reader's connection after a read, before any connection
/// otherwise); a process with more threads spawns the helper (`SelectionOwnerProcess`).
public protocol Clipboard {
    /// Reads what `request.selection` holds: its text, or, when the request accepts an image
    /// and the owner offers one (`ImageTarget`: PNG first) and no text, the image's bytes and
    /// MIME type. Text wins over an image unless `preferences.prefersImage`.
    ///
    /// A large text transfer is shown to `request.observer` while it arrives, on a thread
    /// joined before this returns; with a `copyTarget`, the result's `write` is the copy, begun.
    ///
    /// - Throws: `ClipboardError.empty` when nobody owns the selection or it holds no bytes,
    ///   `.noTextTarget` (text only) or `.noContentTarget` when it offers nothing readable,
    ///   `.tooLarge` past `preferences.imageLimit`, `.exceedsLimit` past `readLimit`,
    ///   `.timedOut` when the owner never answers, `.markedSecret` for a password manager's text.
    func read<State: Sendable>(_ request: ReadRequest<State>) throws(ClipboardError) -> ReadResult<State>

    /// Begins a write before the text is known (a copy session), so its slow start overlaps the
    /// caller's work; `complete(with:)` hands over the text. Released without `complete`, the
    /// selection keeps what it had.
    func prepareWrite(to selection: Selection) throws(ClipboardError) -> any PreparedClipboardWrite

    /// This clipboard with a read of `selection` begun now, before the caller knows how it will
    /// read (its configuration is not loaded yet): the returned clipboard's first read of
    /// `selection` continues it, so the server's and the owner's first answers come while the
    /// caller works. Never throws: a failure is the read's to throw, as it would have. Released
    /// unread, what was begun ends. By default nothing is begun (`self`).
    func beginRead(_ selection: Selection) -> any Clipboard
}

/// A write whose slow part may already have begun (see `Clipboard.prepareWrite`).
public protocol PreparedClipboardWrite: AnyObject {
    /// Hands over the text and returns once it is in the selection.
    ///
    /// - Parameter isSecret: offer the password manager's mark beside the text
    ///   (`PasswordManagerHint`: a URL that carries its own key), so clipboard managers leave it
    ///   out of their history. A backend that cannot offer it (wl-copy 2.1) copies the text alone.
    /// - Returns: what became of the mark: the write itself says whether it offered it, so no
    ///   caller has to know which backend wrote.
    @discardableResult
    func complete(with text: [UInt8], isSecret: Bool) throws(ClipboardError) -> SecretMark
}

/// What a completed write did about the password manager's mark (`PasswordManagerHint`).
public enum SecretMark: Equatable, Sendable {
    /// The text is no secret: no mark was asked for.
    case notAsked
    /// The mark is offered beside the text.
    case offered
    /// The mark was asked for, but `writer` (the program that owns the selection for us, e.g.
    /// `wl-copy`) has no way to offer it: the text is in the selection unmarked.
    case unavailable(writer: String)

    /// The mark a writer that can offer it gives: `offered` for a secret.
    static func offerable(_ isSecret: Bool) -> SecretMark { isSecret ? .offered : .notAsked }
}

extension PreparedClipboardWrite {
    /// Hands over text that is no secret.
    public func complete(with text: [UInt8]) throws(ClipboardError) {
        try complete(with: text, isSecret: false)
    }
}

/// A write that simply happens on `complete`, by a program (`writer`) that cannot offer the mark.
final class DeferredWrite: PreparedClipboardWrite {
    private let write: (([UInt8], Bool) throws(ClipboardError) -> SecretMark)
    /// `write` copies the text (with the mark when asked and it can) and says what became of
    /// the mark.
    init(write: @escaping ([UInt8], Bool) throws(ClipboardError) -> SecretMark) {
        self.write = write
    }
    @discardableResult
    func complete(with text: [UInt8], isSecret: Bool) throws(ClipboardError) -> SecretMark {
        try write(text, isSecret)
    }
}

extension Clipboard {
    public func beginRead(_ selection: Selection) -> any Clipboard { self }

    /// The default time to wait for a selection owner's answer before `ClipboardError.timedOut`.
    public static var defaultReadTimeout: Duration { .seconds(2) }

    /// The text currently in `selection`.
    ///
    /// - Parameter timeout: how long to wait for the owner at each step before giving up.
    /// - Throws: `ClipboardError.empty` when nobody owns it or it holds no bytes,
    ///   `.noTextTarget` when it holds only non-text data, `.timedOut` when the owner never answers.
    public func read(_ selection: Selection, timeout: Duration) throws(ClipboardError) -> [UInt8] {
        try read(ReadRequest(selection, timeout: timeout, acceptsImage: false)).content.bytes
    }

    /// `read(_:timeout:)` with `defaultReadTimeout`.
    public func read(_ selection: Selection) throws(ClipboardError) -> [UInt8] {
        try read(selection, timeout: Self.defaultReadTimeout)
    }

    /// What `selection` holds: its text, or its image (see `read(_:)` of a request).
    ///
    /// - Parameters:
    ///   - timeout: how long to wait for the owner at each step before giving up.
    ///   - preferences: text or image first, and the most bytes read.
    public func readContent(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences
    ) throws(ClipboardError) -> ClipboardContent {
        try read(ReadRequest(selection, timeout: timeout, preferences: preferences)).content
    }

    /// Puts `text` into `selection` and returns once something owns it on our behalf.
    public func write(_ text: [UInt8], to selection: Selection) throws(ClipboardError) {
        try prepareWrite(to: selection).complete(with: text)
    }
}
