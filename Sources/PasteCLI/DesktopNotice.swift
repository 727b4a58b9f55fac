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

    /// The actions this outcome offers, when the server shows actions: on success `default`
    /// (not for a key-bearing URL: `noOpenLine`), `copy`, and `delete` where it can be deleted;
    /// on failure `retry` where an outbox entry holds the text. The notifier acts on these keys
    /// only (`DesktopNotifier.act`).
    var actions: [NotificationAction] {
        var actions: [NotificationAction] = []
        if url != nil {
            if !isKeyBearing { actions.append(.init(key: NotificationActionKey.open, label: "Open")) }
            actions.append(.init(key: NotificationActionKey.copy, label: "Copy link"))
            if isDeletable { actions.append(.init(key: NotificationActionKey.delete, label: "Delete paste")) }
        }
        if outboxID != nil { actions.append(.init(key: NotificationActionKey.retry, label: "Retry now")) }
        return actions
    }

    /// Why a URL that carries its own key has no Open, the last line of its notification where
    /// the server shows buttons. Opening a URL means giving it to `xdg-open` (or a portal),
    /// which starts the browser with it: both command lines would hold the key, and every user
    /// may read them (`/proc/PID/cmdline`); the OpenURI portal takes it over the bus but starts
    /// the browser the same way. A file that forwards the browser to the link keeps it out of
    /// every argv, but a Snap browser (Ubuntu's Firefox) cannot read a file where it would be
    /// private (`$XDG_RUNTIME_DIR`; its `/tmp` is its own), and would show an error instead.
    static let noOpenLine =
        "No Open button: the browser's command line, which every user can read, would hold the link's key. "
        + "Paste the link into the browser instead."

    /// The notification sent: with the actions only when the server shows them (no promises in
    /// a notification without buttons; `noOpenLine` where a key-bearing URL goes without Open),
    /// the body escaped for a server that reads markup.
    func notification(capabilities: Set<String>) -> DesktopNotification {
        let showsActions = capabilities.contains("actions")
        let body = showsActions && url != nil && isKeyBearing ? body + "\n" + Self.noOpenLine : body
        var note = DesktopNotification(summary: summary, plainBody: body, capabilities: capabilities)
        note.urgency = .normal
        note.expiry = .after(.milliseconds(max(1, expiryMilliseconds)))
        if let replacesID { note.replacesID = replacesID }
        if showsActions { note.actions = actions }
        note.image = image
        return note
    }
}
