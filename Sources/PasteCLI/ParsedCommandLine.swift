import PasteCore

/// The result of reading argv.
public enum ParsedCommandLine: Sendable, Equatable {
    /// Ours to run.
    case paste(Invocation)
    /// coreutils paste(1)'s: positional operands or its options were given.
    case coreutils
}
