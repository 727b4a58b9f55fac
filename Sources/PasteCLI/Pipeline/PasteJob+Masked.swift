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

    /// What a fresh text that falls back from `first` carries to its fallback (`FallbackStage`):
    /// the masked values of the fallback's `fields` in place of `first`'s, and the title's and
    /// the language's only when `options` (as the fallback takes them) still hold them; its
    /// history line and `--json` list what the paste it made carries. Nothing for an outbox
    /// entry, whose masked values were kept with it.
    mutating func carryMasked(fields: [MaskedSecret], from first: ServiceProfile, options: PasteOptions) {
        guard case .input(var fresh) = source else { return }
        var dropped = Set(first.fields.map { GuardStage.fieldPlace($0.name) })
        if options.title == nil { dropped.insert(GuardStage.titlePlace) }
        if options.language == nil { dropped.insert(GuardStage.languagePlace) }
        fresh.input.masked = fresh.input.masked.filter { !dropped.contains($0.field ?? "") } + fields
        source = .input(fresh)
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
