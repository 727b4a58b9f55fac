import SystemInterop
import WaylandInterop

/// Which clipboard a session has, decided once from its environment (and, in a Wayland
/// session, one question to the compositor).
public enum ClipboardBackend: Equatable, Sendable {
    /// An X server (also XWayland): the `DISPLAY` name.
    case x11(displayName: String)
    /// A Wayland compositor with data-control: the native backend (`DataControlClipboard`),
    /// at the socket's absolute path.
    case dataControl(socketPath: String)
    /// A Wayland compositor without data-control or `DISPLAY`, with wl-clipboard installed:
    /// the last resort.
    case wayland
    /// No clipboard reachable (cron, ssh without forwarding, Wayland without wl-clipboard).
    case none

    /// Which backend `[paste] clipboard` asks for.
    public enum Preference: String, Sendable, CaseIterable {
        /// Data-control when the compositor has it, else X11 (XWayland), else wl-clipboard.
        case auto
        /// X11 only (`DISPLAY`; under Wayland, XWayland).
        case x11
        /// Wayland only: data-control, else wl-clipboard.
        case wayland
    }

    /// A backend and why it was chosen, for `-v`.
    public struct Choice: Equatable, Sendable {
        /// The backend.
        public var backend: ClipboardBackend
        /// Why, in a few words: "the compositor offers zwlr_data_control_manager_v1".
        public var reason: String
    }

    /// How long the compositor may take to list its globals before it counts as having no
    /// data-control: one round trip on a local socket, well under a millisecond when it is
    /// alive.
    public static let probeTimeout = Duration.seconds(1)

    /// Asks the compositor at `socketPath` which data-control protocol it offers (connects,
    /// reads the registry: one round trip); nil when none, or it cannot be reached.
    ///
    /// Where it offers one, the connection stays open for the read that follows
    /// (`DataControlSession.probe`): `DataControlClipboard` reads through it, with its device
    /// asked for already, rather than connecting and reading the registry again.
    public static func probeDataControl(socketPath: String) -> DataControlProtocol? {
        try? DataControlSession.probe(at: socketPath, before: .now + probeTimeout)
    }

    /// Picks the backend (see `choose`) and leaves out the reason.
    public static func detect(environment: [String: String]) -> ClipboardBackend {
        choose(environment: environment, preference: .auto).backend
    }

    /// Picks the backend:
    /// - a compositor with data-control: the native backend, even when `DISPLAY` is set (X11
    ///   through XWayland cannot read a Wayland app's clipboard while no X window has focus);
    /// - else `DISPLAY`: X11 (XWayland included: GNOME's mutter bridges both ways);
    /// - else `WAYLAND_DISPLAY` with `wl-copy` on `PATH`: wl-clipboard;
    /// - else none.
    /// `preference` keeps only the X11 or the Wayland branches.
    ///
    /// - Parameters:
    ///   - environment: the process environment, passed in (libraries never read it).
    ///   - probe: asks a compositor's socket for its data-control protocol (`probeDataControl`;
    ///     tests pass a fake). Called only when `WAYLAND_DISPLAY` names a socket.
    public static func choose(
        environment: [String: String], preference: Preference,
        probe: (String) -> DataControlProtocol? = probeDataControl(socketPath:)
    ) -> Choice {
        let display = environment["DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        let socket = preference == .x11 ? nil : WaylandSocket.path(in: environment)
        var missing: String?
        if let socket {
            if let found = probe(socket) {
                return Choice(
                    backend: .dataControl(socketPath: socket), reason: "the compositor offers \(found.rawValue)")
            }
            missing = "the compositor offers no data-control"
        }
        if preference != .wayland, let display {
            let why = missing.map { "\($0); DISPLAY is set" } ?? "DISPLAY is set"
            return Choice(backend: .x11(displayName: display), reason: why)
        }
        if preference != .x11, let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty,
            ExecutableSearch.find("wl-copy", in: environment) != nil
        {
            return Choice(
                backend: .wayland, reason: (missing ?? "WAYLAND_DISPLAY is set") + "; wl-clipboard is installed")
        }
        switch preference {
        case .x11: return Choice(backend: .none, reason: "clipboard = x11, and DISPLAY is not set")
        case .wayland where missing == nil:
            return Choice(backend: .none, reason: "clipboard = wayland, and no Wayland compositor was found")
        default: return Choice(backend: .none, reason: missing ?? "neither DISPLAY nor WAYLAND_DISPLAY is set")
        }
    }

    /// The backend in a few words, for `-v`: "native Wayland (data-control at /run/…/wayland-1)".
    public var summary: String {
        switch self {
        case .x11(let name): "X11 (DISPLAY \(name))"
        case .dataControl(let socket): "native Wayland (data-control at \(socket))"
        case .wayland: "wl-clipboard"
        case .none: "none"
        }
    }

    /// Makes the clipboard for this backend.
    ///
    /// - Parameters:
    ///   - helperExecutable: the program serving selections (`SelectionOwnerProcess`,
    ///     `DataControlOwnerProcess`).
    ///   - environment: the process environment.
    /// - Throws: for `.none`, `ClipboardError.noClipboard` when a Wayland display is there
    ///   without what paste needs on it (`MissingClipboard`), else `.noDisplay`.
    public func makeClipboard(
        helperExecutable: String, environment: [String: String]
    ) throws(ClipboardError) -> any Clipboard {
        switch self {
        case .x11(let name):
            X11Clipboard(displayName: name, helperExecutable: helperExecutable, environment: environment)
        case .dataControl(let socket):
            DataControlClipboard(socketPath: socket, helperExecutable: helperExecutable, environment: environment)
        case .wayland: try WaylandClipboard(environment: environment)
        case .none:
            if let missing = MissingClipboard.detect(environment: environment) { throw .noClipboard(missing) }
            throw .noDisplay
        }
    }
}
