import PasteCore
import SecretGuard
import Stores

extension PasteJob {
    /// What `--redact` masked in the paste, for the history and `--json`: the input's, or for
    /// an outbox entry (`--retry`, `--outbox send`, the background flush) what its metadata
    /// kept when it was masked (`OutboxEntry.Metadata.redacted`).
    var masked: [MaskedSecret] {
        switch source {
        case .input(let fresh): fresh.input.masked
        case .outbox: claim?.entry.metadata.redacted?.compactMap(MaskedSecret.init(recorded:)) ?? []
        }
    }
}

extension HistoryRecord.Redacted {
    /// The record of one masked secret: its kind and place, never its value.
    init(_ secret: MaskedSecret) {
        self.init(kind: secret.pattern.rawValue, line: secret.line, column: secret.column, field: secret.field)
    }
}

extension MaskedSecret {
    /// A masked secret as the outbox recorded it; nil for a kind this version does not know.
    init?(recorded: HistoryRecord.Redacted) {
        guard let pattern = SecretPattern(rawValue: recorded.kind) else { return nil }
        self.init(pattern: pattern, line: recorded.line, column: recorded.column, field: recorded.field)
    }
}
