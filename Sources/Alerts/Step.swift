/// What handling one input did to a dialog.
enum Step<Value: Hashable & Sendable>: Hashable, Sendable {
    /// Nothing to do (no redraw).
    case unchanged
    /// The state changed: draw again.
    case changed
    /// The dialog is over with this answer (nil: cancelled).
    case finished(Value?)
}
