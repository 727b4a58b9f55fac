/// A `${kind:argument}` reference to a secret.
public struct Reference: Sendable, Equatable {
    /// Where the secret comes from.
    public enum Kind: String, Sendable, CaseIterable {
        /// An environment variable.
        case env
        /// A file, `~/` for the home folder; trailing newlines dropped.
        case file
        /// What a command prints (see `CommandWords`); trailing newlines dropped.
        case cmd
    }

    public var kind: Kind
    public var argument: String

    public init(kind: Kind, argument: String) {
        self.kind = kind
        self.argument = argument
    }
}
