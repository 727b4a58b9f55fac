import Alerts
import Notify
import PasteCore
import Stores
import SystemInterop

/// What the person answered before the first upload to a public service nobody chose.
enum ConsentAnswer: Equatable {
    /// Send this text there, and ask again next time.
    case once
    /// Send it there, now and from then on: `service = NAME` is written to the config.
    case always
    /// Send it to this service instead, now and from then on.
    case another(String)
}

/// Nothing chose a service and nobody could be asked (cron, a script with no terminal): exit 78,
/// nothing sent, nothing left in the outbox.
struct NoServiceChosen: PasteError {
    /// The public host the text would have gone to.
    var host: String
    /// Where `service =` goes.
    var configPath: String

    var message: String {
        "no service chosen, so nothing was sent to \(host) (public) without asking: use -S NAME, or put "
            + "'service = NAME' under [paste] in '\(shownPath: configPath)' ('paste --list-services')"
    }
    var exitStatus: ExitStatus { .config }
}

/// The config could not take the answer: the text was not sent either (nothing is sent on a
/// promise that is not kept).
struct ChoiceNotKept: PasteError {
    var error: StoreError
    var message: String { "cannot remember the service chosen: \(error.message); nothing was uploaded" }
    var exitStatus: ExitStatus { .ioError }
}

/// Consent, the stage between build and send when nothing chose a service (after the guard and
/// the build, so a text they refuse is refused without a question): before the first
/// upload to the built-in public default, the person is asked (`RunPlan.consent`), and an answer
/// of "always" or another service is kept in the config. Asked only when a text read is going
/// there (an image for the configured `image-service` asks nothing); nothing has been sent, and
/// what stops here leaves nothing in the outbox (`UploadPipeline` drops stdin's entry). Another
/// service chosen in the answer moves the plan and the reading to it, and `UploadPipeline`
/// builds the requests again for it.
struct ConsentStage {
    var output: Output
    var context: Context

    /// How long a person at a terminal has to answer before it counts as no.
    static let terminalQuestionTime = Duration.seconds(600)

    /// Asks, where a text read goes to the unchosen default, and moves the plan and the reading
    /// to the service chosen instead, if one was.
    ///
    /// A hotkey asks in a notification or a window; a run with a terminal (stdin or stderr is
    /// one) asks on `/dev/tty`, so `dmesg | paste` asks too; with neither, nobody is asked and
    /// nothing is sent (`NoServiceChosen`, 78).
    /// - Throws: `Cancelled` (130) for no, `NoServiceChosen` when nobody could be asked,
    ///   `ChoiceNotKept` when the config could not be written, `ConfigError` for a chosen
    ///   service whose connection keys cannot be resolved.
    func ask(plan: inout RunPlan, reading: inout ReadStage.Reading, windows: DesktopWindows) throws {
        guard let question = plan.consent,
            reading.inputs.contains(where: { reading.route(of: $0).service.name == question.service })
        else { return }
        let answer: ConsentAnswer?
        if windows.isShown, let asked = try windows.askConsent(question) {
            answer = asked
        } else if PlanResolver.isAttendedByTerminal(context.streams), let terminal = ConsentTerminal.open() {
            answer = terminal.ask(question)
        } else {
            throw NoServiceChosen(host: question.host, configPath: question.configPath)
        }
        switch answer {
        case nil: throw Cancelled()
        case .once?: break
        case .always?: try remember(question.service, in: question.configPath)
        case .another(let name)?:
            try remember(name, in: question.configPath)
            guard let profile = question.services.first(where: { $0.name == name }) else { return }
            let (connection, warning) = try PlanResolver.connection(
                for: profile, paste: plan.pasteConnection, context: context, isInsecure: plan.transfer.isInsecure)
            plan.route = RunPlan.Route(service: profile, connection: connection, warning: warning)
            plan.fallbacks = try FallbackStage.chain(from: profile, among: question.services)
            reading.route = plan.route
        }
        plan.consent = nil
    }

    /// Writes `service = name` under `[paste]` in the config at `path` (made when missing), and
    /// says so.
    private func remember(_ name: String, in path: String) throws(ChoiceNotKept) {
        do {
            let existing = try AtomicFile.read(path) ?? []
            let text = ChosenService.choosing(name, in: String(decoding: existing, as: UTF8.self))
            try AtomicFile.write(Array(text.utf8), to: path)
        } catch {
            throw ChoiceNotKept(error: error)
        }
        output.note("from now on pastes go to \(name): 'service = \(name)' in '\(shownPath: path)' says so")
    }
}

extension DesktopWindows {
    /// The question's words, as the window and the notification say them.
    static func consentMessage(_ question: RunPlan.ConsentQuestion) -> String {
        "No service is chosen yet, so this would go to \(question.destination), a public pastebin: "
            + "anyone with the link can read it. Upload it there?"
    }

    /// Asks before the first public upload: a notification with actions where desktop
    /// notifications are used, else the window where an X display is there.
    ///
    /// - Returns: the answer (nil: cancelled, closed, or not answered in time); nil from the
    ///   outer optional when nobody can be asked this way.
    func askConsent(_ question: RunPlan.ConsentQuestion) throws -> ConsentAnswer?? {
        let message = output.shown(Self.consentMessage(question))
        let others = question.choices
        if plan.usesDesktopNotifications {
            var actions = [
                NotificationAction(key: NotificationActionKey.upload, label: "Upload once"),
                NotificationAction(key: NotificationActionKey.always, label: "Always use \(question.service)"),
            ]
            // Another service is chosen from a list: in the window where an X display is there.
            if plan.displayName != nil {
                actions.append(.init(key: NotificationActionKey.choose, label: "Choose another…"))
            }
            actions.append(.init(key: NotificationActionKey.cancel, label: "Cancel"))
            switch askOnDesktop(summary: "Upload to a public pastebin?", message: message, actions: actions) {
            case .success(NotificationActionKey.upload?): return .some(.once)
            case .success(NotificationActionKey.always?): return .some(.always)
            case .success(NotificationActionKey.choose?): return .some(try chooseService(among: others))
            case .success: return .some(nil)
            case .failure(let failure):
                guard plan.displayName != nil else {
                    output.note("no desktop notification: \(failure.description)")
                    return nil
                }
            }
        }
        guard plan.displayName != nil else { return nil }
        let buttons: [Alerts.Button<Int>] = [
            .init("Upload once", answer: 0), .init("Always use \(question.service)", answer: 1),
            .init("Choose another…", answer: 2), .init("Cancel", answer: 3),
        ]
        let chosen = try Alerts.confirm(
            message: message, buttons: buttons, displayName: plan.displayName, app: .paste)
        switch chosen {
        case 0: return .some(.once)
        case 1: return .some(.always)
        case 2: return .some(try chooseService(among: others))
        default: return .some(nil)
        }
    }

    /// Another service, chosen in a window of one button each (Cancel last); nil when cancelled.
    private func chooseService(among names: [String]) throws -> ConsentAnswer? {
        let buttons =
            names.enumerated().map { Alerts.Button($0.element, answer: Int?.some($0.offset)) }
            + [Alerts.Button("Cancel", answer: Int?.none)]
        let index =
            try Alerts.confirm(
                message: "Where should pastes go? The choice is kept in the config.", buttons: buttons,
                displayName: plan.displayName, app: .paste) ?? nil
        return index.map { .another(names[$0]) }
    }
}

/// The question at a terminal, asked on `/dev/tty` (the controlling terminal) so that it reaches
/// the person even when stdin is a pipe and stdout is captured.
struct ConsentTerminal: ~Copyable {
    let terminal: FileDescriptor

    /// The controlling terminal, or nil when the process has none (cron, a daemon).
    static func open() -> ConsentTerminal? {
        guard let terminal = try? FileDescriptor.open("/dev/tty", .readWrite) else { return nil }
        return ConsentTerminal(terminal: terminal)
    }

    /// Asks, and reads the answer; nil for no (an empty line, end of input, no answer in
    /// `ConsentStage.terminalQuestionTime`).
    func ask(_ question: RunPlan.ConsentQuestion) -> ConsentAnswer? {
        let others = question.choices
        say(
            "paste: no service is chosen yet, so this would go to \(Self.shown(question.destination)), a public pastebin: "
                + "anyone with the link can read it.\n"
                + "Upload it there? [o]nce, [a]lways (kept in the config), [c]hoose another, [N]o: ")
        switch readLine()?.lowercased().first {
        case "o", "y": return .once
        case "a": return .always
        case "c":
            say("Services: \(others.map(Self.shown).joined(separator: ", "))\nService: ")
            guard let name = readLine(), others.contains(name) else {
                say("paste: not a service paste knows\n")
                return nil
            }
            return .another(name)
        default: return nil
        }
    }

    /// Writes `text` as it is: the words are ours, and what came from the config in them (a
    /// host, service names) was made printable first (`shown`).
    private func say(_ text: String) {
        try? terminal.writeAll(Array(text.utf8))
    }

    /// A host or a name from the config as a terminal may show it: no escape, one line.
    private static func shown(_ value: String) -> String { Sanitizer.printable(value, limit: 300) }

    /// One line from the terminal, without its end and surrounding blanks; nil at end of input
    /// or after `ConsentStage.terminalQuestionTime`.
    private func readLine() -> String? {
        let deadline = ContinuousClock.now + ConsentStage.terminalQuestionTime
        var bytes: [UInt8] = []
        while let byte = try? terminal.readByte(before: deadline) {
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
            if bytes.count > 256 { break }
        }
        let line = String(decoding: bytes, as: UTF8.self).split(whereSeparator: {
            $0 == " " || $0 == "\t" || $0 == "\r"
        })
        return line.isEmpty ? nil : line.joined(separator: " ")
    }
}
