import SystemInterop
import WaylandInterop

/// The data-control clipboard with a read of one selection begun (`DataControlClipboard.beginRead`):
/// its next read of that selection continues on the begun session, with the owner's answer to
/// its text already asked for; any other read, and every write, is the clipboard's own.
///
/// Released unread (the configuration chose another backend, or failed), the session closes,
/// and with it our end of the answer: the owner sees its reader go, as for any reader that
/// leaves.
final class DataControlBegunRead: Clipboard {
    /// The clipboard the read was begun on.
    let clipboard: DataControlClipboard
    /// The selection read.
    let selection: Selection
    /// The session, its device answered; taken by the first read of `selection`.
    private var session: DataControlSession?
    /// The text type asked for; nil when none was.
    var askedType: String?
    /// Our end of the owner's answer to `askedType`; nil when none was asked, or once taken.
    var answer: FileDescriptor?

    init(clipboard: DataControlClipboard, selection: Selection, session: DataControlSession) {
        self.clipboard = clipboard
        self.selection = selection
        self.session = session
    }

    /// Whether the owner was asked for a text type, and its answer not taken yet (for tests).
    var isTextAsked: Bool { askedType != nil && session != nil }

    /// Continues the begun read when `request` reads its selection, the first time; else
    /// reads as the clipboard does.
    func read<State: Sendable>(_ request: ReadRequest<State>) throws(ClipboardError) -> ReadResult<State> {
        guard request.selection == selection, let session = session.take() else { return try clipboard.read(request) }
        return try clipboard.read(request, continuing: session, askedType: askedType, answer: answer.take())
    }

    func prepareWrite(to selection: Selection) throws(ClipboardError) -> any PreparedClipboardWrite {
        try clipboard.prepareWrite(to: selection)
    }

    func beginRead(_ selection: Selection) -> any Clipboard { self }
}

@available(*, unavailable) extension DataControlBegunRead: Sendable {}
