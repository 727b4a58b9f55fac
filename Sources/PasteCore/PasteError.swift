/// An error that can be shown to the person running `paste`.
///
/// Every module's error reaches the user through this protocol: PasteCLI is the one place that
/// turns it into `paste: <message>` on stderr (plus the hint, if any) and an exit status.
public protocol PasteError: Error {
    /// One line: what failed, the object, and why (`cannot read config '<path>': permission denied`).
    var message: String { get }
    /// An optional second line telling the person what to do next.
    var hint: String? { get }
    /// The exit status this error ends the run with.
    var exitStatus: ExitStatus { get }
}

extension PasteError {
    public var hint: String? { nil }
}
