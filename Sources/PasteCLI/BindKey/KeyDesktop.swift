/// The desktops `--bind-key` writes a shortcut for, and how it tells which one it runs on.
enum KeyDesktop: String, Sendable, Equatable, CaseIterable {
    case gnome
    case kde5
    case kde6
    case xfce
    case sway
    case i3
    case hyprland

    /// The desktop's name in messages.
    var name: String {
        switch self {
        case .gnome: "GNOME"
        case .kde5: "KDE Plasma 5"
        case .kde6: "KDE Plasma 6"
        case .xfce: "Xfce"
        case .sway: "sway"
        case .i3: "i3"
        case .hyprland: "Hyprland"
        }
    }

    /// The desktop of a session with this environment, or nil.
    ///
    /// A compositor's own socket variable decides first (`HYPRLAND_INSTANCE_SIGNATURE`,
    /// `SWAYSOCK`, `I3SOCK`: set by the compositor for what it starts), then the desktop names
    /// of `XDG_CURRENT_DESKTOP` (a colon-separated list, `ubuntu:GNOME`) and
    /// `XDG_SESSION_DESKTOP`, then `KDE_SESSION_VERSION`. KDE's major version comes from
    /// `KDE_SESSION_VERSION` (6 when unset: Plasma 6 sets it, as Plasma 5 did).
    static func detect(_ environment: [String: String]) -> KeyDesktop? {
        func isSet(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        let kde: KeyDesktop = environment["KDE_SESSION_VERSION"] == "5" ? .kde5 : .kde6
        if isSet("HYPRLAND_INSTANCE_SIGNATURE") { return .hyprland }
        if isSet("SWAYSOCK") { return .sway }
        if isSet("I3SOCK") { return .i3 }
        for variable in ["XDG_CURRENT_DESKTOP", "XDG_SESSION_DESKTOP"] {
            for name in (environment[variable] ?? "").lowercased().split(separator: ":") {
                switch name {
                case "gnome", "gnome-classic", "gnome-flashback", "unity", "pop", "budgie": return .gnome
                case "kde", "plasma", "plasmawayland", "plasmax11": return kde
                case "xfce", "xfce4": return .xfce
                case "sway": return .sway
                case "i3": return .i3
                case "hyprland": return .hyprland
                default: continue
                }
            }
        }
        if isSet("KDE_SESSION_VERSION") { return kde }
        return nil
    }
}
