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
    static func detect(environment: [String: String]) -> MissingClipboard? {
        guard let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty,
            (environment["DISPLAY"] ?? "").isEmpty
        else { return nil }
        let missing = ["wl-copy", "wl-paste"].filter { ExecutableSearch.find($0, in: environment) == nil }
        return missing.isEmpty ? nil : MissingClipboard(waylandDisplay: wayland, missingTools: missing)
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
