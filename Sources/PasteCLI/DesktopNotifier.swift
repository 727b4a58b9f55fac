import Clipboard
import FoundationEssentials
import Notify
import PasteCore
import SystemInterop

/// The process that shows a notification with actions and serves them after `paste` has
/// returned: `/proc/self/exe --internal-notifier`, spawned in a session of its own.
///
/// A separate process rather than the clipboard's owner: there is one whether or not anything
/// is copied (a failure's `retry` has no owner to ride on), and it leaves the owner's code
/// alone. It sends the `Notify` itself, on its own connection, because some servers (GNOME
/// Shell) send `ActionInvoked` only to the connection that asked for the notification.
///
/// The run hands it a `DesktopNotice` (JSON) on its stdin, then end of file; it answers with
/// one status byte on its stdout (`Status`) once the notification is shown, and closes it. It
/// then waits for the notification's `ActionInvoked` and `NotificationClosed` (from the server
/// that showed it, each key once: `NotificationServer.nextEvent`) and acts on the keys it
/// offered: `default` runs `xdg-open URL` (never offered for a URL that carries its key:
/// `DesktopNotice.noOpenLine`), `copy` puts the URL on the clipboard again, `delete` deletes
/// the paste here, as `paste --delete URL` would, `retry` runs `paste --outbox send ID`. It leaves when the notification
/// closes, or after `longestWait` in any case (closing it then). It holds no terminal (stdio is
/// the two sockets and /dev/null, then /dev/null), no lock, and no outbox entry while it waits:
/// the `paste` it starts for an action takes what that needs, as any run does.
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

    /// How long the notifier waits for what happens to a notification at most: one that never
    /// says it closed (a resident one, or a server that keeps it in a tray) is served this long.
    static let longestWait = Duration.seconds(300)
    /// How long one call to the server may take once it answered `GetCapabilities`.
    static let callTime = Duration.seconds(2)
    /// How long the run waits for the notifier to say the notification is up: its start-up
    /// (a `paste` starting again, a few milliseconds) and one `Notify`.
    static let launchTime = Duration.seconds(3)
    /// The largest notice read (a thumbnail is at most 128 × 128 RGBA, as JSON numbers).
    static let maximumNoticeBytes = 8 << 20

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
        let notice: DesktopNotice
        let input = FileDescriptor.withUnowned(0) { (stdin) -> [UInt8]? in
            try? stdin.readAll(idleTimeout: launchTime, limit: maximumNoticeBytes)
        }
        guard let input, let decoded = try? JSONDecoder().decode(DesktopNotice.self, from: Data(input)),
            let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty
        else { return report(.failed) }
        notice = decoded
        let server: NotificationServer
        let id: UInt32
        do {
            let deadline = ContinuousClock.now + callTime
            let capabilities: Set<String>
            (server, capabilities) = try NotificationServer.connect(busAddress: address, before: deadline)
            try server.watchSignals(before: deadline)
            id = try server.show(notice.notification(capabilities: capabilities), before: deadline)
        } catch {
            return report(.failed)
        }
        _ = report(.shown)
        // From here on it holds nothing of the run: stdout is /dev/null too.
        StandardStream.output.redirectToNull()

        let end = ContinuousClock.now + longestWait
        while true {
            let event: NotificationEvent?
            do {
                event = try server.nextEvent(of: id, before: end)
            } catch {
                return 0
            }
            switch event {
            case .actionInvoked(let key)?:
                act(on: key, notice: notice, environment: environment)
            case .closed?:
                return 0
            case nil:
                try? server.close(id, before: .now + callTime)
                return 0
            }
        }
    }

    /// Sends the status byte and closes stdout (the run stops waiting).
    private static func report(_ status: Status) -> Int32 {
        FileDescriptor.withUnowned(1) { stdout in try? stdout.writeAll([status.rawValue]) }
        StandardStream.output.redirectToNull()
        return status == .shown ? 0 : 1
    }

    /// Does what action `key` says. Unknown keys (and actions this notice did not offer) are
    /// ignored: a signal on the bus is no reason to run anything else.
    static func act(on key: String, notice: DesktopNotice, environment: [String: String]) {
        let offered = notice.actions.map(\.key)
        guard offered.contains(key) else { return }
        let paste = [PlanResolver.helperExecutable] + (notice.configPath.map { ["--config", $0] } ?? [])
        switch key {
        case NotificationActionKey.open:
            guard let url = notice.url, let opener = executable(named: "xdg-open", path: environment["PATH"]) else {
                return
            }
            // Not waited for: a browser may be what it starts.
            _ = try? ChildProcess.spawn(
                opener, arguments: [opener, url], environment: environment, standardInput: .null,
                standardOutput: .null, standardError: .null, newSession: true)
        case NotificationActionKey.copy:
            guard let url = notice.url else { return }
            let clipboard = try? ClipboardBackend.detect(environment: environment).makeClipboard(
                helperExecutable: PlanResolver.helperExecutable, environment: environment)
            _ = try? clipboard?.prepareWrite(to: .clipboard).complete(
                with: Array(url.utf8), isSecret: notice.isKeyBearing)
        case NotificationActionKey.delete:
            guard let url = notice.url else { return }
            delete(url, configPath: notice.configPath, environment: environment)
        case NotificationActionKey.retry:
            guard let id = notice.outboxID else { return }
            runPaste(paste + ["--outbox", "send", id], environment: environment)
        default:
            return
        }
    }

    /// Deletes the paste at `url` in this process, as `paste --delete URL` does: the URL stays in
    /// the notifier's memory. In the argv of a child it would be readable by every user for as
    /// long as the deletion takes (`/proc/PID/cmdline`), and a PrivateBin link's fragment is the
    /// paste's key. What the run would print goes to /dev/null, as the notifier's output does.
    private static func delete(_ url: String, configPath: String?, environment: [String: String]) {
        let arguments = (configPath.map { ["--config", $0] } ?? []) + ["--delete", url]
        guard case .paste(let invocation)? = try? parseCommandLine(arguments) else { return }
        let context = Context(
            environment: environment, userID: CurrentProcess.userID, commandRunner: CommandRunner(),
            asker: WindowAsker(displayName: nil))
        let output = Output(environment: environment, redactor: context.redactor)
        _ = try? Runner(invocation: invocation, context: context, output: output).run()
    }

    /// Runs `paste` for an action and waits for it (it has its own deadlines); its output goes
    /// nowhere, as the notifier's does.
    private static func runPaste(_ arguments: [String], environment: [String: String]) {
        guard
            let child = try? ChildProcess.spawn(
                PlanResolver.helperExecutable, arguments: arguments, environment: environment, standardInput: .null,
                standardOutput: .null, standardError: .null, newSession: false)
        else { return }
        _ = child.waitForExit()
    }

    /// The first executable `name` in the directories of `path`.
    static func executable(named name: String, path: String?) -> String? {
        FileSystem.firstExecutable(named: name, inPath: path ?? "")
    }
}
