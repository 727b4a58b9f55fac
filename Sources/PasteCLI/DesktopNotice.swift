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
    /// Answers the secret guard's question: send it with each secret masked (`--redact`).
    static let redact = "redact"
    /// Answers the secret guard's question (or the one before the first public upload): do not.
    static let cancel = "cancel"
    /// Answers the question before the first public upload: send there, now and from then on.
    static let always = "always"
    /// Answers the question before the first public upload: choose another service first.
    static let choose = "choose"
}

/// What one outcome says on the desktop, and what its actions act on: the value the run hands
/// to the notifier that outlives it (`DesktopNotifier`), so it is plain data. The notifier makes
/// the next ones itself, each in the same place (`replacesID`), as the person acts on them.
struct DesktopNotice: Codable, Equatable, Sendable {
    /// The summary: the window's title ("Copied", "Paste failed").
    var summary: String
    /// The body: the window's text.
    var body: String
    /// Whether it says a failure. Both go with normal urgency: a critical one would stay until
    /// dismissed on most servers (the spec lets them ignore its expiry), where paste's own
    /// window of a failure goes after `notify-timeout` like any other.
    var isFailure: Bool
    /// `notify-timeout`, in milliseconds.
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
    /// (`RetryFeedback`), so that the final word shows in its place; in the notifier, the
    /// notification an action was invoked on, so that its outcome shows in its place.
    var replacesID: UInt32?
    /// Whether the config set `notify-timeout`: then it rules every notification, one with
    /// actions too (`expiry`).
    var isExpiryExplicit = false

    /// How long a success with actions stays unless `notify-timeout` is set: long enough to
    /// copy the link again or delete the paste after a look at it (issue 41: "Copy link still
    /// works 30 s after a success").
    static let actionTime = Duration.seconds(60)

    /// What an action does.
    enum Effect: Equatable, Sendable {
        /// Opens the URL (`xdg-open`).
        case open
        /// Puts the URL on the clipboard again: the one effect that may be asked for again.
        case copy
        /// Deletes the paste.
        case delete
        /// Sends the outbox entry now.
        case retry
    }

    /// The actions this outcome offers, when the server shows actions: on success `default`,
    /// `copy`, and `delete` where it can be deleted; on failure `retry` where an outbox entry
    /// holds the text, and `default` doing the same. `default` (a click on the notification
    /// itself, and the only action a server without buttons reaches directly: mako's click or
    /// `makoctl invoke`) is the most useful one for the card: Retry now on a failure, Open on
    /// a success, Copy link for a URL that carries its key (never opened: `noOpenLine`). Its
    /// label differs from the named action's ("Retry" beside "Retry now", "Copy" beside "Copy
    /// link"): servers with buttons draw none for `default`, and `makoctl menu` finds an action
    /// by its label, so two alike would reach neither. The notifier acts on these keys only
    /// (`DesktopNotifier.act`).
    var actions: [NotificationAction] {
        var actions: [NotificationAction] = []
        if url != nil {
            actions.append(.init(key: NotificationActionKey.open, label: isKeyBearing ? "Copy" : "Open"))
            actions.append(.init(key: NotificationActionKey.copy, label: "Copy link"))
            if isDeletable { actions.append(.init(key: NotificationActionKey.delete, label: "Delete paste")) }
        }
        if outboxID != nil {
            if url == nil { actions.append(.init(key: NotificationActionKey.open, label: "Retry")) }
            actions.append(.init(key: NotificationActionKey.retry, label: "Retry now"))
        }
        return actions
    }

    /// What the action `key` does on this card; nil for a key it does not offer.
    func effect(of key: String) -> Effect? {
        guard actions.contains(where: { $0.key == key }) else { return nil }
        switch key {
        case NotificationActionKey.open:
            if url == nil { return .retry }
            return isKeyBearing ? .copy : .open
        case NotificationActionKey.copy: return .copy
        case NotificationActionKey.delete: return .delete
        case NotificationActionKey.retry: return .retry
        default: return nil
        }
    }

    /// The keys the server may invoke again and again and be heard each time: those that copy
    /// (`NotificationServer.nextEvent`). Every other effect happens once per notification.
    var repeatableKeys: Set<String> {
        Set(actions.map(\.key).filter { effect(of: $0) == .copy })
    }

    /// How long the notification stays: `notify-timeout` where the config sets it, or where
    /// there is nothing to act on (no actions, or a server that shows none); otherwise a
    /// failure that offers Retry now stays until the person dismisses it or it is sent
    /// (`DesktopNotifier` takes its buttons away at its `longestWait`), and a success with
    /// actions stays `actionTime` (or `notify-timeout`, when that is longer).
    func expiry(showsActions: Bool) -> DesktopNotification.Expiry {
        let timeout = Duration.milliseconds(max(1, expiryMilliseconds))
        guard !isExpiryExplicit, showsActions, !actions.isEmpty else { return .after(timeout) }
        if outboxID != nil { return .never }
        return .after(max(timeout, Self.actionTime))
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
        note.expiry = expiry(showsActions: showsActions)
        if let replacesID { note.replacesID = replacesID }
        if showsActions { note.actions = actions }
        note.image = image
        return note
    }
}
