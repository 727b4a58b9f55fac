import SystemInterop
import WaylandInterop

/// Why a clipboard operation failed.
public enum ClipboardError: Error, Equatable, Sendable {
    /// No display to talk to: neither a display name nor `DISPLAY` (nor a Wayland clipboard).
    case noDisplay
    /// A display is there but no clipboard paste can use on it (`MissingClipboard` says why).
    case noClipboard(MissingClipboard)
    /// The X server at `name` could not be reached (`XOpenDisplay` failed).
    case cannotOpenDisplay(name: String)
    /// Nobody owns the selection, or it holds zero bytes.
    case empty(Selection)
    /// The owner offers data, but none as text; `available` names its targets (`image/png`, ...).
    case noTextTarget(Selection, available: [String])
    /// The owner offers neither text nor an image paste reads (`readContent`); `available`
    /// names its targets.
    case noContentTarget(Selection, available: [String])
    /// The owner sent more than `limit` bytes of `type` (an image beyond the service's
    /// `max-size`, or an owner that never stops); the read was abandoned.
    case tooLarge(Selection, type: String, limit: Int)
    /// The owner sent more than `limit` bytes in all (paste's `max-clipboard`: an owner that
    /// never stops); the read was abandoned at the limit.
    case exceedsLimit(Selection, limit: Int)
    /// The owner marks the content a password (`PasswordManagerHint`: `x-kde-passwordManagerHint`
    /// = `secret`): it is never read for upload, whatever `--force` says.
    case markedSecret(Selection)
    /// The X and Wayland sides of the selection hold different contents, an X program owns the
    /// X side, and nothing tells which was copied last (no X window has the focus: no bridge
    /// carried either copy to the other side); neither is read for upload
    /// (`XSelectionHolder`, docs/design.md).
    case undecidedCopy(Selection)
    /// The owner did not answer within the deadline.
    case timedOut(Selection, seconds: Double)
    /// The owner kept sending, but slower than `minimumRate` bytes a second on average once
    /// `seconds` had passed (`ReadPace`: an INCR transfer trickled to hold the reader); the read
    /// was abandoned.
    case tooSlow(Selection, seconds: Double, minimumRate: Int)
    /// The selection has an owner, and it refused every conversion we asked for (a
    /// SelectionNotify with property None); `targets` names them in the order asked.
    case ownerRefused(Selection, targets: [String])
    /// The owner answered a request for text (`target`) with data of a type that is not text.
    case nonTextReply(Selection, target: String, type: String)
    /// The detached selection owner could not be started or did not take the selection.
    case helperFailed(OwnerFailure)
    /// `wl-copy`/`wl-paste` (wl-clipboard) is not installed.
    case waylandToolMissing(tool: String)
    /// `wl-copy`/`wl-paste` failed.
    case waylandToolFailed(tool: String, status: Int32)
    /// `wl-copy`/`wl-paste` did not finish within `seconds` and was killed (wl-clipboard
    /// without data-control falls back to a window that waits for focus, which never comes
    /// at a hotkey).
    case waylandToolTimedOut(tool: String, seconds: Double)
    /// The Wayland compositor failed the native clipboard (`DataControlClipboard`).
    case compositorFailed(WaylandError)

    /// The broad class of a failure, which the CLI maps to an exit status (Clipboard knows
    /// nothing of PasteCore): `noInput` → 66, `badInput` → 65, `temporaryFailure` → 75,
    /// `unavailable` → 69, `ioError` → 74, `refused` → 77.
    ///
    /// A read that timed out is `unavailable`, not `temporaryFailure`: 75 says that something
    /// waits in the outbox for `paste --retry`, and a read fails before anything is there
    /// (issue 29, finding 8).
    public enum Kind: Sendable, Equatable {
        /// Nothing to read (`EX_NOINPUT`).
        case noInput
        /// Something there, but not usable as text (`EX_DATAERR`).
        case badInput
        /// Might work if tried again (`EX_TEMPFAIL`).
        case temporaryFailure
        /// No clipboard service reachable (`EX_UNAVAILABLE`).
        case unavailable
        /// A local process or pipe failed (`EX_IOERR`).
        case ioError
        /// The content is marked a secret, and refused as the secret guard refuses (77).
        case refused
    }

    /// The class of this failure.
    public var kind: Kind {
        switch self {
        case .empty, .undecidedCopy: .noInput
        case .markedSecret: .refused
        case .noTextTarget, .noContentTarget, .tooLarge, .exceedsLimit, .ownerRefused, .nonTextReply: .badInput
        case .timedOut, .tooSlow, .waylandToolTimedOut: .unavailable
        case .noDisplay, .noClipboard, .cannotOpenDisplay, .waylandToolMissing: .unavailable
        case .helperFailed(let failure): failure == .noAnswer ? .temporaryFailure : .ioError
        case .waylandToolFailed: .ioError
        case .compositorFailed: .unavailable
        }
    }

    /// One line for a person: what failed, on what, and why (as the Clipboard module says it;
    /// `message` is it shown safely, with what paste adds).
    public var detail: String {
        switch self {
        case .noDisplay: "no display: DISPLAY is not set and no Wayland clipboard was found"
        case .cannotOpenDisplay(let name): "cannot open display '\(name)'"
        case .empty(let selection): "the \(selection.displayName) is empty"
        case .undecidedCopy(let selection):
            "the \(selection.displayName) differs between X and Wayland, and paste cannot tell which was copied last "
                + "(an X program holds the X side and no X window has the focus); nothing was uploaded"
        case .markedSecret(let selection):
            "the \(selection.displayName) holds a password (the program it was copied from marks it secret), "
                + "so it is never uploaded, not even with --force"
        case .noTextTarget(let selection, let available):
            "the \(selection.displayName) holds no text (it offers: \(available.joined(separator: ", ")))"
        case .noContentTarget(let selection, let available):
            "the \(selection.displayName) holds neither text nor an image (it offers: \(available.joined(separator: ", ")))"
        case .tooLarge(let selection, let type, let limit):
            "the \(selection.displayName)'s \(type) is over the limit of \(limit) bytes; reading stopped"
        case .exceedsLimit(let selection, let limit):
            "the \(selection.displayName) holds more than \(limit.formattedByteCount)"
        case .timedOut(let selection, let seconds):
            "the program holding the \(selection.displayName) did not hand it over within "
                + "\(seconds.formattedSeconds); copy it again, or allow longer with clipboard-timeout"
        case .tooSlow(let selection, let seconds, let rate):
            "the program holding the \(selection.displayName) sent it too slowly (under \(rate.formattedByteCount)/s "
                + "after \(seconds.formattedSeconds)); reading stopped"
        case .ownerRefused(let selection, let targets):
            "the program holding the \(selection.displayName) would not hand it over (asked for "
                + "\(targets.joined(separator: ", ")))"
        case .nonTextReply(let selection, let target, let type):
            "the program holding the \(selection.displayName) answered a request for text (\(target)) with "
                + "\(type) data"
        case .noClipboard(let missing): missing.message
        case .helperFailed(let failure): "cannot take the clipboard: \(failure.message)"
        case .waylandToolMissing(let tool): "\(tool) not found (install wl-clipboard)"
        case .waylandToolFailed(let tool, let status): "\(tool) failed with exit status \(status)"
        case .waylandToolTimedOut(let tool, let seconds):
            "\(tool) did not finish within \(seconds.formattedSeconds) and was stopped"
        case .compositorFailed(let error): "the Wayland compositor's clipboard failed: \(error.reason)"
        }
    }
}

extension WaylandError {
    /// The reason, for `ClipboardError.message`.
    var reason: String {
        switch self {
        case .cannotConnect(let socket, let errno): "cannot connect to '\(socket)': \(errno.message)"
        case .noDataControl: "it offers no data-control protocol"
        case .noSeat: "it has no seat"
        case .timedOut: "it did not answer"
        case .connectionLost(let errno): "the connection was lost (\(errno.message))"
        case .protocolError(let interface, let code, let message):
            "it reported a protocol error on \(interface) (code \(code)): \(message)"
        case .deviceFinished: "the seat went away"
        case .notOwner: "another client set the selection first"
        case .noPrimarySelection: "it keeps no primary selection"
        case .transferFailed(let errno): "cannot make a descriptor for the transfer: \(errno.message)"
        }
    }
}

/// How the detached selection owner failed to take the selection.
public enum OwnerFailure: Equatable, Sendable {
    /// `posix_spawn` of the helper failed.
    case cannotSpawn(path: String, errno: Errno)
    /// The text could not be handed to the helper (the `Errno` of the failed write).
    case payloadNotDelivered(errno: Errno)
    /// The helper ended before owning the selection: its exit status, or 128 + signal.
    case exited(status: Int32)
    /// The helper reported a failure with this status byte (see `SelectionOwnerProcess`).
    case reported(status: UInt8)
    /// Another client took the selection with a later timestamp before we could (ICCCM §2.1).
    case notOwner
    /// No answer from the helper in time.
    case noAnswer

    /// The reason, for `ClipboardError.message`.
    var message: String {
        switch self {
        case .cannotSpawn(let path, let errno): "cannot start '\(path)': \(errno.message)"
        case .payloadNotDelivered(let errno): "cannot hand the text to the selection owner: \(errno.message)"
        case .exited(let status): "the selection owner exited with status \(status)"
        case .reported(let status): "the selection owner failed (status \(status))"
        case .notOwner: "another client took the selection first"
        case .noAnswer: "the selection owner did not answer"
        }
    }
}

extension Selection {
    /// How messages name the selection.
    var displayName: String {
        switch self {
        case .clipboard: "clipboard"
        case .primary: "primary selection"
        }
    }
}

extension Double {
    /// `2 s`, `0.5 s`.
    var formattedSeconds: String {
        self == rounded() ? "\(Int(self)) s" : "\(self) s"
    }
}

extension Int {
    /// `1 GiB`, `64 KiB`, `1000 bytes`: binary units when the count is a whole number of them.
    var formattedByteCount: String {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")]
        where self >= 1 << shift && self % (1 << shift) == 0 {
            return "\(self >> shift) \(unit)"
        }
        return self == 1 ? "1 byte" : "\(self) bytes"
    }
}

extension Duration {
    /// The duration in seconds, for messages.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
