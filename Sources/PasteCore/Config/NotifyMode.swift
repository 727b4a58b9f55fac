import FoundationEssentials
import SystemInterop

/// When windows are shown instead of (or as well as) stderr lines.
public enum NotifyMode: String, Sendable, CaseIterable {
    /// Windows when the input is the clipboard, stderr is no terminal and a display is there.
    case auto
    /// Always show windows (when a display is there).
    case always
    /// Never show windows.
    case never
}
