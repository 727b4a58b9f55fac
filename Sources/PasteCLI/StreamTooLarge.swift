import PasteCore

/// A streamed input whose first part alone passes the service's `max-size`.
struct StreamTooLarge: PasteError {
    var service: String
    var bytesRead: Int
    var limit: Int64
    var message: String {
        "the text is more than \(bytesRead) bytes but '\(shown: service)' accepts at most \(limit); nothing was uploaded"
    }
    var exitStatus: ExitStatus { .badInput }
}
