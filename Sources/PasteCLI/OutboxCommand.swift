import PasteCore

/// What `paste --outbox` is asked to do.
public enum OutboxCommand: Sendable, Equatable {
    /// `--outbox` or `--outbox list`: list the entries (`--json`: a JSON array).
    case list
    /// `--outbox show ID`: the entry's text on stdout, byte for byte.
    case show(id: String)
    /// `--outbox send ID`: send the entry now, whatever its state.
    case send(id: String)
    /// `--outbox drop ID`: remove the entry.
    case drop(id: String)
    /// `--outbox drop --all`: remove every entry no run holds.
    case dropAll
}
