import PasteErrors
internal import X11Interop

/// Why an alert window could not be shown, as the person reads it (a `PasteError`, where it is
/// born: no display → exit 69, "unavailable"; a window manager or a keyboard grab in the way →
/// 75).
///
/// The cases of X11Interop's `AlertWindowError`, translated where Alerts calls into X11Interop
/// (`translating(_:)`), so that Alerts' public API names no X11Interop type (it imports
/// X11Interop `internal`): the interop layer's own error, converted at the layer's edge (STYLE
/// rule 7), as `CurlError` becomes an `UploadError`.
public enum AlertError: PasteError, Hashable, Sendable {
    /// No display name was given and `$DISPLAY` is unset or empty.
    case noDisplay
    /// The display of this name could not be opened.
    case cannotOpenDisplay(name: String)
    /// No font was found for this fontconfig pattern (no fonts installed at all).
    case fontUnavailable(pattern: String)
    /// The window was never mapped before the deadline (a window manager that refuses it).
    case windowNotMapped
    /// Another client kept the keyboard grabbed; `status` is `XGrabKeyboard`'s last answer
    /// (`AlreadyGrabbed` = 1, ...).
    case keyboardGrabFailed(status: Int32)
    /// The connection to the X server broke while waiting for events.
    case connectionLost

    public var message: String {
        switch self {
        case .noDisplay: "cannot show a window: no display"
        case .cannotOpenDisplay(let name): "cannot show a window: cannot open display '\(shown: name)'"
        case .fontUnavailable(let pattern): "cannot show a window: no font matches '\(shown: pattern)'"
        case .windowNotMapped: "cannot show a window: the window manager never mapped it"
        case .keyboardGrabFailed: "cannot show a window: another program holds the keyboard"
        case .connectionLost: "cannot show a window: the connection to the display was lost"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .keyboardGrabFailed, .windowNotMapped: .temporaryFailure
        default: .unavailable
        }
    }

    /// The same failure as X11Interop's `error`.
    init(_ error: AlertWindowError) {
        switch error {
        case .noDisplay: self = .noDisplay
        case .cannotOpenDisplay(let name): self = .cannotOpenDisplay(name: name)
        case .fontUnavailable(let pattern): self = .fontUnavailable(pattern: pattern)
        case .windowNotMapped: self = .windowNotMapped
        case .keyboardGrabFailed(let status): self = .keyboardGrabFailed(status: status)
        case .connectionLost: self = .connectionLost
        }
    }

    /// Runs `body`, an X11Interop call, its error translated.
    static func translating<Value>(_ body: () throws(AlertWindowError) -> Value) throws(AlertError) -> Value {
        do {
            return try body()
        } catch {
            throw AlertError(error)
        }
    }
}
