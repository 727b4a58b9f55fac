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

/// A place text can be read from and written to: the X11 selections, wl-clipboard, ...
///
/// Text is UTF-8 bytes in both directions; `readContent` also reads an image (written back is
/// always text: the URL).
///
/// Writing means that some process owns the selection on our behalf after the caller returns
/// (X11: a detached owner; Wayland: `wl-copy`'s server). How that process comes to be is the
/// clipboard's own business, never the caller's: the caller says only *when* it knows it will
/// copy (`prepareWrite`, up front, so the slow start overlaps its work), or that the copy
/// follows a read (`readKeepingConnection`, so the reader's connection can serve the copy).
/// For X11 the choice is made in this module (STYLE rule 21): while the process has one thread
/// the owner is forked (from the reader's connection after a read, before any connection
/// otherwise); a process with more threads spawns the helper (`SelectionOwnerProcess`).
public protocol Clipboard {
    /// The text currently in `selection`.
    ///
    /// - Parameter timeout: how long to wait for the owner at each step before giving up.
    /// - Throws: `ClipboardError.empty` when nobody owns it or it holds no bytes,
    ///   `.noTextTarget` when it holds only non-text data, `.timedOut` when the owner never answers.
    func read(_ selection: Selection, timeout: Duration) throws(ClipboardError) -> [UInt8]

    /// Puts `text` into `selection` and returns once something owns it on our behalf.
    func write(_ text: [UInt8], to selection: Selection) throws(ClipboardError)

    /// Begins a write before the text is known (a copy session), so its slow start overlaps the
    /// caller's work; `complete(with:)` hands over the text. Released without `complete`, the
    /// selection keeps what it had.
    func prepareWrite(to selection: Selection) throws(ClipboardError) -> any PreparedClipboardWrite

    /// Reads `selection`, and begins a write to `target` that may take over what the read used
    /// (the X11 connection, its window and the server time): the hotkey path, where the text
    /// read is uploaded and its URL copied.
    func readKeepingConnection(
        _ selection: Selection, timeout: Duration, ownerOf target: Selection
    ) throws(ClipboardError) -> (text: [UInt8], write: any PreparedClipboardWrite)

    /// What `selection` holds: its text, or, when it offers an image (`ImageTarget`: PNG first)
    /// and no text, the image's bytes and MIME type.
    ///
    /// Text wins over an image unless `preferences.prefersImage`. Asking costs what `read`
    /// costs when the owner has text; an image-only owner refuses text first, and its targets
    /// name the image.
    ///
    /// - Parameters:
    ///   - timeout: how long to wait for the owner at each step before giving up.
    ///   - preferences: text or image first, and the most bytes of an image read.
    /// - Throws: `ClipboardError.empty`, `.noContentTarget` when it offers neither text nor an
    ///   image, `.tooLarge` when an image goes past `preferences.imageLimit`, `.timedOut`.
    func readContent(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences
    ) throws(ClipboardError) -> ClipboardContent

    /// `readContent`, beginning a write to `target` that may take over what the read used, as
    /// `readKeepingConnection` does for text: an image's URL goes back as text the same way.
    func readContentKeepingConnection(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences, ownerOf target: Selection
    ) throws(ClipboardError) -> (content: ClipboardContent, write: any PreparedClipboardWrite)

    /// `readContent`, with the text of a large transfer shown to `observer` while it arrives
    /// (see `TextObserver`): the secret guard's scan of a large clipboard overlaps the transfer.
    ///
    /// - Parameters:
    ///   - timeout: how long to wait for the owner at each step before giving up.
    ///   - preferences: text or image first, and the most bytes read (`readLimit`, paste's
    ///     `max-clipboard`; `imageLimit` for an image).
    ///   - observer: sees the text of a large transfer as it arrives; nil for none.
    /// - Returns: what `readContent` returns, and the observer's state when it saw all of the
    ///   text; nil when it saw none of it (a reply in one piece, an image, no observer): the
    ///   caller then looks at the text whole.
    /// - Throws: what `readContent` throws; `.exceedsLimit` past `preferences.readLimit`.
    func readContent<State: Sendable>(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences, observer: TextObserver<State>?
    ) throws(ClipboardError) -> ObservedContent<State>

    /// `readContent(_:timeout:preferences:observer:)`, beginning a write to `target` that may
    /// take over what the read used, as `readContentKeepingConnection(_:timeout:preferences:ownerOf:)`
    /// does: the hotkey path.
    func readContentKeepingConnection<State: Sendable>(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences, observer: TextObserver<State>?,
        ownerOf target: Selection
    ) throws(ClipboardError) -> (content: ObservedContent<State>, write: any PreparedClipboardWrite)
}

/// A write whose slow part may already have begun (see `Clipboard.prepareWrite`).
public protocol PreparedClipboardWrite: AnyObject {
    /// Hands over the text and returns once it is in the selection.
    ///
    /// - Parameter isSecret: offer the password manager's mark beside the text
    ///   (`PasswordManagerHint`: a URL that carries its own key), so clipboard managers leave it
    ///   out of their history. A backend that cannot offer it (wl-copy 2.1) copies the text alone.
    func complete(with text: [UInt8], isSecret: Bool) throws(ClipboardError)
}

extension PreparedClipboardWrite {
    /// Hands over text that is no secret.
    public func complete(with text: [UInt8]) throws(ClipboardError) {
        try complete(with: text, isSecret: false)
    }
}

extension Clipboard {
    /// By default nothing can start early: the write happens when the text comes.
    public func prepareWrite(to selection: Selection) throws(ClipboardError) -> any PreparedClipboardWrite {
        DeferredWrite(write: { text throws(ClipboardError) in try self.write(text, to: selection) })
    }

    /// By default a read keeps nothing: the write is prepared after it.
    public func readKeepingConnection(
        _ selection: Selection, timeout: Duration, ownerOf target: Selection
    ) throws(ClipboardError) -> (text: [UInt8], write: any PreparedClipboardWrite) {
        let text = try read(selection, timeout: timeout)
        return (text, try prepareWrite(to: target))
    }

    /// By default nothing observes a read (a backend that reads in increments does better):
    /// the caller looks at the whole text.
    public func readContent<State: Sendable>(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences, observer: TextObserver<State>?
    ) throws(ClipboardError) -> ObservedContent<State> {
        ObservedContent(
            content: try readContent(selection, timeout: timeout, preferences: preferences), observation: nil)
    }

    /// By default an observed read is not observed, as above.
    public func readContentKeepingConnection<State: Sendable>(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences, observer: TextObserver<State>?,
        ownerOf target: Selection
    ) throws(ClipboardError) -> (content: ObservedContent<State>, write: any PreparedClipboardWrite) {
        let read = try readContentKeepingConnection(
            selection, timeout: timeout, preferences: preferences, ownerOf: target)
        return (ObservedContent(content: read.content, observation: nil), read.write)
    }

    /// By default a content read keeps nothing either.
    public func readContentKeepingConnection(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences, ownerOf target: Selection
    ) throws(ClipboardError) -> (content: ClipboardContent, write: any PreparedClipboardWrite) {
        let content = try readContent(selection, timeout: timeout, preferences: preferences)
        return (content, try prepareWrite(to: target))
    }
}

/// A write that simply happens on `complete`.
final class DeferredWrite: PreparedClipboardWrite {
    private let write: (([UInt8]) throws(ClipboardError) -> Void)
    init(write: @escaping ([UInt8]) throws(ClipboardError) -> Void) { self.write = write }
    /// The mark is not offered: the backends that write this way (wl-copy) have no way to.
    func complete(with text: [UInt8], isSecret: Bool) throws(ClipboardError) { try write(text) }
}

extension Clipboard {
    /// The default time to wait for a selection owner's answer before `ClipboardError.timedOut`.
    public static var defaultReadTimeout: Duration { .seconds(2) }

    /// `read(_:timeout:)` with `defaultReadTimeout`.
    public func read(_ selection: Selection) throws(ClipboardError) -> [UInt8] {
        try read(selection, timeout: Self.defaultReadTimeout)
    }
}
