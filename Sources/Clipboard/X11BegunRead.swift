import X11Interop

/// The X11 clipboard with a read of one selection begun (`X11Clipboard.beginRead`): its next
/// read of that selection continues on the connection that asked the owner for `TARGETS`
/// already; any other read, and every write, is the clipboard's own.
///
/// Released unread (the configuration chose another backend, or failed), it first waits for the
/// owner's answer to `TARGETS` (`unreadAnswerWait` at most), then the connection closes with
/// its window: an owner that answers to a window gone may die of it (xclip does), and the
/// clipboard with it.
final class X11BegunRead: Clipboard {
    /// How long a begun read released unread waits for the owner's answer to `TARGETS` before
    /// its window goes: an owner at work answers within milliseconds (xclip in well under one),
    /// and a run that ends on a config error should not wait a read's whole timeout for one
    /// that does not.
    static let unreadAnswerWait = Duration.milliseconds(250)

    /// What was begun: the reader, or the error the read throws.
    enum Begun {
        /// Connected, `TARGETS` asked (`SelectionReader.askTargetsAhead`).
        case reading(SelectionReader)
        /// The display could not be opened: the read's error, as it would have thrown it.
        case failed(ClipboardError)
    }

    /// The clipboard the read was begun on.
    let clipboard: X11Clipboard
    /// The selection read.
    let selection: Selection
    /// Taken by the first read of `selection`; nil after it.
    private var begun: Begun?

    init(clipboard: X11Clipboard, selection: Selection, begun: Begun) {
        self.clipboard = clipboard
        self.selection = selection
        self.begun = begun
    }

    deinit {
        if case .reading(let reader)? = begun { reader.awaitTargetsAskedAhead(before: .now + Self.unreadAnswerWait) }
    }

    /// Whether a read of the selection is begun and not taken yet (for tests).
    var isPending: Bool {
        if case .reading? = begun { return true }
        return false
    }

    /// Continues the begun read when `request` reads its selection, the first time; else
    /// reads as the clipboard does.
    func read<State: Sendable>(_ request: ReadRequest<State>) throws(ClipboardError) -> ReadResult<State> {
        guard request.selection == selection, let begun else { return try clipboard.read(request) }
        self.begun = nil
        switch begun {
        case .reading(let reader): return try clipboard.read(request, continuing: reader)
        case .failed(let error): throw error
        }
    }

    func prepareWrite(to selection: Selection) throws(ClipboardError) -> any PreparedClipboardWrite {
        try clipboard.prepareWrite(to: selection)
    }

    func beginRead(_ selection: Selection) -> any Clipboard { self }
}

@available(*, unavailable) extension X11BegunRead: Sendable {}
