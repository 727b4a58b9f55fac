/// One read of a selection, as a value: what to read, how, what looks at its text while it
/// arrives, and whether the copy that follows may take over what the read used.
///
/// It replaces the grid of `{text, content} × {plain, keeping the connection} × {observer or
/// not}` methods `Clipboard` once had: every backend answers one `read(_:)`, and the plain
/// cases are the defaults here (`Clipboard.read(_:timeout:)` and `readContent` build them).
public struct ReadRequest<State: Sendable>: Sendable {
    /// The selection read.
    public var selection: Selection
    /// How long to wait for the owner at each step before `ClipboardError.timedOut`.
    public var timeout: Duration
    /// Text or image first, and the most bytes read (`readLimit`; `imageLimit` for an image).
    public var preferences: ContentPreferences
    /// Whether an image may be the answer. When false, only text is read, and an owner with
    /// no text gives `ClipboardError.noTextTarget` (else `.noContentTarget`).
    public var acceptsImage: Bool
    /// Sees the text of a large transfer as it arrives (see `TextObserver`); nil for none. A
    /// backend that reads in one piece (wl-clipboard) never calls it.
    public var observer: TextObserver<State>?
    /// The selection the URL will be copied to, when the copy rides on this read: the result's
    /// `write` may then take over what the read used (on X11 the connection, its window and
    /// the server time: the hotkey path). Nil when no copy follows.
    public var copyTarget: Selection?
    /// Work that does not need the text, run once while the owner is asked for it and has not
    /// answered yet (the hotkey's upload set-up: libcurl's and OpenSSL's initialisation), on the
    /// reading thread; nil for none. The Wayland reader runs it once its `receive` is sent (the
    /// owner's answer is an idle millisecond there: wl-copy forks a writer per reader), the X11
    /// reader once its first `ConvertSelection` is (the owner's answer is a round trip through
    /// the server and the owner's process). After a read begun ahead (`Clipboard.beginRead`),
    /// whose first request was answered while the caller loaded its configuration, the X11
    /// reader runs it in the wait for its second (`UTF8_STRING`), the Wayland reader as it
    /// begins to read the answer already asked for.
    public var whileOwnerAnswers: (@Sendable () -> Void)?

    /// Describes a read with an observer.
    ///
    /// - Parameters:
    ///   - selection: the selection read.
    ///   - timeout: the wait for the owner at each step.
    ///   - preferences: text or image first, and the limits.
    ///   - acceptsImage: whether an image may be the answer.
    ///   - observer: sees a large text as it arrives; nil for none.
    ///   - copyTarget: where the copy that follows goes, to keep what the read used; nil for none.
    public init(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences = ContentPreferences(),
        acceptsImage: Bool = true, observer: TextObserver<State>?, copyTarget: Selection? = nil
    ) {
        self.selection = selection
        self.timeout = timeout
        self.preferences = preferences
        self.acceptsImage = acceptsImage
        self.observer = observer
        self.copyTarget = copyTarget
    }
}

extension ReadRequest where State == Never {
    /// Describes a read that nothing observes.
    public init(
        _ selection: Selection, timeout: Duration, preferences: ContentPreferences = ContentPreferences(),
        acceptsImage: Bool = true, copyTarget: Selection? = nil
    ) {
        self.init(
            selection, timeout: timeout, preferences: preferences, acceptsImage: acceptsImage, observer: nil,
            copyTarget: copyTarget)
    }
}

/// What a `ReadRequest` got: the content, what its observer made of the text, and the copy
/// begun when the request named a `copyTarget`.
public struct ReadResult<State: Sendable> {
    /// The text or image (always `.text` for a request that does not accept images).
    public var content: ClipboardContent
    /// The observer's state after it saw all of the text, in order; nil when the content was
    /// not observed (text that came in one reply or in an encoding decoded at the end, an
    /// image, or no observer): the caller then looks at the content itself.
    public var observation: State?
    /// The copy to the request's `copyTarget`, begun (it may hold what the read used); nil when
    /// the request named none. Released without `complete`, the selection keeps what it had.
    public var write: (any PreparedClipboardWrite)?

    /// Pairs what was read with an observation and a write.
    public init(content: ClipboardContent, observation: State?, write: (any PreparedClipboardWrite)?) {
        self.content = content
        self.observation = observation
        self.write = write
    }
}
