/// One global object a compositor's registry announces (`wl_registry.global`).
public struct WaylandGlobal: Equatable, Sendable {
    /// The registry's name for it, used to bind it.
    public var name: UInt32
    /// Its interface (`wl_seat`, `zwlr_data_control_manager_v1`, …).
    public var interface: String
    /// The highest version the compositor speaks.
    public var version: UInt32

    /// Describes a global.
    public init(name: UInt32, interface: String, version: UInt32) {
        self.name = name
        self.interface = interface
        self.version = version
    }
}

/// The data-control protocol a session uses: the standard one where the compositor offers it,
/// else wlroots' (the same shape: one code path serves both, see `cwayland_data_control.h`).
public enum DataControlProtocol: String, Equatable, Sendable {
    /// `ext_data_control_manager_v1` (wayland-protocols 1.39; KDE Plasma 6.5 offers only this).
    case ext = "ext_data_control_manager_v1"
    /// `zwlr_data_control_manager_v1` (wlroots compositors: sway, Hyprland, …; older KDE).
    case wlr = "zwlr_data_control_manager_v1"

    /// The highest version of the manager paste speaks: ext's first; wlr's second (primary
    /// selection came in version 2).
    var highestVersion: UInt32 {
        switch self {
        case .ext: 1
        case .wlr: 2
        }
    }

    /// What to bind among a registry's globals: `ext` where offered, else `wlr`, at the lower
    /// of the compositor's version and ours; nil when neither is offered.
    public static func choose(among globals: [WaylandGlobal]) -> (protocol: DataControlProtocol, global: WaylandGlobal)?
    {
        for candidate in [DataControlProtocol.ext, .wlr] {
            if var global = globals.first(where: { $0.interface == candidate.rawValue }) {
                global.version = min(global.version, candidate.highestVersion)
                return (candidate, global)
            }
        }
        return nil
    }
}

/// Which of a seat's selections.
public enum SeatSelection: Sendable, Equatable {
    /// The clipboard (`set_selection`, `selection`).
    case regular
    /// The primary selection (`set_primary_selection`, `primary_selection`).
    case primary
}
