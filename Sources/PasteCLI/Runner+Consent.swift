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
/// nothing read, nothing sent, nothing left in the outbox.
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

extension Runner {
    /// How long a person at a terminal has to answer before it counts as no.
    static let terminalQuestionTime = Duration.seconds(600)

    /// Asks before the first upload to the built-in public default, when nothing chose a
    /// service (`RunPlan.consent`), and remembers an answer of "always" or another service in
    /// the config.
    ///
    /// A hotkey asks in a notification or a window; a run with a terminal (stdin or stderr is
    /// one) asks on `/dev/tty`, so `dmesg | paste` asks too; with neither, nobody is asked and
    /// nothing is sent (`NoServiceChosen`, 78).
    /// - Returns: the answer; the caller sends nothing before it has one.
    /// - Throws: `Cancelled` (130) for no, `NoServiceChosen` when nobody could be asked,
    ///   `ChoiceNotKept` when the config could not be written.
    func askConsent(_ question: RunPlan.ConsentQuestion, windows: DesktopWindows) throws -> ConsentAnswer {
        let answer: ConsentAnswer?
        if windows.isShown, let asked = try windows.askConsent(question) {
            answer = asked
        } else if PlanResolver.isAttendedByTerminal, let terminal = ConsentTerminal.open() {
            answer = terminal.ask(question)
        } else {
            throw NoServiceChosen(host: question.host, configPath: question.configPath)
        }
        guard let answer else { throw Cancelled() }
        switch answer {
        case .once: break
        case .always: try remember(question.service, in: question.configPath)
        case .another(let name): try remember(name, in: question.configPath)
        }
        return answer
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
        "No service is chosen yet, so this would go to \(question.host), a public pastebin: "
            + "anyone with the link can read it. Upload it there?"
    }

    /// Asks before the first public upload: a notification with actions where desktop
    /// notifications are used, else the window where an X display is there.
    ///
    /// - Returns: the answer (nil: cancelled, closed, or not answered in time); nil from the
    ///   outer optional when nobody can be asked this way.
    func askConsent(_ question: RunPlan.ConsentQuestion) throws -> ConsentAnswer?? {
        let message = output.shown(Self.consentMessage(question))
        let others = question.choices.filter { $0 != question.service }
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
        let chosen: Int?
        do {
            chosen = try Alerts.confirm(message: message, buttons: buttons, displayName: plan.displayName, app: .paste)
        } catch {
            throw AlertFailure(error: error)
        }
        switch chosen {
        case 0: return .some(.once)
        case 1: return .some(.always)
        case 2: return .some(try chooseService(among: others))
        default: return .some(nil)
        }
    }

    /// Another service, chosen in a window of one button each (Cancel last); nil when cancelled.
    private func chooseService(among names: [String]) throws -> ConsentAnswer? {
        let buttons = names.enumerated().map { Alerts.Button($0.element, answer: Int?.some($0.offset)) }
            + [Alerts.Button("Cancel", answer: Int?.none)]
        do {
            let index = try Alerts.confirm(
                message: "Where should pastes go? The choice is kept in the config.", buttons: buttons,
                displayName: plan.displayName, app: .paste) ?? nil
            return index.map { .another(names[$0]) }
        } catch {
            throw AlertFailure(error: error)
        }
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
    /// `Runner.terminalQuestionTime`).
    func ask(_ question: RunPlan.ConsentQuestion) -> ConsentAnswer? {
        let others = question.choices.filter { $0 != question.service }
        say(
            "paste: no service is chosen yet, so this would go to \(question.host), a public pastebin: "
                + "anyone with the link can read it.\n"
                + "Upload it there? [o]nce, [a]lways (kept in the config), [c]hoose another, [N]o: ")
        switch readLine()?.lowercased().first {
        case "o", "y": return .once
        case "a": return .always
        case "c":
            say("Services: \(others.joined(separator: ", "))\nService: ")
            guard let name = readLine(), others.contains(name) else {
                say("paste: not a service paste knows\n")
                return nil
            }
            return .another(name)
        default: return nil
        }
    }

    private func say(_ text: String) {
        // Each line as a terminal may show it: a host or a name from the config is no escape.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            Sanitizer.printable(String($0), limit: 4096)
        }
        try? terminal.writeAll(Array(lines.joined(separator: "\n").utf8))
    }

    /// One line from the terminal, without its end and surrounding blanks; nil at end of input
    /// or after `Runner.terminalQuestionTime`.
    private func readLine() -> String? {
        let deadline = ContinuousClock.now + Runner.terminalQuestionTime
        var bytes: [UInt8] = []
        while let byte = try? terminal.readByte(before: deadline) {
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
            if bytes.count > 256 { break }
        }
        let line = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        return line.isEmpty ? nil : line.joined(separator: " ")
    }
}
