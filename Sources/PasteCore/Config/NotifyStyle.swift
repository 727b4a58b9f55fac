/// How a run at a hotkey tells the person what happened (`notify-style`).
public enum NotifyStyle: String, Sendable, CaseIterable {
    /// paste's own windows where an X display is there, desktop notifications where none is.
    case auto
    /// paste's own X11 windows.
    case window
    /// The desktop's notification server (org.freedesktop.Notifications on the session bus).
    case desktop
}
