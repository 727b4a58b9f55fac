/// Why an alert window could not be shown or run.
///
/// Raised by `AlertWindow`; the Alerts module maps it onto its own `AlertError`.
public enum AlertWindowError: Error, Equatable, Sendable {
    /// No display name was given and `$DISPLAY` is unset or empty (`XDisplayName(NULL)` is "").
    case noDisplay
    /// `XOpenDisplay` returned NULL for this display name.
    case cannotOpenDisplay(name: String)
    /// `XftFontOpenName` found no font for this fontconfig pattern.
    case fontUnavailable(pattern: String)
    /// The window was never mapped before the deadline (a window manager that refuses it).
    case notMapped
    /// `XGrabKeyboard` kept failing; `status` is its last return (`AlreadyGrabbed` = 1, ...).
    case keyboardGrabFailed(status: Int32)
    /// The connection to the X server broke while waiting for events (`poll` saw hang-up/error).
    case connectionLost
}
