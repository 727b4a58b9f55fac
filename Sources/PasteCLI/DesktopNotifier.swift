import Clipboard
import FoundationEssentials
import Notify
import PasteCore
import Stores
import SystemInterop

/// The process that shows a notification with actions and serves them after `paste` has
/// returned: `/proc/self/exe --internal-notifier`, spawned in a session of its own, named
/// `paste-notifier` (what `ps` shows).
///
/// A separate process rather than the clipboard's owner: there is one whether or not anything
/// is copied (a failure's `retry` has no owner to ride on), and it leaves the owner's code
/// alone. It sends the `Notify` itself, on its own connection, because some servers (GNOME
/// Shell) send `ActionInvoked` only to the connection that asked for the notification.
///
/// The run hands it a `DesktopNotice` (JSON) on its stdin, then end of file; it answers with
/// one status byte on its stdout (`Status`) once the notification is shown, and closes it. It
/// then waits for the notification's `ActionInvoked` and `NotificationClosed` (from the server
/// that showed it: `NotificationServer.nextEvent`) and acts on the keys the card on screen
/// offers (`DesktopNotice.effect(of:)`): open runs `xdg-open URL` (never for a URL that carries
/// its key: `DesktopNotice.noOpenLine`), copy puts the URL on the clipboard again (as often as
/// asked), delete deletes the paste here, as `paste --delete URL` would, retry runs `paste
/// --outbox send ID`; open, delete and retry happen once. Each action but open ends in its
/// outcome shown in the same card (`replaces_id`): "Copied" with the URL (on the clipboard),
/// "Deleted" (the clipboard emptied when it still held the dead link) or why not, "Paste
/// failed" and why. It serves the card for as long as it is there: it leaves when the server
/// says it closed, when it shows nothing left to act on, when the text a failure's card offers
/// to retry went another way (`entryCheckInterval`: it closes the card), or after `longestWait` in any case
/// (then the card's buttons go: a failure stays on screen without them, anything else is
/// closed). It holds no terminal (stdio is the two sockets and /dev/null, then /dev/null), no
/// lock, and no outbox entry while it waits: the `paste` it starts for an action takes what
/// that needs, as any run does.
enum DesktopNotifier {
    /// The hidden subcommand.
    static let subcommand = "--internal-notifier"

    /// The status byte the notifier sends.
    enum Status: UInt8 {
        /// The notification is up; the actions are served.
        case shown = 0
        /// It could not be shown (no server, no answer, a bad request).
        case failed = 1
    }

    /// How long the notifier serves a notification at most: a failure's card stays until the
    /// person dismisses it, and a server may keep a card in a tray without saying it closed;
    /// nothing lingers past this.
    static let longestWait = Duration.seconds(30 * 60)
    /// How long one call to the server may take once it answered `GetCapabilities`.
    static let callTime = Duration.seconds(2)
    /// How long the run waits for the notifier to say the notification is up: its start-up
    /// (a `paste` starting again, a few milliseconds) and one `Notify`.
    static let launchTime = Duration.seconds(3)
    /// The largest notice read (a thumbnail is at most 128 × 128 RGBA, as JSON numbers).
    static let maximumNoticeBytes = 8 << 20
    /// The longest a retry (`paste --outbox send`, with its own retries and backoffs) is waited
    /// for before its card says it failed.
    static let retryTime = Duration.seconds(5 * 60)
    /// The most of a retry's answer read: one JSON line.
    static let maximumAnswerBytes = 1 << 20

    // MARK: - The run's side

    /// Starts the notifier for `notice` and waits until it has shown it.
    ///
    /// - Throws: `NotifyError` saying why it could not (then the run shows the outcome another
    ///   way); a notifier that does not answer in time is killed.
    static func launch(_ notice: DesktopNotice, environment: [String: String]) throws(NotifyError) {
        func failed() -> NotifyError {
            .bus(.failed(member: "Notify", name: "paste.NotifierFailed", message: "the notifier could not show it"))
        }
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONEncoder().encode(notice))
        } catch {
            throw failed()
        }
        // The same set-up as the clipboard's owners (`DetachedChild`).
        let launched: DetachedChild
        do {
            launched = try DetachedChild.spawn(
                PlanResolver.helperExecutable, arguments: [PlanResolver.helperExecutable, subcommand],
                environment: environment, currentDirectory: "/")
        } catch {
            throw failed()
        }
        let child = launched.process
        let payloadOurs = launched.input
        let statusOurs = launched.status
        let deadline = ContinuousClock.now + launchTime
        let answer: UInt8?
        do {
            try payloadOurs.setNonBlocking()
            try payloadOurs.sendAll(bytes, before: deadline)
            try? payloadOurs.close()
            answer = try statusOurs.readByte(before: deadline)
        } catch {
            try? child.send(.kill)
            throw .bus(.timedOut(member: "Notify"))
        }
        guard answer.flatMap(Status.init(rawValue:)) == .shown else { throw failed() }
    }

    // MARK: - The notifier's side

    /// The notifier's `main`: reads the notice, shows it, serves its actions, exits.
    ///
    /// - Returns: the exit status (nobody waits for it but init).
    static func run(environment: [String: String]) -> Int32 {
        let input = FileDescriptor.withUnowned(0) { (stdin) -> [UInt8]? in
            try? stdin.readAll(idleTimeout: launchTime, limit: maximumNoticeBytes)
        }
        guard let input, let notice = try? JSONDecoder().decode(DesktopNotice.self, from: Data(input)),
            let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty
        else { return report(.failed) }
        var card: Card
        do {
            let deadline = ContinuousClock.now + callTime
            let (server, capabilities) = try NotificationServer.connect(busAddress: address, before: deadline)
            try server.watchSignals(before: deadline)
            let id = try server.show(notice.notification(capabilities: capabilities), before: deadline)
            card = Card(server: server, capabilities: capabilities, id: id, notice: notice)
        } catch {
            return report(.failed)
        }
        _ = report(.shown)
        // From here on it holds nothing of the run: stdout is /dev/null too.
        StandardStream.output.redirectToNull()
        serve(&card, until: .now + longestWait, environment: environment)
        return 0
    }

    /// The card on screen: the server that showed it, its id there and what it says.
    struct Card: ~Copyable {
        let server: NotificationServer
        let capabilities: Set<String>
        var id: UInt32
        var notice: DesktopNotice
        /// The effects that happen once per card (open, delete, retry), once done.
        var done: Set<DesktopNotice.Effect> = []

        /// Shows `next` in the card's place; false when the server did not take it.
        mutating func replace(with next: DesktopNotice) -> Bool {
            var next = next
            next.replacesID = id
            guard let shown = try? server.show(next.notification(capabilities: capabilities), before: .now + callTime)
            else { return false }
            id = shown
            notice = next
            return true
        }
    }

    /// How often a card that offers Retry now looks whether its text is still waiting: sent
    /// by another run (`paste --retry`, the timer's flush) or dropped, the card goes.
    static let entryCheckInterval = Duration.seconds(5)

    /// Serves `card`'s actions until it closes, has nothing left to act on, or `end`.
    static func serve(_ card: inout Card, until end: ContinuousClock.Instant, environment: [String: String]) {
        while true {
            let event: NotificationEvent?
            let waitsForEntry = card.notice.outboxID != nil && !card.done.contains(.retry)
            let slice = waitsForEntry ? min(end, .now + entryCheckInterval) : end
            do {
                event = try card.server.nextEvent(of: card.id, repeatable: card.notice.repeatableKeys, before: slice)
            } catch {
                return
            }
            if event == nil, slice < end {
                guard let id = card.notice.outboxID, !isWaiting(id, environment: environment) else { continue }
                // The text went another way: nothing is left to retry.
                try? card.server.close(card.id, before: .now + callTime)
                return
            }
            switch event {
            case .actionInvoked(let key)?:
                guard let effect = card.notice.effect(of: key) else { continue }
                if effect != .copy {
                    guard card.done.insert(effect).inserted else { continue }
                }
                guard let next = act(effect, notice: card.notice, environment: environment) else { continue }
                guard card.replace(with: next), !next.actions.isEmpty else { return }
            case .closed?:
                return
            case nil:
                // Served long enough: the buttons go. A failure stays, saying what it said (the
                // body names `paste --retry`); anything else goes.
                if card.notice.isFailure {
                    var bare = card.notice
                    bare.outboxID = nil
                    bare.isExpiryExplicit = false
                    _ = card.replace(with: bare)
                } else {
                    try? card.server.close(card.id, before: .now + callTime)
                }
                return
            }
        }
    }

    /// Whether outbox entry `id` still holds its text (a store that cannot be read counts as
    /// yes: the card stays rather than go on a guess).
    static func isWaiting(_ id: String, environment: [String: String]) -> Bool {
        let context = Context(
            environment: environment, userID: CurrentProcess.userID, commandRunner: CommandRunner(),
            asker: WindowAsker(displayName: nil))
        do {
            _ = try Outbox(context: context).find(id: id)
            return true
        } catch .noSuchEntry {
            return false
        } catch {
            return true
        }
    }

    /// Sends the status byte and closes stdout (the run stops waiting).
    private static func report(_ status: Status) -> Int32 {
        FileDescriptor.withUnowned(1) { stdout in try? stdout.writeAll([status.rawValue]) }
        StandardStream.output.redirectToNull()
        return status == .shown ? 0 : 1
    }

    /// Does `effect` for the card that says `notice`.
    ///
    /// - Returns: what the card says next (its outcome), or nil when it stays as it is (open:
    ///   the browser is the outcome).
    static func act(
        _ effect: DesktopNotice.Effect, notice: DesktopNotice, environment: [String: String]
    ) -> DesktopNotice? {
        switch effect {
        case .open:
            guard let url = notice.url, let opener = executable(named: "xdg-open", path: environment["PATH"]) else {
                return nil
            }
            // Not waited for: a browser may be what it starts.
            _ = try? ChildProcess.spawn(
                opener, arguments: [opener, url], environment: environment, standardInput: .null,
                standardOutput: .null, standardError: .null, newSession: true)
            return nil
        case .copy:
            guard let url = notice.url else { return nil }
            var next = notice
            if let failure = copy(url, isKeyBearing: notice.isKeyBearing, environment: environment) {
                next.summary = "Not copied"
                next.body = shownURL(url, isKeyBearing: notice.isKeyBearing) + "\n" + failure
            } else {
                next.summary = "Copied"
            }
            next.image = nil
            return next
        case .delete:
            guard let url = notice.url else { return nil }
            return deleted(url, notice: notice, environment: environment)
        case .retry:
            guard let id = notice.outboxID else { return nil }
            return retried(id, notice: notice, environment: environment)
        }
    }

    /// Puts `url` on the clipboard; nil when it is there, else why not.
    private static func copy(_ url: String, isKeyBearing: Bool, environment: [String: String]) -> String? {
        do {
            let clipboard = try ClipboardBackend.detect(environment: environment).makeClipboard(
                helperExecutable: PlanResolver.helperExecutable, environment: environment)
            _ = try clipboard.prepareWrite(to: .clipboard).complete(with: Array(url.utf8), isSecret: isKeyBearing)
            return nil
        } catch {
            return error.message
        }
    }

    /// The URL as a card shows it: shortened when it carries its key.
    static func shownURL(_ url: String, isKeyBearing: Bool) -> String {
        isKeyBearing ? KeyBearingURL.shortened(url) : url
    }

    /// Deletes the paste at `url` in this process, as `paste --delete URL` does, and says how
    /// it went: "Deleted" (the clipboard emptied where it still held the dead link), or "Not
    /// deleted" and why, with the card's other actions.
    ///
    /// In this process so the URL stays in the notifier's memory: in the argv of a child it
    /// would be readable by every user for as long as the deletion takes (`/proc/PID/cmdline`),
    /// and a PrivateBin link's fragment is the paste's key. What the run would print goes to
    /// /dev/null, as the notifier's output does.
    private static func deleted(_ url: String, notice: DesktopNotice, environment: [String: String]) -> DesktopNotice {
        var next = notice
        next.image = nil
        next.isDeletable = false
        let shown = shownURL(url, isKeyBearing: notice.isKeyBearing)
        let arguments = (notice.configPath.map { ["--config", $0] } ?? []) + ["--delete", url]
        let context = Context(
            environment: environment, userID: CurrentProcess.userID, commandRunner: CommandRunner(),
            asker: WindowAsker(displayName: nil))
        let output = Output(environment: environment, redactor: context.redactor)
        do {
            guard case .paste(let invocation) = try parseCommandLine(arguments) else { throw Cancelled() }
            _ = try Runner(invocation: invocation, context: context, output: output).delete(url: url)
        } catch {
            next.summary = "Not deleted"
            let reason = (error as? any PasteError).map(\.message) ?? "the deletion could not be made"
            next.body = output.shown(shown + "\n" + reason)
            return next
        }
        next.summary = "Deleted"
        next.url = nil
        next.isKeyBearing = false
        next.body = output.shown(shown) + "\n" + clearedClipboard(of: url, environment: environment)
        return next
    }

    /// Empties the clipboard when it still holds `url` (a dead link now); the card's line
    /// saying what became of it.
    private static func clearedClipboard(of url: String, environment: [String: String]) -> String {
        let backend = ClipboardBackend.detect(environment: environment)
        guard
            let clipboard = try? backend.makeClipboard(
                helperExecutable: PlanResolver.helperExecutable, environment: environment),
            let held = try? clipboard.read(.clipboard), held == Array(url.utf8)
        else { return "The paste is gone." }
        do {
            try backend.clear(.clipboard, environment: environment)
            return "The paste is gone, and its link is off the clipboard."
        } catch {
            return "The paste is gone, but its link is still on the clipboard: \(error.message)"
        }
    }

    /// What `paste --outbox send ID --json` says, as far as the card needs it.
    private struct SendAnswer: Decodable {
        var url: String?
        var deletion: String?
        var message: String?
    }

    /// Sends outbox entry `id` now (`paste --outbox send ID --json`, waited for) and says how
    /// it went: "Copied" and the URL, which goes onto the clipboard, with the success's
    /// actions; or "Paste failed" and why.
    private static func retried(_ id: String, notice: DesktopNotice, environment: [String: String]) -> DesktopNotice {
        var next = notice
        next.outboxID = nil
        next.image = nil
        let arguments =
            [PlanResolver.helperExecutable] + (notice.configPath.map { ["--config", $0] } ?? [])
            + ["--outbox", "send", id, "--json"]
        let (status, bytes) = runCapturing(arguments, environment: environment, timeout: retryTime)
        let answer = try? JSONDecoder().decode(SendAnswer.self, from: Data(bytes.prefix { $0 != 0x0A }))
        guard status == 0, let url = answer?.url, url.hasPrefix("http://") || url.hasPrefix("https://") else {
            next.summary = "Paste failed"
            next.body =
                (answer?.message ?? "the retry did not finish")
                + "\nThe text stays in the outbox (\(id)) unless it was sent: 'paste --outbox' lists it."
            return next
        }
        // A link with a fragment is taken to carry its key (PrivateBin's): the safe direction.
        let isKeyBearing = url.contains("#")
        next.isFailure = false
        next.url = url
        next.isKeyBearing = isKeyBearing
        next.isDeletable = answer?.deletion != nil
        if let failure = copy(url, isKeyBearing: isKeyBearing, environment: environment) {
            next.summary = "Pasted"
            next.body = shownURL(url, isKeyBearing: isKeyBearing) + "\nNot copied: " + failure
        } else {
            next.summary = "Copied"
            next.body = shownURL(url, isKeyBearing: isKeyBearing)
        }
        return next
    }

    /// Runs `arguments` (no shell), stdin and stderr /dev/null, and waits for it up to
    /// `timeout`: its exit status (nil when it had to be killed) and its stdout.
    static func runCapturing(
        _ arguments: [String], environment: [String: String], timeout: Duration
    ) -> (status: Int32?, output: [UInt8]) {
        guard let pair = try? FileDescriptor.makeSocketPair() else { return (nil, []) }
        let ours = pair.first
        let theirs = pair.second
        guard
            let child = try? ChildProcess.spawn(
                arguments[0], arguments: arguments, environment: environment, standardInput: .null,
                standardOutput: .descriptor(theirs.rawValue), standardError: .null, newSession: false)
        else { return (nil, []) }
        try? theirs.close()
        // Its stdout ends when it exits: a clipboard owner it leaves behind holds no stdio of it.
        let output: [UInt8]
        do {
            output = try ours.readAll(idleTimeout: timeout, limit: maximumAnswerBytes)
        } catch {
            try? child.send(.kill)
            _ = child.waitForExit()
            return (nil, [])
        }
        try? ours.close()
        return (child.waitForExit(), output)
    }

    /// The first executable `name` in the directories of `path`.
    static func executable(named name: String, path: String?) -> String? {
        FileSystem.firstExecutable(named: name, inPath: path ?? "")
    }
}
