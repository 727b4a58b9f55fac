import PasteCore
import SecretGuard

/// The secret guard holds an outbox entry's text (`RetryStage.check`): its refusal
/// (`GuardError.secretsFound`) said of the entry the way paste's other messages name one,
/// `refusing to upload outbox entry ID: it looks like it holds …`, never quoted as the name of
/// a file given with `-f` is (there is no file of that name).
struct EntryHeldByGuard: PasteError {
    /// What the guard found (at least one).
    var findings: [SecretFinding]
    /// The entry's id.
    var id: String

    /// The guard's own refusal of the text, naming nothing: its words, hint and meaning.
    private var refusal: GuardError { .secretsFound(findings, source: nil) }

    var message: String {
        let words = refusal.message
        let verb = "refusing to upload"
        guard words.hasPrefix(verb) else { return "outbox entry \(id): " + words }
        return verb + " outbox entry \(id)" + words.dropFirst(verb.count)
    }

    var hint: String? { refusal.hint }

    var exitStatus: ExitStatus { refusal.exitStatus }

    /// Held, as the guard's refusal of a fresh text is (`GuardError.disposition`).
    var disposition: Disposition { refusal.disposition }
}
