import PasteCore
import SecretGuard
import Upload

/// A failed upload whose text is safe in the outbox: the failure's message and status, and a
/// hint saying where the text is and how it goes (every kind of failure, not only the service's
/// own).
struct KeptInOutbox: PasteError {
    var failure: any PasteError
    /// The entry's id.
    var id: String
    /// Whether the entry is held (the server may have made the paste) rather than retryable.
    var isHeld: Bool

    var message: String { failure.message }
    /// The failure's own hint (how to fix it) first, then where the text is, one per line.
    var hint: String? { failure.hint.map { $0 + "\n" + whereItIs } ?? whereItIs }
    var exitStatus: ExitStatus { failure.exitStatus }

    /// Where the text is, one line.
    var whereItIs: String {
        isHeldByGuard ? Self.heldByGuard(id: id) : Self.whereItIs(id: id, isHeld: isHeld)
    }

    /// Whether the secret guard holds it (up front on `--outbox send`, or as it streamed): no
    /// paste was made, and only the person can say it may go.
    var isHeldByGuard: Bool {
        guard isHeld else { return false }
        if failure is GuardError { return true }
        if case .contentRefused(let refusal) = failure as? UploadError { return refusal.keepsText }
        return false
    }

    /// Where a text the guard holds is, and how it goes anyway: `--outbox send` scans it again,
    /// so only `--force` sends it.
    static func heldByGuard(id: String) -> String {
        "the text is held in the outbox (\(id)): 'paste --outbox send \(id) --force' sends it anyway, "
            + "'paste --outbox drop \(id)' drops it"
    }

    /// "the text waits in the outbox (ID); …", as every message that names an entry says it.
    static func whereItIs(id: String, isHeld: Bool) -> String {
        isHeld
            ? "the text is held in the outbox (\(id)): the paste may have been made; "
                + "'paste --outbox send \(id)' sends it anyway, 'paste --outbox drop \(id)' drops it"
            : "the text waits in the outbox (\(id)); 'paste --retry' sends it again"
    }
}
