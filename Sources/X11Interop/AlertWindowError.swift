/// Why an alert window could not be shown or run.
///
/// Raised by `AlertWindow`; the Alerts module passes it on as it is (its `AlertError`).
public enum AlertWindowError: Error, Hashable, Sendable {
    /// No display name was given and `$DISPLAY` is unset or empty (`XDisplayName(NULL)` is "").
    case noDisplay
    /// `XOpenDisplay` returned NULL for this display name.
    case cannotOpenDisplay(name: String)
    /// `XftFontOpenName` found no font for this fontconfig pattern (no fonts installed at all).
    case fontUnavailable(pattern: String)
    /// The window was never mapped before the deadline (a window manager that refuses it).
    case windowNotMapped
    /// Another client kept the keyboard grabbed; `status` is `XGrabKeyboard`'s last answer
    /// (`AlreadyGrabbed` = 1, ...).
    case keyboardGrabFailed(status: Int32)
    /// The connection to the X server broke while waiting for events (`poll` saw hang-up/error).
    case connectionLost
}
