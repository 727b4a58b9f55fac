import Alerts
import Clipboard
import PasteCore
import SystemInterop

/// What the person chose in the secret guard's dialog: the answers its buttons carry.
enum SecretChoice: Hashable, Sendable {
    case uploadAnyway
    case uploadPrivately
    case cancel
}

extension Runner {
    /// Whether this run talks to a person through windows rather than a terminal.
    ///
    /// `--notify`/`--no-notify` decide; otherwise `notify = auto` means: the text came from the
    /// clipboard, stderr is no terminal, and a display is there (a launcher, not a pipeline or cron).
    func showsWindows(settings: Settings) -> Bool {
        guard context.nonEmpty("DISPLAY") != nil else { return false }
        if let forced = invocation.notify { return forced }
        switch settings.notify {
        case .never: return false
        case .always: return true
        case .auto: return readsSelection && !StandardStream.error.isTerminal && !invocation.isJSON
        }
    }

    /// Shows the result window; failures to show it are only noted.
    func notify(success: Bool, text: String, settings: Settings) {
        let note = Alerts.Notification(
            title: success ? "Copied" : "Paste failed",
            body: text,
            style: success ? .success : .failure,
            timeout: .milliseconds(Int(settings.notifyTimeout * 1000)))
        do {
            try Alerts.notify(note, displayName: context.environment["DISPLAY"])
        } catch {
            output.note(AlertFailure(error: error).message)
        }
    }

    /// Shows why the paste failed, and that the text waits in the outbox when it does.
    func notifyFailure(_ error: any PasteError, settings: Settings) {
        let kept = error is KeptInOutbox ? "\nThe text waits in the outbox: paste --retry sends it." : ""
        notify(success: false, text: error.message + kept, settings: settings)
    }

    /// Asks at the hotkey whether to upload text the guard flagged.
    ///
    /// - Returns: `.uploadAnyway` or `.uploadPrivately`, never nil.
    /// - Throws: `Cancelled` when the person chose Cancel, pressed Escape or closed the window.
    func confirmSecretUpload(_ finding: SecretFinding, profile: ServiceProfile) throws -> SecretChoice? {
        var buttons = [Alerts.Button("Upload anyway", answer: SecretChoice.uploadAnyway)]
        if profile.canBePrivate { buttons.append(.init("Upload as private", answer: .uploadPrivately)) }
        buttons.append(.init("Cancel", answer: .cancel))
        let answer: SecretChoice?
        do {
            answer = try Alerts.confirm(
                message:
                    "This text looks like it holds a secret: \(finding.description). Upload it to \(profile.name)?",
                buttons: buttons, displayName: context.environment["DISPLAY"])
        } catch {
            throw AlertFailure(error: error)
        }
        switch answer {
        case .uploadAnyway, .uploadPrivately: return answer
        case .cancel, nil: throw Cancelled()
        }
    }

    /// `--prompt`: the title, "" for none, nil when cancelled.
    func promptForTitle() throws -> String? {
        do {
            return try Alerts.prompt(
                title: "Paste", message: "Title of the paste", initialText: invocation.options.title ?? "",
                displayName: context.environment["DISPLAY"])
        } catch {
            throw AlertFailure(error: error)
        }
    }

    /// `--pick`: choose an earlier paste in a window; its URL goes on the clipboard.
    ///
    /// The configuration applies as for an upload: `copy = false` keeps the clipboard as it is,
    /// and with windows shown (`notify`) a failure is shown in one too. (`clipboard-timeout` is
    /// about reading a selection, which `--pick` never does.)
    func pick() throws -> ExitStatus {
        let settings: Settings
        do {
            settings = try loadConfiguration().settings
        } catch {
            if showsWindows(settings: Settings()) { notifyFailure(error, settings: Settings()) }
            throw error
        }
        do {
            return try pick(settings: settings)
        } catch let error as any PasteError {
            if showsWindows(settings: settings) { notifyFailure(error, settings: settings) }
            throw error
        }
    }

    private func pick(settings: Settings) throws -> ExitStatus {
        let records = try History(context: context).records().reversed()
        guard !records.isEmpty else {
            throw InputError.empty(source: "the history")
        }
        let now = context.now()
        let rows = records.map { record in
            PickRow(
                primary: record.title ?? record.preview ?? record.url,
                secondary: "\(record.service) · \(Age.text(from: record.time, to: now)) · \(record.url)")
        }
        let chosen: Int?
        do {
            chosen = try Alerts.pick(
                title: "Earlier pastes", rows: Array(rows), displayName: context.environment["DISPLAY"])
        } catch {
            throw AlertFailure(error: error)
        }
        guard let index = chosen else { return .cancelled }
        let url = Array(records)[index].url
        output.result(url)
        copyToClipboard(url, settings: settings)
        return .success
    }
}

/// The person cancelled a dialog (exit 130).
struct Cancelled: PasteError {
    var message: String { "cancelled; nothing was uploaded" }
    var exitStatus: ExitStatus { .cancelled }
}

/// "3 min ago" for the picker.
enum Age {
    static func text(from date: Date, to now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3_600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3_600) h ago"
        default: return "\(seconds / 86_400) d ago"
        }
    }
}

import FoundationEssentials
