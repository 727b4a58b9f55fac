/// Why an alert window could not be shown.
///
/// PasteCLI maps these to its user-facing errors (no display → exit 69, "unavailable").
public enum AlertError: Error, Hashable, Sendable {
    /// No display name was given and `$DISPLAY` is unset or empty.
    case noDisplay
    /// The X server at this display name could not be reached.
    case cannotOpenDisplay(name: String)
    /// No font matched this fontconfig pattern (no fonts installed at all).
    case fontUnavailable(pattern: String)
    /// The window manager never mapped the window.
    case windowNotMapped
    /// Another client kept the keyboard grabbed; `status` is `XGrabKeyboard`'s last answer.
    case keyboardGrabFailed(status: Int32)
    /// The connection to the X server broke while the window was up.
    case connectionLost
}
