import Glibc
import X11Interop

extension X11Clipboard {
    /// Reads `selection` and keeps the connection for putting text on `target` afterwards: the
    /// hotkey path, where the text read is uploaded and its URL copied.
    ///
    /// Owning a selection needs a connection, a window and a server timestamp; the reader has
    /// all three. `complete(with:)` of the returned write takes `target` on that connection and
    /// forks the process that serves it, so no second connection is opened, no helper starts
    /// up, and nothing runs beside the read and the upload (see `InheritedOwner`).
    public func readKeepingConnection(
        _ selection: Selection, timeout: Duration, ownerOf target: Selection
    ) throws(ClipboardError) -> (text: [UInt8], write: any PreparedClipboardWrite) {
        guard let name = resolvedDisplayName else { throw .noDisplay }
        let display: Display
        do { display = try Display(name: name) } catch { throw .cannotOpenDisplay(name: name) }
        let reader = SelectionReader(display: display, selection: selection, timeout: timeout)
        let (text, time) = try reader.readWithTime()
        let owner = InheritedOwner(
            display: display, window: reader.window, time: time, target: target, fallback: self)
        return (text, owner)
    }
}

/// Puts text on a selection through a reader's connection, served by a forked child.
///
/// `complete(with:)`: takes the selection with the reader's window and timestamp and confirms
/// it (one round trip), then forks. The child leaves our session and stdio, keeps only the X
/// connection, offers the text to a clipboard manager and serves requests until the selection
/// is taken from it (`SelectionServer`). The parent gives the connection up without a word on
/// it (`Display.abandon`) and returns: the selection is ours by then.
///
/// Forking is only safe while the process has one thread (STYLE rule 21); when it has more,
/// or `fork` fails, the connection is closed and the text goes through a spawned helper, as
/// `X11Clipboard.write` does. Released without `complete`, the connection closes with its
/// `Display`.
final class InheritedOwner: PreparedClipboardWrite {
    private let display: Display
    private let window: Window
    private let time: Timestamp
    private let target: Selection
    private let fallback: X11Clipboard
    /// The forked owner's pid, once there is one (tests reap it).
    private(set) var pid: pid_t?

    init(display: Display, window: Window, time: Timestamp, target: Selection, fallback: X11Clipboard) {
        self.display = display
        self.window = window
        self.time = time
        self.target = target
        self.fallback = fallback
    }

    func complete(with text: [UInt8]) throws(ClipboardError) {
        guard StandardStreams.isSingleThreaded() else {
            display.close()
            try fallback.write(text, to: target)
            return
        }
        let server = SelectionServer(display: display, selection: target, text: text, window: window, timestamp: time)
        switch server.takeOwnership() {
        case .owning: break
        case .notOwner:
            display.close()
            throw .helperFailed(.notOwner)
        default:
            display.close()
            throw .helperFailed(.noAnswer)
        }
        let connection = display.connectionFileDescriptor
        let child = fork()
        if child == 0 {
            // The child: out of the caller's session and stdio (so `url=$(paste)` returns when
            // the parent does), holding nothing but the X connection.
            for descriptor: Int32 in 0...2 { StandardStreams.detach(descriptor) }
            _ = setsid()
            StandardStreams.closeInherited(keeping: connection)
            StandardStreams.leaveWorkingDirectory()
            server.askClipboardManagerToSave()
            server.serve()
            _exit(0)
        }
        guard child > 0 else {
            // No child to serve: closing the connection gives the selection up; the helper
            // takes it again with a later timestamp.
            display.close()
            try fallback.write(text, to: target)
            return
        }
        pid = child
        display.abandon()
    }
}

@available(*, unavailable, message: "an X connection belongs to one thread")
extension InheritedOwner: Sendable {}
