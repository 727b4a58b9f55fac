internal import X11Interop

/// A toast that stays up while the run goes on, then says how it ended in the same window: at a
/// hotkey, "Retrying…" while a failed upload is sent again, then "Copied" or why it failed
/// (issue 25, item 5).
///
/// Shown on the calling thread and left mapped without an event loop while the caller works
/// (a retry's backoff, the next attempt); `finish(with:)` puts the final notification in the
/// same window (new size and title, `WM_NAME` included) and runs the toast's loop as
/// `Alerts.notify` does. The window closes when the toast is released.
public final class LiveToast {
    private let session: AlertSession
    private let app: AppIdentity
    private let displayName: String?

    /// Shows `note` and returns at once, the window up.
    ///
    /// - Throws: `AlertError` when no window can be shown.
    public init(_ note: Alerts.Notification, displayName: String?, app: AppIdentity) throws(AlertError) {
        session = try AlertSession(displayName: displayName, app: app)
        self.app = app
        self.displayName = displayName
        let layout = Self.layout(note, session: session)
        try session.show(frame: frame(of: layout), kind: .notification, title: note.title)
        session.draw(layout.commands)
    }

    /// The window's X id (for tests).
    public var windowID: UInt { session.windowID }

    /// Puts `note` in the window in place of what it said and returns at once, the window still
    /// up: the next attempt of a retry ("attempt 3 of 4" after "attempt 2 of 4").
    public func update(with note: Alerts.Notification) {
        let layout = Self.layout(note, session: session)
        session.reshape(frame: frame(of: layout), title: note.title)
        session.draw(layout.commands)
    }

    /// Puts `note` in the window in place of what it said, and runs the toast until its timeout,
    /// a click or Escape, like `Alerts.notify` (a click on one with a code shows the code; its
    /// actions go to `onAction`).
    ///
    /// - Throws: `AlertError` when the connection is lost.
    public func finish(
        with note: Alerts.Notification, onAction: (Alerts.ToastChoice) -> Alerts.Notification? = { _ in nil }
    ) throws(AlertError) {
        let layout = Self.layout(note, session: session)
        session.reshape(frame: frame(of: layout), title: note.title)
        session.draw(layout.commands)
        guard let code = try Alerts.runToast(note, session: session, onAction: onAction) else { return }
        try Alerts.showCode(code, displayName: displayName, app: app)
    }

    private static func layout(_ note: Alerts.Notification, session: AlertSession) -> NotificationLayout {
        Alerts.toastLayout(note, session: session)
    }

    private func frame(of layout: NotificationLayout) -> Rect {
        Placement.notificationFrame(size: layout.size, monitor: session.monitor, margin: session.metrics.screenMargin)
    }
}

@available(*, unavailable, message: "a toast's window belongs to the thread that showed it")
extension LiveToast: Sendable {}
