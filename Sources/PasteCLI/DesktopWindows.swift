import Alerts
import FoundationEssentials
import Notify
import PasteCore
import QRInterop
import SecretGuard
import SystemInterop

/// The windows of a run started at a hotkey, where no terminal shows stderr: the secret guard's
/// question, `--prompt`'s title, `--pick`'s list, and the notification of how the paste went.
///
/// Whether they are shown at all was decided once (`PlanResolver.windows(for:)`); what they say
/// passes the output funnel (`Output.shown`) like every line on stderr.
struct DesktopWindows {
    var plan: RunPlan.Windows
    var output: Output
    /// A line every result window of the run ends with (the first upload's public destination).
    var footnote: String?
    /// "Retrying…", when the run's upload is sent again: the final word takes its place.
    var retrying: RetryFeedback?

    /// Whether this run talks to a person through windows rather than a terminal.
    var isShown: Bool { plan.isShown }

    /// What a notification's actions act on (desktop notifications only; see `DesktopNotice`).
    struct FollowUp {
        /// The paste's URL: `default` opens it, `copy` copies it.
        var url: String?
        /// Whether `url` carries its own key: `copy` marks it (`KeyBearingURL`).
        var isKeyBearing = false
        /// Whether history holds a way to delete the paste (`delete`).
        var isDeletable = false
        /// The outbox entry holding the text (`retry`).
        var outboxID: String?
        /// `--qr`'s code of the URL: the notification's image in place of a thumbnail.
        var qrCode: QRCode?
    }

    /// How long the notification server has to answer before the outcome is shown another way
    /// (the window where an X display is there, else a line on stderr): long enough for a
    /// server that is up, short enough that a hotkey never waits on one that is not.
    static let serverTime = Duration.milliseconds(300)

    /// Shows the result: a desktop notification (`notify-style`), else the window; failures to
    /// show it are only noted.
    ///
    /// The title and text are the same whichever shows them. Where no notification server
    /// answers in `serverTime`, the window takes over where an X display is there; otherwise
    /// one line on stderr says so (the outcome itself is already on stdout or stderr).
    /// - Parameters:
    ///   - title: the title (the notification's summary); by default "Paste failed" for a
    ///     failure (`PasteFailure.title` tells a refusal, "Not uploaded", from a failure), "Copied" for a success (say it only when the URL is on the clipboard:
    ///     `DeliverStage.successWindow`).
    ///   - image: what was uploaded, when it is an image: shown as a thumbnail beside the text.
    ///   - followUp: what the desktop notification's actions act on.
    func notify(
        success: Bool, title: String? = nil, text: String, image: Alerts.Notification.Image? = nil,
        followUp: FollowUp = FollowUp()
    ) {
        let title = title ?? (success ? "Copied" : "Paste failed")
        let body = output.shown(footnote.map { text + "\n" + $0 } ?? text)
        var notice = DesktopNotice(
            summary: title, body: body, isFailure: !success,
            expiryMilliseconds: Int(plan.notifyTimeout.wholeMilliseconds), image: nil, url: followUp.url,
            isKeyBearing: followUp.isKeyBearing, isDeletable: followUp.isDeletable, outboxID: followUp.outboxID,
            configPath: plan.configPath, replacesID: retrying?.notificationID,
            isExpiryExplicit: plan.isNotifyTimeoutExplicit)
        if plan.usesDesktopNotifications {
            notice.image = followUp.qrCode.map(QRPicture.image) ?? image.flatMap(Self.thumbnail)
            guard let failure = showOnDesktop(notice) else { return }
            guard plan.displayName != nil else {
                output.note("no desktop notification: \(failure.description)")
                keepUnseen(title: title, body: body)
                return
            }
        }
        notice.image = nil
        var card = WindowCard(notice: notice, timeout: plan.notifyTimeout)
        var note = card.note
        note.image = image
        note.code = followUp.qrCode.map(QRPicture.windowCode)
        let environment = plan.environment
        let onAction = { (choice: Alerts.ToastChoice) -> Alerts.Notification? in
            card.act(on: choice, environment: environment)
        }
        do {
            if let toast = retrying?.toast {
                try toast.finish(with: note, onAction: onAction)
            } else {
                try Alerts.notify(note, displayName: plan.displayName, app: .paste, onAction: onAction)
            }
        } catch {
            output.note(error.message)
        }
    }

    /// paste's own card (the X window) with the same actions as a desktop notification's
    /// (issue 41, item 3): a click on it does its `default` (Open; Copy for a link that carries
    /// its key; Retry on a failure), its buttons the others (Copy link, Delete paste, Retry now),
    /// each acted on here (`DesktopNotifier.act`, as the notifier does) and ending in its
    /// outcome in the same window. Open, Delete paste and Retry now happen once.
    struct WindowCard {
        /// What the card says and acts on now.
        var notice: DesktopNotice
        /// How long each of its states stays (`notify-timeout`; a pointer on it keeps it).
        var timeout: Duration
        /// The effects done (each but copy once).
        var done: Set<DesktopNotice.Effect> = []

        /// The keys of its buttons, in order: every action but `default` (the click).
        var buttonKeys: [String] {
            notice.actions.map(\.key).filter { $0 != NotificationActionKey.open }
        }

        /// The window's notification for `notice`.
        var note: Alerts.Notification {
            var note = Alerts.Notification(
                title: notice.summary, body: notice.body, style: notice.isFailure ? .failure : .success,
                timeout: timeout)
            let labels = Dictionary(notice.actions.map { ($0.key, $0.label) }, uniquingKeysWith: { first, _ in first })
            note.actions = buttonKeys.compactMap { labels[$0] }
            note.isClickable = notice.effect(of: NotificationActionKey.open) != nil
            return note
        }

        /// Acts on what the person chose; what the window says next, nil to close it.
        mutating func act(on choice: Alerts.ToastChoice, environment: [String: String]) -> Alerts.Notification? {
            let key: String
            switch choice {
            case .click: key = NotificationActionKey.open
            case .button(let index):
                guard buttonKeys.indices.contains(index) else { return note }
                key = buttonKeys[index]
            }
            guard let effect = notice.effect(of: key) else { return note }
            if effect != .copy {
                guard done.insert(effect).inserted else { return note }
            }
            guard let next = DesktopNotifier.act(effect, notice: notice, environment: environment) else { return nil }
            notice = next
            return note
        }
    }

    /// Keeps an outcome nobody could see (no notification server, no X display) for the next
    /// run in a terminal to say (`UnseenOutcomes`), unless stderr is a terminal now: then the
    /// note was seen.
    private func keepUnseen(title: String, body: String) {
        guard !StandardStream.error.isTerminal, let store = UnseenOutcomes(environment: plan.environment) else {
            return
        }
        store.add(title: title, body: body, at: Date())
    }

    /// Shows why the paste failed, and where the text is: in the outbox (and how it goes from
    /// there), or that it could not be saved (`PasteFailure.windowLines`).
    func notifyFailure(_ failure: PasteFailure) {
        var followUp = FollowUp()
        // "Retry now" only for a text that may be sent again: a held one (the paste may exist)
        // goes only by `paste --outbox send`, on purpose.
        if case .outbox(let id, let state) = failure.text, state != .held { followUp.outboxID = id }
        notify(success: false, title: failure.title, text: failureText(failure), followUp: followUp)
    }

    /// Shows why the run failed before any paste was sent (the config, the input, the guard).
    func notifyFailure(_ error: any PasteError) {
        notifyFailure(PasteFailure(error))
    }

    /// The failure window's text (`PasteFailure.windowLines`), with the commands it names
    /// named as paste was run; `paste --retry` is one unbreakable word (no-break spaces), so the
    /// window never wraps it into `paste` / `--retry`.
    func failureText(_ failure: PasteFailure) -> String {
        let retry = output.named("paste --retry")
        return output.named(failure.windowLines().joined(separator: "\n"))
            .replacing(retry, with: Self.unbreakable(retry))
    }

    /// `command` with its spaces made no-break spaces (U+00A0): one word to line breaking.
    static func unbreakable(_ command: String) -> String {
        command.replacing(" ", with: "\u{00A0}")
    }

    /// Shows a notice on the desktop's notification server; nil when it is up, else why not.
    ///
    /// With actions (and a server that shows them) the notifier process shows it, and serves
    /// them once paste has returned (`DesktopNotifier`); without, it is sent from here.
    private func showOnDesktop(_ notice: DesktopNotice) -> NotifyError? {
        guard let address = plan.busAddress else { return .bus(.noAddress) }
        do {
            let deadline = ContinuousClock.now + Self.serverTime
            let (server, capabilities) = try NotificationServer.connect(busAddress: address, before: deadline)
            if capabilities.contains("actions") && !notice.actions.isEmpty {
                try DesktopNotifier.launch(notice, environment: plan.environment)
            } else {
                _ = try server.show(
                    notice.notification(capabilities: capabilities), before: .now + DesktopNotifier.callTime)
            }
            return nil
        } catch {
            return error
        }
    }

    /// The side of a thumbnail sent as `image-data`: what notification servers show an image at
    /// (dunst's default `max_icon_size` is 128), with little to send.
    static let thumbnailSide = 128

    /// An uploaded image shrunk for `image-data`, when it decodes (PNG, JPEG, GIF, WebP, BMP:
    /// `ImageDecoder`); nil for the others (TIFF, ICO, AVIF, HEIC, SVG), which go without a
    /// picture. Not `image-path` to a copy: the server would read it with its own loaders
    /// (gdk-pixbuf's, where it has them), which seldom read these either, and a copy of what may
    /// be a private screenshot would be left in `$XDG_RUNTIME_DIR` whenever the process that
    /// outlives the run is killed before the notification closes.
    static func thumbnail(_ image: Alerts.Notification.Image) -> NotificationImage? {
        Alerts.thumbnail(of: image, side: thumbnailSide).map {
            NotificationImage(width: $0.width, height: $0.height, hasAlpha: true, pixels: $0.pixels)
        }
    }

    /// Asks whether to upload text the guard flagged: a desktop notification with `upload` and
    /// `cancel` (`notify-style`), else the window.
    ///
    /// Nothing is sent until it is answered. A notification that closes, or is not answered in
    /// `questionTime`, is a cancel. Where no notification server with buttons answers, the
    /// window asks where an X display is there; otherwise nobody can be asked. Both name every
    /// finding, and offer "Upload as private" only where it differs from the service's default
    /// (`SecretQuestion`).
    /// "Upload with secrets masked" is offered where the text can be masked (`canMask`), first
    /// when the service is public.
    /// - Returns: `.uploadAnyway`, `.uploadMasked` or `.uploadPrivately`; nil when nobody can be
    ///   asked (the guard then refuses, as without windows).
    /// - Throws: `Cancelled` when the person chose Cancel, pressed Escape or closed the window.
    func confirmSecretUpload(_ findings: [SecretFinding], service: ServiceProfile, canMask: Bool = true) throws
        -> SecretChoice?
    {
        var question = SecretQuestion(findings: findings, service: service)
        question.offersMasked = canMask
        let message = output.shown(question.message)
        if plan.usesDesktopNotifications {
            switch askOnDesktop(message, answers: question.answers) {
            case .success(let choice?): return choice
            case .success(nil): throw Cancelled()
            case .failure(let failure):
                guard plan.displayName != nil else {
                    output.note("no desktop notification: \(failure.description)")
                    return nil
                }
            }
        }
        guard plan.displayName != nil else { return nil }
        var buttons = question.answers.map { Alerts.Button($0.label, answer: $0.choice) }
        if question.offersPrivate { buttons.append(.init("Upload as private", answer: .uploadPrivately)) }
        buttons.append(.init("Cancel", answer: .cancel))
        let answer = try Alerts.confirm(
            message: message, buttons: buttons, displayName: plan.displayName, app: .paste)
        switch answer {
        case .uploadAnyway, .uploadMasked, .uploadPrivately: return answer
        case .cancel, nil: throw Cancelled()
        }
    }

    /// How long the guard's question waits for an answer on the desktop: the notification's
    /// expiry; unanswered, it is a cancel.
    static let questionTime = Duration.seconds(60)

    /// Asks the guard's question as a notification with `upload` and `cancel`, on this thread
    /// (the run waits for the answer anyway).
    ///
    /// - Returns: the answer of the action chosen (`upload`, `redact`); nil for `cancel`, a
    ///   closing or no answer in time; the failure when no server with buttons answered.
    private func askOnDesktop(
        _ message: String, answers: [(choice: SecretChoice, key: String, label: String)]
    ) -> Result<SecretChoice?, NotifyError> {
        askOnDesktop(
            summary: "Upload this text?", message: message,
            actions: answers.map { NotificationAction(key: $0.key, label: $0.label) }
                + [.init(key: NotificationActionKey.cancel, label: "Cancel")]
        ).map { key in answers.first { $0.key == key }?.choice }
    }

    /// Asks a question as a critical notification whose actions are the answers, on this thread.
    ///
    /// An answered question is closed at once: servers that keep a notification after an action
    /// (mako, `dunstctl action`) would leave it on screen until it expires, beside the outcome
    /// and under the next question (issue 41, item 3).
    /// - Returns: the key of the action chosen; nil for `cancel`, a closing or no answer within
    ///   `questionTime`; the failure when no server with buttons answered.
    func askOnDesktop(summary: String, message: String, actions: [NotificationAction])
        -> Result<String?, NotifyError>
    {
        guard let address = plan.busAddress else { return .failure(.bus(.noAddress)) }
        do {
            let deadline = ContinuousClock.now + Self.serverTime
            let (server, capabilities) = try NotificationServer.connect(busAddress: address, before: deadline)
            guard capabilities.contains("actions") else { return .failure(.noActions) }
            try server.watchSignals(before: .now + DesktopNotifier.callTime)
            var note = DesktopNotification(summary: summary, plainBody: message, capabilities: capabilities)
            note.actions = actions
            note.urgency = .critical
            note.expiry = .after(Self.questionTime)
            let id = try server.show(note, before: .now + DesktopNotifier.callTime)
            // A little past the expiry, for a server that closes it late.
            let end = ContinuousClock.now + Self.questionTime + .seconds(1)
            let keys = Set(actions.map(\.key))
            while true {
                switch try server.nextEvent(of: id, before: end) {
                case .closed?: return .success(nil)
                case .actionInvoked(NotificationActionKey.cancel)?:
                    try? server.close(id, before: .now + DesktopNotifier.callTime)
                    return .success(nil)
                case .actionInvoked(let key)? where keys.contains(key):
                    try? server.close(id, before: .now + DesktopNotifier.callTime)
                    return .success(key)
                case .actionInvoked?: continue
                case nil:
                    try? server.close(id, before: .now + DesktopNotifier.callTime)
                    return .success(nil)
                }
            }
        } catch {
            return .failure(error)
        }
    }

    /// `--prompt`: the title, "" for none, nil when cancelled.
    ///
    /// In a window where an X display is there; else through the dmenu-style picker, with the
    /// title given so far as its one line (chosen as it is, or replaced by what is typed).
    func promptForTitle(initialText: String) throws -> String? {
        guard plan.displayName != nil else {
            return try picker().choose(initialText.isEmpty ? [] : [initialText], environment: plan.environment)
        }
        return try Alerts.prompt(
            title: "Paste", message: "Title of the paste", initialText: initialText,
            displayName: plan.displayName, app: .paste)
    }

    /// `--pick`: the index of the row chosen, nil when cancelled.
    ///
    /// In a window where an X display is there; else through the dmenu-style picker, one line a
    /// row (`primary · secondary`).
    func pick(title: String, rows: [PickRow]) throws -> Int? {
        guard plan.displayName != nil else {
            let lines = rows.map { "\($0.primary) · \($0.secondary)" }
            guard let chosen = try picker().choose(lines, environment: plan.environment) else { return nil }
            return lines.firstIndex(of: chosen)
        }
        return try Alerts.pick(title: title, rows: rows, displayName: plan.displayName, app: .paste)
    }

    /// The picker of `[paste] picker`, else one found on PATH.
    ///
    /// - Throws: `PickerError.notFound` naming the key to set.
    private func picker() throws(PickerError) -> DmenuPicker {
        guard let picker = DmenuPicker.find(configured: plan.picker, path: plan.environment["PATH"]) else {
            throw .notFound
        }
        return picker
    }
}
