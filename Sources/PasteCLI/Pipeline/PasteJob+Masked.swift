import PasteCore
import SecretGuard
import Stores

extension PasteJob {
    /// What `--redact` masked in the paste, for the history and `--json`: the input's, or for
    /// an outbox entry (`--retry`, `--outbox send`, the background flush) what its metadata
    /// kept when it was masked (`OutboxEntry.Metadata.redacted`) with what this run masked in
    /// the values it carries (`RetryStage.job(for:)`).
    var masked: [MaskedSecret] {
        switch source {
        case .input(let fresh): fresh.input.masked
        case .outbox(let entry): entry.masked
        }
    }

    /// What a text that falls back from `first` carries to its fallback (`FallbackStage`): the
    /// masked values of the fallback's `fields` in place of `first`'s, and the title's and the
    /// language's only when `options` (as the fallback takes them) still hold them; its history
    /// line and `--json` list what the paste it made carries. The same for a fresh text and an
    /// outbox entry sent again.
    mutating func carryMasked(fields: [MaskedSecret], from first: ServiceProfile, options: PasteOptions) {
        var dropped = Set(first.fields.map { GuardStage.fieldPlace($0.name) })
        if options.title == nil { dropped.insert(GuardStage.titlePlace) }
        if options.language == nil { dropped.insert(GuardStage.languagePlace) }
        func carried(_ masked: [MaskedSecret]) -> [MaskedSecret] {
            masked.filter { !dropped.contains($0.field ?? "") } + fields
        }
        switch source {
        case .input(var fresh):
            fresh.input.masked = carried(fresh.input.masked)
            source = .input(fresh)
        case .outbox(var entry):
            entry.masked = carried(entry.masked)
            source = .outbox(entry)
        }
    }
}

extension PasteJob.ClaimedEntry {
    /// What an entry's metadata kept of what was masked in it (`OutboxEntry.Metadata.redacted`),
    /// its service's fields left out: those are masked again as the config stands when it is
    /// sent, and listed from there.
    static func recordedMasks(of metadata: OutboxEntry.Metadata) -> [MaskedSecret] {
        (metadata.redacted ?? []).compactMap(MaskedSecret.init(recorded:)).filter {
            !($0.field ?? "").hasPrefix(GuardStage.fieldPlace(""))
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
