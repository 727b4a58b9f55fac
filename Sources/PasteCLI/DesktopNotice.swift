import Notify
import PasteCore

/// The keys of paste's notification actions: a contract (DESIGN.md, "Behaviour that matters"),
/// since tests outside the project invoke them over the bus.
enum NotificationActionKey {
    /// Opens the URL (`xdg-open`); also a click on the notification itself (the spec's default).
    static let open = "default"
    /// Puts the URL on the clipboard again.
    static let copy = "copy"
    /// Deletes the paste with what history stored for it.
    static let delete = "delete"
    /// Sends the outbox entry that holds the text now.
    static let retry = "retry"
    /// Answers the secret guard's question (or the one before the first public upload): send it.
    static let upload = "upload"
    /// Answers the secret guard's question (or the one before the first public upload): do not.
    static let cancel = "cancel"
    /// Answers the question before the first public upload: send there, now and from then on.
    static let always = "always"
    /// Answers the question before the first public upload: choose another service first.
    static let choose = "choose"
}

/// What one outcome says on the desktop, and what its actions act on: the value the run hands
/// to the notifier that outlives it (`DesktopNotifier`), so it is plain data.
struct DesktopNotice: Codable, Equatable, Sendable {
    /// The summary: the window's title ("Copied", "Paste failed").
    var summary: String
    /// The body: the window's text.
    var body: String
    /// Whether it says a failure. Both go with normal urgency: a critical one would stay until
    /// dismissed on most servers (the spec lets them ignore its expiry), where paste's own
    /// window of a failure goes after `notify-timeout` like any other.
    var isFailure: Bool
    /// How long it stays, in milliseconds (`notify-timeout`).
    var expiryMilliseconds: Int
    /// The thumbnail of an uploaded image (or the URL's QR code), as `image-data` sends it.
    var image: NotificationImage?
    /// The paste's URL, for `default` and `copy` (and `delete`).
    var url: String?
    /// Whether `url` carries its own key: `copy` puts it back with the password manager's mark.
    var isKeyBearing = false
    /// Whether history holds a way to delete the paste (a token or a removal link).
    var isDeletable = false
    /// The outbox entry that holds the text, for `retry`.
    var outboxID: String?
    /// The config file of the run, for the `paste` an action runs (`--config`).
    var configPath: String?
    /// The notification this one replaces (`replaces_id`): the run's "Retrying…"
    /// (`RetryFeedback`), so that the final word shows in its place.
    var replacesID: UInt32?

    /// The actions this outcome offers, when the server shows actions: on success `default`,
    /// `copy`, and `delete` where it can be deleted; on failure `retry` where an outbox entry
    /// holds the text.
    var actions: [NotificationAction] {
        var actions: [NotificationAction] = []
        if url != nil {
            actions.append(.init(key: NotificationActionKey.open, label: "Open"))
            actions.append(.init(key: NotificationActionKey.copy, label: "Copy link"))
            if isDeletable { actions.append(.init(key: NotificationActionKey.delete, label: "Delete paste")) }
        }
        if outboxID != nil { actions.append(.init(key: NotificationActionKey.retry, label: "Retry now")) }
        return actions
    }

    /// The notification sent: with the actions only when the server shows them (no promises in
    /// a notification without buttons), the body escaped for a server that reads markup.
    func notification(capabilities: Set<String>) -> DesktopNotification {
        var note = DesktopNotification(summary: summary, plainBody: body, capabilities: capabilities)
        note.urgency = .normal
        note.expiry = .after(.milliseconds(max(1, expiryMilliseconds)))
        if let replacesID { note.replacesID = replacesID }
        if capabilities.contains("actions") { note.actions = actions }
        note.image = image
        return note
    }
}
