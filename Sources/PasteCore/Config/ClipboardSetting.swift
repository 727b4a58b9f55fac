/// Which clipboard backend `[paste] clipboard` asks for (PasteCLI maps it to the Clipboard
/// module's own preference: PasteCore knows nothing of clipboards).
public enum ClipboardSetting: String, Sendable, CaseIterable {
    /// Data-control when the compositor has it, else X11 (XWayland), else wl-clipboard.
    case auto
    /// X11 only (under Wayland: XWayland).
    case x11
    /// Wayland only: data-control, else wl-clipboard.
    case wayland
}
