import PasteCore

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
    /// `--force`: the secret guard does not stop an entry.
    var isForced: Bool
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
}
