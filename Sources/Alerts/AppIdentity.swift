/// The application an alert window belongs to: `WM_CLASS`'s instance and class names (ICCCM
/// §4.1.2.5), which window managers match their rules on (`for_window [class="Paste"]`).
///
/// It comes from the caller (PasteCLI passes paste's), so Alerts holds no application's name.
public struct AppIdentity: Hashable, Sendable {
    /// The instance name (`res_name`), e.g. `paste`.
    public var instanceName: String
    /// The class name (`res_class`), e.g. `Paste`.
    public var className: String

    /// An identity of these names.
    public init(instanceName: String, className: String) {
        self.instanceName = instanceName
        self.className = className
    }
}
