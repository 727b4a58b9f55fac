import PasteCore

/// A bug, reported as exit 70.
struct InternalFailure: PasteError {
    var detail: String
    var message: String { "internal error: \(detail)" }
    var exitStatus: ExitStatus { .internalError }
}
