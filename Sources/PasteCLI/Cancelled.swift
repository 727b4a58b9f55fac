import PasteCore

/// The person cancelled a dialog (exit 130).
struct Cancelled: PasteError {
    var message: String { "cancelled; nothing was uploaded" }
    var exitStatus: ExitStatus { .cancelled }
}
