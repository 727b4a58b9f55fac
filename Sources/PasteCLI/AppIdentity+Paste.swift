import Alerts

extension AppIdentity {
    /// paste's windows: `WM_CLASS` "paste", "Paste" (window manager rules match the class).
    static let paste = AppIdentity(instanceName: "paste", className: "Paste")
}
