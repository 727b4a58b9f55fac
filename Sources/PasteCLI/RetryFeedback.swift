import Alerts
import Notify
import PasteCore

/// "Retrying…" at a hotkey, then the final word in the same place (issue 25, item 5).
///
/// When the first attempt of a hotkey's upload fails and a retry follows (`SendStage.perform`),
/// the person sees "Retrying…" at once, before the backoff: in a toast that stays up
/// (`LiveToast`), or as a desktop notification (`notify-style`). The run's final window then
/// takes the same toast (`DesktopWindows.notify`), or its notification replaces this one
/// (`replaces_id`), so the person sees one place change, never a second window. Each later
/// attempt says its number in the same place, as stderr does. Shown on the run's own thread: the toast lives on that thread's connection, so the run stays
/// single-threaded (the clipboard owner may still be forked).
final class RetryFeedback {
    /// The title of the window or notification shown while a failed upload is sent again.
    static let title = "Retrying…"

    private let plan: RunPlan.Windows
    private let output: Output
    /// The toast saying "Retrying…", when a window says it.
    private(set) var toast: LiveToast?
    /// The desktop notification saying "Retrying…", when one does: what the final one replaces.
    private(set) var notificationID: UInt32?

    init(plan: RunPlan.Windows, output: Output) {
        self.plan = plan
        self.output = output
    }

    /// Whether "Retrying…" is on screen.
    var isShown: Bool { toast != nil || notificationID != nil }

    /// Shows "Retrying…" with why the attempt failed, or, when it is up already, puts the new
    /// attempt's number and reason in its place; failures to show it are only noted (the final
    /// word still comes).
    ///
    /// - Parameters:
    ///   - reason: the failed attempt's message (`connection refused`, `answered HTTP 503`).
    ///   - attempt: the attempt about to be made, of `attempts`.
    func showRetrying(reason: String, attempt: Int, of attempts: Int) {
        guard plan.isShown else { return }
        let body = output.shown(reason) + "\nTrying again (attempt \(attempt) of \(attempts))."
        let note = Alerts.Notification(title: Self.title, body: body, style: .failure, timeout: plan.notifyTimeout)
        if let toast {
            toast.update(with: note)
            return
        }
        if let shown = notificationID {
            if case .success(let id) = showOnDesktop(body, replacing: shown) { notificationID = id }
            return
        }
        if plan.usesDesktopNotifications {
            switch showOnDesktop(body) {
            case .success(let id):
                notificationID = id
                return
            case .failure(let failure):
                guard plan.displayName != nil else {
                    output.note("no desktop notification: \(failure.description)")
                    return
                }
            }
        }
        do {
            toast = try LiveToast(note, displayName: plan.displayName, app: .paste)
        } catch {
            output.note(error.message)
        }
    }

    /// Sends the notification (no actions: nothing to act on yet), in place of the one shown
    /// (`replacing`, its id) if any; its id, or why not.
    private func showOnDesktop(_ body: String, replacing shown: UInt32 = 0) -> Result<UInt32, NotifyError> {
        guard let address = plan.busAddress else { return .failure(.bus(.noAddress)) }
        do {
            let deadline = ContinuousClock.now + DesktopWindows.serverTime
            let (server, capabilities) = try NotificationServer.connect(busAddress: address, before: deadline)
            var note = DesktopNotification(summary: Self.title, plainBody: body, capabilities: capabilities)
            note.urgency = .normal
            note.replacesID = shown
            // Up until the final word replaces it, and a little past the longest run of retries.
            note.expiry = .after(Self.notificationExpiry)
            return .success(try server.show(note, before: .now + DesktopNotifier.callTime))
        } catch {
            return .failure(error)
        }
    }

    /// How long the "Retrying…" notification may stay should no final word replace it (a run
    /// killed during its retries): past any run of retries and backoffs.
    static let notificationExpiry = Duration.seconds(120)
}
