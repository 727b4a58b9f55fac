internal import X11Interop

/// Windows for a person at a desktop hotkey, where there is no terminal to print to.
///
/// Every call blocks: it opens its own connection to `displayName` (nil: `$DISPLAY`), shows one
/// window, runs its event loop on the calling thread and closes everything before returning.
/// Dialogs hold the keyboard grab while they are up and always release it, error or not. `app`
/// names the application the windows belong to (`WM_CLASS`): the caller's, not Alerts'.
public enum Alerts {
    /// Shows a toast at the top right of the monitor under the pointer.
    ///
    /// It never takes focus. Returns when `note.timeout` passes (counted again whenever the
    /// pointer moves over it: a card being reached for stays), when it is clicked, or on
    /// Escape/Enter if the window manager gave it focus anyway. With `note.image`, a thumbnail
    /// of it (or a placeholder) sits left of the text. With `note.code`, a click (or Enter or
    /// Space) shows the QR code in its place, until it is clicked or `codeTimeout` passes.
    /// With `note.actions`, a row of buttons sits under the text: a press on one (or a click
    /// on a clickable toast) goes to `onAction`, on this thread, and the toast then says what
    /// it returns, in the same window (nil closes it).
    /// - Throws: `AlertError` when no window can be shown.
    public static func notify(
        _ note: Notification, displayName: String?, app: AppIdentity,
        onAction: (ToastChoice) -> Notification? = { _ in nil }
    ) throws(AlertError) {
        guard let code = try showToast(note, displayName: displayName, app: app, onAction: onAction) else { return }
        try showCode(code, displayName: displayName, app: app)
    }

    /// The toast, in a session of its own that closes (the window goes) before any code is
    /// shown; the code when it was asked for.
    private static func showToast(
        _ note: Notification, displayName: String?, app: AppIdentity, onAction: (ToastChoice) -> Notification?
    ) throws(AlertError) -> Notification.Code? {
        let session = try AlertSession(displayName: displayName, app: app)
        let layout = toastLayout(note, session: session)
        try session.show(frame: toastFrame(layout, session: session), kind: .notification, title: note.title)
        session.draw(layout.commands)
        return try runToast(note, session: session, onAction: onAction)
    }

    /// The title of the window with the QR code (what window managers and tests see).
    public static let codeTitle = "QR code"
    /// How long the QR code stays up unless clicked: time to take out a phone and aim it.
    public static let codeTimeout = Duration.seconds(60)

    /// The layout of a toast in `session`'s window.
    static func toastLayout(_ note: Notification, session: AlertSession) -> NotificationLayout {
        let thumbnail = note.image.map { Thumbnail($0, metrics: session.metrics) }
        return NotificationLayout(note, thumbnail: thumbnail, metrics: session.metrics, measurer: session)
    }

    /// Where a toast of `layout`'s size goes.
    static func toastFrame(_ layout: NotificationLayout, session: AlertSession) -> Rect {
        Placement.notificationFrame(size: layout.size, monitor: session.monitor, margin: session.metrics.screenMargin)
    }

    /// Runs a shown toast (already drawn) until it ends; the code to show next, when it was
    /// asked for (a click, Enter or Space on a toast with one).
    static func runToast(
        _ first: Notification, session: AlertSession, onAction: (ToastChoice) -> Notification?
    ) throws(AlertError) -> Notification.Code? {
        var note = first
        var layout = toastLayout(note, session: session)
        var deadline = ContinuousClock.now + note.timeout
        /// Acts on `choice` and shows what follows in the same window; false when it closes.
        func act(_ choice: ToastChoice) -> Bool {
            guard let next = onAction(choice) else { return false }
            note = next
            layout = toastLayout(note, session: session)
            session.reshape(frame: toastFrame(layout, session: session), title: note.title)
            session.draw(layout.commands)
            deadline = .now + note.timeout
            return true
        }
        while let event = try session.nextEvent(until: deadline) {
            switch event {
            case .exposed: session.draw(layout.commands)
            case .moved:
                // The pointer is on the card: it stays while it is reached for.
                deadline = max(deadline, .now + note.timeout)
            case .pressed(let point, button: 1):
                if let index = layout.buttons.button(at: point) {
                    guard act(.button(index)) else { return nil }
                } else if let code = note.code {
                    return code
                } else if note.isClickable {
                    guard act(.click) else { return nil }
                } else {
                    return nil
                }
            case .pressed, .key(.enter), .key(.text(" ")):
                return note.code
            case .closeRequested, .key(.escape): return nil
            default: break
            }
        }
        return nil
    }

    /// The QR code in a window of its own where the toast was, until it is clicked, Escape or
    /// Enter is pressed, or `codeTimeout` passes.
    static func showCode(_ code: Notification.Code, displayName: String?, app: AppIdentity) throws(AlertError) {
        let session = try AlertSession(displayName: displayName, app: app)
        let layout = CodeLayout(code)
        let frame = Placement.notificationFrame(
            size: layout.size, monitor: session.monitor, margin: session.metrics.screenMargin)
        try session.show(frame: frame, kind: .notification, title: codeTitle)
        session.draw(layout.commands)
        let deadline = ContinuousClock.now + codeTimeout
        while let event = try session.nextEvent(until: deadline) {
            switch event {
            case .exposed: session.draw(layout.commands)
            case .pressed, .closeRequested, .key(.escape), .key(.enter): return
            default: break
            }
        }
    }

    /// Asks for one line of text.
    ///
    /// Typing goes through the X input method, so any UTF-8 text can be entered. Enter (or OK)
    /// accepts; Escape (or Cancel, or closing the window) cancels.
    /// - Returns: the text, or nil when cancelled.
    /// - Throws: `AlertError` when no window can be shown.
    public static func prompt(
        title: String, message: String, initialText: String = "", displayName: String?, app: AppIdentity
    ) throws(AlertError) -> String? {
        let session = try AlertSession(displayName: displayName, app: app)
        let layout = PromptLayout(title: title, message: message, metrics: session.metrics, measurer: session)
        var field = TextFieldState(text: initialText)
        return try session.runDialog(
            title: title, size: layout.size,
            draw: {
                session.draw(layout.commands(field: field, measurer: session))
            },
            handle: { event in
                switch event {
                case .key(let key): return field.handle(key)
                case .pressed(let point, button: 1):
                    switch layout.hitTest(point) {
                    case .button(0): return .finished(field.text)
                    case .button: return .finished(nil)
                    default: return .unchanged
                    }
                default: return .unchanged
                }
            })
    }

    /// Lets the person choose one of `rows` (newest first, as given).
    ///
    /// The window grows with the rows up to a limit, then scrolls. Arrows, Page Up/Down and
    /// Home/End move; typing filters; Enter or a click picks; Escape cancels.
    /// - Returns: the index into `rows` of the choice, or nil when cancelled.
    /// - Throws: `AlertError` when no window can be shown.
    public static func pick(
        title: String, rows: [PickRow], displayName: String?, app: AppIdentity
    ) throws(AlertError) -> Int? {
        let session = try AlertSession(displayName: displayName, app: app)
        let layout = PickerLayout(title: title, rowCount: rows.count, metrics: session.metrics, measurer: session)
        var state = ListPickerState(rows: rows, visibleRowCount: layout.visibleRowCount)
        return try session.runDialog(
            title: title, size: layout.size,
            draw: {
                session.draw(layout.commands(state: state, measurer: session))
            },
            handle: { event in
                switch event {
                case .key(let key): return state.handle(key)
                case .scrolled(let lines): return state.scroll(by: lines)
                case .pressed(let point, button: 1):
                    guard case .row(let slot) = layout.hitTest(point), let index = state.rowIndex(atVisibleSlot: slot)
                    else { return .unchanged }
                    return .finished(index)
                default: return .unchanged
                }
            })
    }

    /// One of `confirm`'s buttons: the label shown, and the answer choosing it gives.
    ///
    /// The answer is what callers act on; the label is presentation only and may change freely.
    public struct Button<Answer: Hashable & Sendable>: Hashable, Sendable {
        /// What the button says.
        public var label: String
        /// What `confirm` returns when this button is chosen.
        public var answer: Answer

        /// Makes a button.
        public init(_ label: String, answer: Answer) {
            self.label = label
            self.answer = answer
        }
    }

    /// Asks the person to choose among `buttons`, stacked top to bottom as given.
    ///
    /// The last button must be the safe one (Cancel): it has focus at first, so Enter alone
    /// never does anything irreversible. Up/Down/Tab move focus; Enter or a click chooses.
    /// - Parameter buttons: at least one; the last is the safe choice.
    /// - Returns: the chosen button's answer, or nil on Escape or when the window is closed.
    /// - Throws: `AlertError` when no window can be shown.
    public static func confirm<Answer>(
        message: String, buttons: [Button<Answer>], displayName: String?, app: AppIdentity
    ) throws(AlertError) -> Answer? {
        precondition(!buttons.isEmpty, "confirm needs at least the safe button")
        let session = try AlertSession(displayName: displayName, app: app)
        let layout = ConfirmLayout(
            message: message, buttons: buttons.map(\.label), metrics: session.metrics, measurer: session)
        var state = ButtonStackState(count: buttons.count)
        let chosen = try session.runDialog(
            title: "paste", size: layout.size,
            draw: {
                session.draw(layout.commands(state: state, measurer: session))
            },
            handle: { event in
                switch event {
                case .key(let key): return state.handle(key)
                case .moved(let point):
                    guard case .button(let index) = layout.hitTest(point) else { return .unchanged }
                    return state.focus(index)
                case .pressed(let point, button: 1):
                    guard case .button(let index) = layout.hitTest(point) else { return .unchanged }
                    return .finished(index)
                default: return .unchanged
                }
            })
        return chosen.map { buttons[$0].answer }
    }
}
