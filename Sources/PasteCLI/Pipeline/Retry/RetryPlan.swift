import PasteCore
import Stores

/// What `paste --retry` and `paste --outbox send` decided before sending: each entry names its
/// own service, so the service and its connection are looked up as each entry is sent, among
/// these.
struct RetryPlan: Sendable {
    /// Built-in and configured services, where an entry's service is found by name.
    var services: [ServiceProfile]
    /// `[paste]`'s trust and proxy keys, under each entry's service's own.
    var connection: ConnectionSettings
    /// How transfers run (no progress bar: `--retry` runs from cron).
    var transfer: RunPlan.Transfer
    /// Backoff between runs and when an entry is held (`retry-max-attempts`).
    var outboxPolicy: OutboxPolicy
    /// `-n`: list what would be sent, send nothing.
    var isDryRun: Bool
    /// `--force`: the secret guard does not stop an entry, in its text or in the values that
    /// go with it.
    var isForced: Bool
    /// `redact` of `[paste]`, for the entries whose masking the config decides
    /// (`masking(of:)`).
    var masksByDefault = false
    /// `--redact`: every entry sent is masked now, its text and its values, whether or not the
    /// run that wrote it asked for masking (`masksText(of:)`, `masking(of:)`). `--force` with it
    /// is a usage error (`Invocation`).
    var isMaskingRequested = false
    /// Whether a person runs it (stdin or stderr is a terminal): then every retryable entry is
    /// sent now, whatever its backoff; the backoff paces only unattended runs (cron, a timer),
    /// so a dead service is not hammered.
    var isAttended: Bool = false
    /// Only this service's entries (by name; not `--url` entries): the background flush after a
    /// paste to it worked (`OutboxFlush`).
    var onlyService: String? = nil
    /// `guess-language`: whether an entry's text, sent with no language, gets one guessed
    /// (as a fresh text would; `RunPlan.options.guessesLanguage`).
    var guessesLanguage = true

    /// How the values that go with an entry (its service's literal fields, a fallback's, the
    /// title, the language) are masked when it is sent (issue 42, item 3): on every service
    /// with `--redact` now; else as the run that wrote it would have, the masking it asked for
    /// kept in its metadata (`isMaskingRequested`: `--redact`, or the answer "Upload with
    /// secrets masked"), the services' and `[paste]`'s `redact` read as the config stands now.
    /// Nil when nothing is masked: an entry written before the setting was kept (its values are
    /// refused, as they were), or `--force` (which sends them as they are) on an entry whose
    /// run did not ask for masking; a masking asked for when it was written holds under
    /// `--force`, as the entry's text stays masked.
    func masking(of metadata: OutboxEntry.Metadata) -> RunPlan.Masking? {
        if isMaskingRequested { return RunPlan.Masking(isRequested: true, byDefault: masksByDefault) }
        guard let isRequested = metadata.isMaskingRequested else { return nil }
        if isForced { return isRequested ? RunPlan.Masking(isRequested: true, byDefault: false) : nil }
        return RunPlan.Masking(isRequested: isRequested, byDefault: masksByDefault)
    }

    /// Whether what the guard finds in an entry's text is masked before it is sent, rather than
    /// refused (holding the entry): with `--redact` now, or when masking was asked for the text
    /// (its metadata's `redact`: `--redact` when it was written or sent before, or the answer
    /// "Upload with secrets masked"). Never under `--force`, which sends the text as it is.
    func masksText(of metadata: OutboxEntry.Metadata) -> Bool {
        !isForced && (isMaskingRequested || metadata.isMaskingRequested == true)
    }
}
