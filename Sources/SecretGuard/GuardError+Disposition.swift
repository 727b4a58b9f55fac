import PasteCore

extension GuardError {
    /// Held: the person must decide, and only `--force` sends it.
    public var disposition: Disposition { Disposition(.hold, exitStatus: exitStatus, reason: .heldByGuard) }
}
