import SystemInterop
import X11Interop

/// Puts text on a selection through a reader's connection, served by a forked child.
///
/// `complete(with:)`: takes the selection with the reader's window and timestamp and confirms
/// it (one round trip), then forks. The child leaves our session and stdio, keeps only the X
/// connection, offers the text to a clipboard manager and serves requests until the selection
/// is taken from it (`SelectionServer`). The parent gives the connection up without a word on
/// it (`Display.abandon`) and returns: the selection is ours by then.
///
/// Forking is only safe while the process has one thread (STYLE rule 21); when it has more,
/// or `fork` fails, the connection is closed and the text goes through a spawned helper
/// (`X11Clipboard.spawnOwner`). Released without `complete`, the connection closes with its
/// `Display`.
final class InheritedOwner: PreparedClipboardWrite {
    private let display: Display
    private let window: Window
    private let time: Timestamp
    private let target: Selection
    private let fallback: X11Clipboard
    /// The forked owner, once there is one (tests reap it).
    private(set) var child: ChildProcess?

    init(display: Display, window: Window, time: Timestamp, target: Selection, fallback: X11Clipboard) {
        self.display = display
        self.window = window
        self.time = time
        self.target = target
        self.fallback = fallback
    }

    /// The mark is offered when asked for: the server (or the helper it falls back on) offers it.
    @discardableResult
    func complete(with text: [UInt8], isSecret: Bool) throws(ClipboardError) -> SecretMark {
        guard CurrentProcess.isSingleThreaded else {
            display.close()
            return try fallback.spawnOwner(for: target).complete(with: text, isSecret: isSecret)
        }
        let server = SelectionServer(display: display, selection: target, text: text, window: window, timestamp: time)
        server.setText(text, isSecret: isSecret)
        let status = server.takeOwnership()
        if let failure = OwnerLaunch.failure(reported: status.rawValue, displayName: fallback.resolvedDisplayName ?? "")
        {
            display.close()
            throw failure
        }
        let connection = display.connectionFileDescriptor
        switch try? CurrentProcess.forkLeavingSession() {
        case .child:
            // The child, holding nothing but the X connection.
            CurrentProcess.detachAsOwner(keepingAll: [connection])
            server.askClipboardManagerToSave()
            server.serve()
            CurrentProcess.exitImmediately(0)
        case .parent(let forked):
            child = forked
            display.abandon()
        case nil:
            // No child to serve: closing the connection gives the selection up; the helper
            // takes it again with a later timestamp.
            display.close()
            return try fallback.spawnOwner(for: target).complete(with: text, isSecret: isSecret)
        }
        return .offerable(isSecret)
    }
}

@available(*, unavailable, message: "an X connection belongs to one thread")
extension InheritedOwner: Sendable {}
