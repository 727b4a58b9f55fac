import SystemInterop
import WaylandInterop

/// Puts text on a Wayland selection through the reader's data-control session, served by a
/// forked child: the hotkey's copy, the Wayland counterpart of X11's `InheritedOwner`.
///
/// Made after the read (before the upload), it makes the source and offers the types every
/// text has (`DataControlSession.prepareSource`, `DataControlOwnerProcess.preparedTypes`): the
/// compositor handles them during the upload, and nothing on the seat changes until
/// `complete`, so a failed upload leaves the clipboard as it was.
///
/// `complete(with:isSecret:)`: offers the rest (`STRING` for Latin-1 text, the password
/// manager's mark), sets the selection on the session the read used (its device is bound
/// already) and confirms it with one round trip (`DataControlOwnerProcess.take`: no
/// `cancelled` by then means the compositor made our source the seat's selection, so a reader
/// gets the text), then forks. The child leaves our session and stdio, keeps only the
/// connection and the readers that asked meanwhile (`DataControlSession.descriptorsToKeep`),
/// and serves until another client copies. The parent gives the connection up without a word
/// on it (`DataControlSession.abandon`) and returns: the selection is ours by then.
///
/// Against an owner started ahead of the upload (`DataControlOwnerProcess`, which the pipeline
/// path still uses), this spares a second connection with its registry and device round trips,
/// and the hand-over of the text and of the status byte between two processes: after the
/// upload the parent waits for one round trip to the compositor, not for a child to be
/// scheduled, to connect and then to answer (docs/performance.md, "The Wayland hotkey").
///
/// Forking is only safe while the process has one thread (STYLE rule 21): with more, or when
/// `fork` fails, the session is closed and the text goes through a spawned owner
/// (`DataControlClipboard.owner(for:isBridged:)`). Released without `complete`, the session
/// closes and the selection keeps what it had.
final class DataControlInheritedOwner: PreparedClipboardWrite {
    private var session: DataControlSession?
    private let selection: Selection
    private let clipboard: DataControlClipboard
    /// The forked owner, once there is one (tests reap it).
    private(set) var child: ChildProcess?

    init(session: DataControlSession, selection: Selection, clipboard: DataControlClipboard) {
        self.session = session
        self.selection = selection
        self.clipboard = clipboard
        session.prepareSource(offering: DataControlOwnerProcess.preparedTypes)
    }

    /// The mark is offered when asked for: the server (or the owner it falls back on) offers it.
    @discardableResult
    func complete(with text: [UInt8], isSecret: Bool) throws(ClipboardError) -> SecretMark {
        guard let session = session.take() else { preconditionFailure("the text was handed over already") }
        guard CurrentProcess.isSingleThreaded else {
            return try spawnOwner(with: text, isSecret: isSecret)
        }
        if let failure = DataControlOwnerProcess.take(
            selection, with: text, isSecret: isSecret, isBridged: false, on: session)
        {
            throw OwnerLaunch.failure(reported: failure.rawValue, displayName: clipboard.socketPath)
                ?? .helperFailed(.reported(status: failure.rawValue))
        }
        let kept = session.descriptorsToKeep
        switch try? CurrentProcess.forkLeavingSession() {
        case .child:
            // The child, holding nothing but the connection and its waiting readers.
            CurrentProcess.detachAsOwner(keepingAll: kept)
            // A reader that closes its pipe early must not end the owner.
            Signal.pipe.ignore()
            try? session.serve()
            CurrentProcess.exitImmediately(0)
        case .parent(let forked):
            child = forked
            session.abandon()
        case nil:
            // No child to serve: closing the session gives the selection up (the compositor
            // destroys our source); the spawned owner takes it again.
            return try spawnOwner(with: text, isSecret: isSecret)
        }
        return .offerable(isSecret)
    }

    /// The fallback: a spawned owner (its own connection), which returns once it owns the
    /// selection. The session, taken out already, closes as this returns.
    private func spawnOwner(with text: [UInt8], isSecret: Bool) throws(ClipboardError) -> SecretMark {
        try clipboard.owner(for: selection, isBridged: false).spawn().complete(with: text, isSecret: isSecret)
    }
}

@available(*, unavailable, message: "a wl_display belongs to one thread")
extension DataControlInheritedOwner: Sendable {}
