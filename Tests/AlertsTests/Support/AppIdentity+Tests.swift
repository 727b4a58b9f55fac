import Alerts

extension AppIdentity {
    /// The identity PasteCLI gives its windows: the Xvfb helpers find windows whose `WM_CLASS`
    /// instance is `paste`.
    static let paste = AppIdentity(instanceName: "paste", className: "Paste")
}
