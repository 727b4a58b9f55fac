import PasteCore

/// A command line that cannot be run.
public struct UsageError: PasteError, Equatable {
    public var detail: String
    public var message: String { detail }
    public var hint: String? { "try 'paste --help'" }
    public var exitStatus: ExitStatus { .usage }
}
