import PasteCore

/// A failed upload whose text is safe in the outbox: the failure's message and status, and a
/// hint saying where the text is (every kind of failure, not only the service's own).
struct KeptInOutbox: PasteError {
    var failure: any PasteError
    var message: String { failure.message }
    /// The failure's own hint (how to fix it) first, then where the text is, one per line.
    var hint: String? { failure.hint.map { $0 == Self.hint ? $0 : $0 + "\n" + Self.hint } ?? Self.hint }
    var exitStatus: ExitStatus { failure.exitStatus }

    static let hint = "the text waits in the outbox; 'paste --retry' sends it again"
}
