/// A key as the dialogs' state machines see it.
enum AlertKey: Hashable, Sendable {
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, tab, backTab, backspace, delete
    /// Composed text typed by the person.
    case text(String)
}

/// What handling one input did to a dialog.
enum Step<Value: Hashable & Sendable>: Hashable, Sendable {
    /// Nothing to do (no redraw).
    case unchanged
    /// The state changed: draw again.
    case changed
    /// The dialog is over with this answer (nil: cancelled).
    case finished(Value?)
}

/// An input event as the dialogs see it (window coordinates in Alerts' own types).
enum InputEvent: Hashable, Sendable {
    /// The window must be drawn again.
    case exposed
    /// A key press.
    case key(AlertKey)
    /// A mouse button press; `button` 1 is the left one.
    case pressed(Point, button: Int)
    /// The pointer moved.
    case moved(Point)
    /// The wheel turned by this many rows (negative: up).
    case scrolled(lines: Int)
    /// The window manager asked to close the window.
    case closeRequested
}
