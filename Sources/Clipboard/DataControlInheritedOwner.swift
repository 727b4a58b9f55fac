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
/// manager's mark), sends `set_selection` and a sync (`requestSelection`), and forks while the
/// compositor answers: the parent confirms the round trip by reading without taking
/// (`shareForConfirmation`, `confirmSelection`: no `cancelled` by then means the compositor made
/// our source the seat's selection, so a reader gets the text), tells the child to go on (one
/// byte on a socket pair) and returns; the child, which waited for that byte, reads the same
/// events itself (`takeOverFromConfirmer`) and serves until another client copies. The child
/// leaves our session and stdio and keeps only the connection, the readers that asked before
/// the fork (`DataControlSession.descriptorsToKeep`) and its end of the pair. The parent gives
/// the connection up without a word on it (`DataControlSession.abandon`). A failed
/// confirmation closes the pair unwritten: the child ends without a word. Where the socket
/// cannot be read without taking (no `SO_PEEK_OFF`), the parent confirms first and forks after.
///
/// Against an owner started ahead of the upload (`DataControlOwnerProcess`, which the pipeline
/// path still uses), this spares a second connection with its registry and device round trips,
/// and the hand-over of the text and of the status byte between two processes: after the
/// upload the parent waits for one round trip to the compositor, with the fork inside it
/// (docs/performance.md, "The Wayland hotkey").
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
    /// Whether the child was forked before the selection was confirmed (tests).
    private(set) var forkedBeforeConfirmation = false

    /// The byte that tells the child the selection is ours.
    private static let goOn: UInt8 = 1

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
        let offer = DataControlOwnerProcess.offering(text, isSecret: isSecret, isBridged: false)
        let deadline = ContinuousClock.now + DataControlOwnerProcess.setUpTimeout
        do {
            try session.requestSelection(
                selection.seatSelection, offering: offer.types, writeTimeout: DataControlOwnerProcess.readerTimeout,
                before: deadline, data: offer.data)
        } catch {
            throw failure(DataControlOwnerProcess.status(for: error))
        }
        if let pair = try? FileDescriptor.makeSocketPair() {
            let ours = pair.first
            let childs = pair.second
            if session.shareForConfirmation() {
                return try forkThenConfirm(
                    session, ours: ours, childs: childs, deadline: deadline, text: text, isSecret: isSecret)
            }
        }
        do { try session.confirmSelection(before: deadline) } catch {
            throw failure(DataControlOwnerProcess.status(for: error))
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

    /// Forks while the compositor answers `set_selection`, then confirms it in the parent (see
    /// the type's summary); `ours` and `childs` are the two ends of the go-on pair.
    private func forkThenConfirm(
        _ session: DataControlSession, ours: consuming FileDescriptor, childs: consuming FileDescriptor,
        deadline: ContinuousClock.Instant, text: [UInt8], isSecret: Bool
    ) throws(ClipboardError) -> SecretMark {
        let kept = session.descriptorsToKeep + [childs.rawValue]
        switch try? CurrentProcess.forkLeavingSession() {
        case .child:
            _ = consume ours
            CurrentProcess.detachAsOwner(keepingAll: kept)
            Signal.pipe.ignore()
            // The parent's answer comes within its own deadline; its end closing unwritten
            // (a failure, or the parent killed) ends this child without a word on the session.
            let answer = try? childs.readByte(before: deadline + .seconds(1))
            guard answer == Self.goOn else { CurrentProcess.exitImmediately(0) }
            session.takeOverFromConfirmer()
            try? session.serve()
            CurrentProcess.exitImmediately(0)
        case .parent(let forked):
            _ = consume childs
            child = forked
            forkedBeforeConfirmation = true
            do { try session.confirmSelection(before: deadline) } catch {
                // `ours` closes unwritten as this throws: the child ends.
                throw failure(DataControlOwnerProcess.status(for: error))
            }
            do { try ours.writeAll([Self.goOn]) } catch {
                throw failure(.cannotOpenDisplay)
            }
            session.abandon()
            return .offerable(isSecret)
        case nil:
            _ = consume ours
            _ = consume childs
            // No child to serve: closing the session gives the selection up; the spawned owner
            // takes it again.
            return try spawnOwner(with: text, isSecret: isSecret)
        }
    }

    /// A status an owner reports, as the error `complete` throws.
    private func failure(_ status: SelectionOwnerProcess.Status) -> ClipboardError {
        OwnerLaunch.failure(reported: status.rawValue, displayName: clipboard.socketPath)
            ?? .helperFailed(.reported(status: status.rawValue))
    }

    /// The fallback: a spawned owner (its own connection), which returns once it owns the
    /// selection. The session, taken out already, closes as this returns.
    private func spawnOwner(with text: [UInt8], isSecret: Bool) throws(ClipboardError) -> SecretMark {
        try clipboard.owner(for: selection, isBridged: false).spawn().complete(with: text, isSecret: isSecret)
    }
}

@available(*, unavailable, message: "a wl_display belongs to one thread")
extension DataControlInheritedOwner: Sendable {}
