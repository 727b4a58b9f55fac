import PasteCore

/// A failed upload whose text could not be put in the outbox either: the failure, then that
/// the text could not be saved and why (status 74). Never claims that the text waits.
struct UnsavedFailure: PasteError {
    /// Why the upload failed.
    var failure: any PasteError
    /// Why the outbox could not take the text.
    var notSaved: TextNotSaved

    var message: String { failure.message }
    var hint: String? { [failure.hint, notSaved.message, notSaved.hint].compactMap { $0 }.joined(separator: "\n") }
    var exitStatus: ExitStatus { notSaved.exitStatus }
}
