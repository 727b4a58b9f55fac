/// Which clipboard a session has, decided from its environment alone.
public enum ClipboardBackend: Equatable, Sendable {
    /// An X server (also XWayland): the `DISPLAY` name.
    case x11(displayName: String)
    /// A Wayland compositor without `DISPLAY`, with wl-clipboard installed.
    case wayland
    /// No clipboard reachable (cron, ssh without forwarding, Wayland without wl-clipboard).
    case none

    /// Picks the backend: X11 when `DISPLAY` is set (XWayland included: it is the most
    /// complete), Wayland when only `WAYLAND_DISPLAY` is set and `wl-copy` is on `PATH`.
    ///
    /// - Parameter environment: the process environment, passed in (libraries never read it).
    public static func detect(environment: [String: String]) -> ClipboardBackend {
        if let display = environment["DISPLAY"], !display.isEmpty { return .x11(displayName: display) }
        if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty,
            ExecutableSearch.find("wl-copy", in: environment) != nil
        {
            return .wayland
        }
        return .none
    }

    /// Makes the clipboard for this backend.
    ///
    /// - Parameters:
    ///   - helperExecutable: the program serving X selections (`SelectionOwnerProcess`).
    ///   - environment: the process environment.
    /// - Throws: for `.none`, `ClipboardError.noClipboard` when a Wayland display is there
    ///   without what paste needs on it (`MissingClipboard`), else `.noDisplay`.
    public func makeClipboard(
        helperExecutable: String, environment: [String: String]
    ) throws(ClipboardError) -> any Clipboard {
        switch self {
        case .x11(let name):
            X11Clipboard(displayName: name, helperExecutable: helperExecutable, environment: environment)
        case .wayland: try WaylandClipboard(environment: environment)
        case .none:
            if let missing = MissingClipboard.detect(environment: environment) { throw .noClipboard(missing) }
            throw .noDisplay
        }
    }
}
