import PasteCore

/// An outbox entry whose content is no longer what was kept: its SHA-256 is not the one its
/// metadata recorded (the file was edited in place, or corrupted). It is held, never sent as if
/// it were the original, and a line says so (status 65).
struct ContentChanged: PasteError {
    var id: String

    var message: String {
        "outbox entry \(id) is held: its text changed since it was kept (its SHA-256 is not the one recorded); "
            + "'paste --outbox show \(id)' prints it, 'paste --outbox drop \(id)' drops it"
    }
    var exitStatus: ExitStatus { .badInput }
    var disposition: Disposition { Disposition(.hold, exitStatus: exitStatus, reason: .contentChanged) }
}
