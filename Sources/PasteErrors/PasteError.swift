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
    /// What the failure means for its text and the run (retry now, fall back, retry later,
    /// hold, drop), decided here, by the error: held unless it says otherwise.
    var disposition: Disposition { get }
}

extension PasteError {
    public var hint: String? { nil }
}

/// Any part's `PasteError` as one concrete type, for code whose failures come from several
/// parts: building a request fails with a `RequestError` (its options), a `ConfigError` (a
/// value's reference), an `InspectionRefusal` (its content) or what a question's window says.
/// Swift's typed throws names one concrete type, never `any PasteError`; this one keeps each of
/// those errors a `PasteError` by construction, all the way up, with no cast that could miss.
public struct PartError: PasteError {
    /// The error as its part threw it.
    public let underlying: any PasteError

    public init(_ underlying: some PasteError) { self.underlying = underlying }

    public var message: String { underlying.message }
    public var hint: String? { underlying.hint }
    public var exitStatus: ExitStatus { underlying.exitStatus }
    public var disposition: Disposition { underlying.disposition }

    /// What `body` returns, or the error it throws as a `PartError`.
    public static func lift<Value, Failure: PasteError>(_ body: () throws(Failure) -> Value) throws(PartError)
        -> Value
    {
        do { return try body() } catch { throw PartError(error) }
    }
}
