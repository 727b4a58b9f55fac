import WaylandInterop

/// Why a session with a display has no clipboard paste can use: what is there, and what is
/// missing, in one place, so a new backend adds its own reason here and the message stays one
/// line that tells the truth about what was looked at.
public struct MissingClipboard: Equatable, Sendable {
    /// `WAYLAND_DISPLAY`, when it is set.
    public var waylandDisplay: String?
    /// Whether the compositor offers a data-control protocol; nil when nobody asked it (no
    /// native Wayland backend asked).
    public var hasDataControl: Bool?
    /// The wl-clipboard tools not found on `PATH` (`wl-copy`, `wl-paste`).
    public var missingTools: [String]

    /// Describes a session from what was found.
    public init(waylandDisplay: String?, hasDataControl: Bool? = nil, missingTools: [String]) {
        self.waylandDisplay = waylandDisplay
        self.hasDataControl = hasDataControl
        self.missingTools = missingTools
    }

    /// What `environment` lacks when it has `WAYLAND_DISPLAY` but no `DISPLAY` and no usable
    /// wl-clipboard; nil when that is not the case (no display at all is `ClipboardError.noDisplay`).
    ///
    /// - Parameter offersDataControl: asks the compositor at a socket whether it offers
    ///   data-control (`offersDataControl(socketPath:)`; tests pass a fake): true or false when
    ///   it answered, nil when it could not be reached. Asked only on this failing path, so the
    ///   line can say "the compositor offers no data-control" (GNOME's mutter) only when the
    ///   compositor said so.
    static func detect(
        environment: [String: String],
        offersDataControl: (String) -> Bool? = offersDataControl(socketPath:)
    ) -> MissingClipboard? {
        guard let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty,
            (environment["DISPLAY"] ?? "").isEmpty
        else { return nil }
        let missing = ["wl-copy", "wl-paste"].filter { ExecutableSearch.find($0, in: environment) == nil }
        guard !missing.isEmpty else { return nil }
        let hasDataControl = WaylandSocket.path(in: environment).flatMap(offersDataControl)
        return MissingClipboard(waylandDisplay: wayland, hasDataControl: hasDataControl, missingTools: missing)
    }

    /// Whether the compositor at `socketPath` lists a data-control global (one round trip,
    /// within `ClipboardBackend.probeTimeout`); nil when it cannot be reached.
    static func offersDataControl(socketPath: String) -> Bool? {
        guard
            let globals = try? DataControlSession.globals(
                at: socketPath, before: .now + ClipboardBackend.probeTimeout)
        else { return nil }
        return DataControlProtocol.choose(among: globals) != nil
    }

    /// One line: `no clipboard: WAYLAND_DISPLAY is set but …`.
    var message: String {
        var lacks: [String] = []
        if hasDataControl == false { lacks.append("the compositor offers no data-control") }
        if !missingTools.isEmpty {
            let tools = missingTools.joined(separator: " and ")
            lacks.append("wl-clipboard is not installed (no \(tools) on PATH)")
        }
        let what = lacks.isEmpty ? "it cannot be used" : lacks.joined(separator: " and ")
        return waylandDisplay == nil
            ? "no clipboard: \(what)"
            : "no clipboard: WAYLAND_DISPLAY is set, DISPLAY is not, and \(what)"
    }
}
