import PasteCore

/// An outbox entry whose service left the config: held, in one line, and the others still go.
struct ServiceGone: PasteError {
    var id: String
    var service: String

    var message: String {
        "outbox entry \(id) is held: its service '\(service)' is not configured any more; "
            + "'paste --outbox send \(id)' sends it once it is, 'paste --outbox drop \(id)' drops it"
    }
    var exitStatus: ExitStatus { .config }
}
