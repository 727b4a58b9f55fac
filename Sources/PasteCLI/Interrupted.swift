import PasteCore
import SystemInterop

/// A run that SIGINT, SIGTERM or SIGHUP stopped while it sent: one line saying where the text
/// is, and 128 + the signal's number.
struct Interrupted: PasteError {
    /// What became of the text.
    enum Outcome {
        /// In the outbox, whole: retryable (nothing the server could make a paste of went out)
        /// or held (the whole body went out).
        case kept(id: String, isHeld: Bool)
        /// A stream cut before its end: the text was never whole, so nothing was kept.
        case cutShort
        /// The outbox could not take it.
        case notSaved(TextNotSaved)
    }

    var signal: Signal
    var outcome: Outcome

    var message: String {
        switch outcome {
        case .kept(let id, false): "interrupted; the text waits in the outbox (\(id)); 'paste --retry' sends it"
        case .kept(let id, true):
            "interrupted; the text is held in the outbox (\(id)): the paste may have been made; "
                + "'paste --outbox send \(id)' sends it anyway"
        case .cutShort: "interrupted; the piped text was cut short before its end, so none of it was kept"
        case .notSaved(let notSaved): "interrupted; " + notSaved.message
        }
    }

    var hint: String? {
        if case .notSaved(let notSaved) = outcome { return notSaved.hint }
        return nil
    }

    var exitStatus: ExitStatus { Interruption.exitStatus(for: signal) }
}
