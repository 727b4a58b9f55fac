import Alerts
import PasteCore
import SecretGuard

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

    /// Whether this run talks to a person through windows rather than a terminal.
    var isShown: Bool { plan.isShown }

    /// Shows the result window; failures to show it are only noted.
    ///
    /// - Parameters:
    ///   - title: the window's title; by default "Paste failed" for a failure, "Copied" for a
    ///     success (say it only when the URL is on the clipboard: `DeliverStage.successWindow`).
    ///   - image: what was uploaded, when it is an image: shown as a thumbnail beside the text.
    func notify(success: Bool, title: String? = nil, text: String, image: Alerts.Notification.Image? = nil) {
        let note = Alerts.Notification(
            title: title ?? (success ? "Copied" : "Paste failed"),
            body: output.shown(footnote.map { text + "\n" + $0 } ?? text),
            style: success ? .success : .failure,
            timeout: plan.notifyTimeout,
            image: image)
        do {
            try Alerts.notify(note, displayName: plan.displayName, app: .paste)
        } catch {
            output.note(AlertFailure(error: error).message)
        }
    }

    /// Shows why the paste failed, and where the text is: in the outbox (and how it goes from
    /// there), or that it could not be saved.
    func notifyFailure(_ error: any PasteError) {
        notify(success: false, text: failureText(error))
    }

    /// The failure window's text: why, then where the text is. The command it names is one
    /// unbreakable word (no-break spaces), so the window never wraps it into `paste` / `--retry`.
    func failureText(_ error: any PasteError) -> String {
        let retry = Self.unbreakable(output.named("paste --retry"))
        let whereItIs: String
        switch error {
        case let kept as KeptInOutbox:
            whereItIs =
                kept.isHeld
                ? "\nThe text is held in the outbox (\(kept.id)): the paste may have been made."
                : "\nThe text waits in the outbox (\(kept.id)): \(retry) sends it."
        case let unsaved as UnsavedFailure:
            whereItIs =
                "\n" + unsaved.notSaved.message
                + (unsaved.notSaved.isOnClipboard ? "; the clipboard still holds it." : "")
        default:
            whereItIs = ""
        }
        return error.message + whereItIs
    }

    /// `command` with its spaces made no-break spaces (U+00A0): one word to line breaking.
    static func unbreakable(_ command: String) -> String {
        command.replacing(" ", with: "\u{00A0}")
    }

    /// Asks whether to upload text the guard flagged.
    ///
    /// - Returns: `.uploadAnyway` or `.uploadPrivately`, never nil.
    /// - Throws: `Cancelled` when the person chose Cancel, pressed Escape or closed the window.
    func confirmSecretUpload(_ finding: SecretFinding, service: ServiceProfile) throws -> SecretChoice? {
        var buttons = [Alerts.Button("Upload anyway", answer: SecretChoice.uploadAnyway)]
        if service.canBePrivate { buttons.append(.init("Upload as private", answer: .uploadPrivately)) }
        buttons.append(.init("Cancel", answer: .cancel))
        let answer: SecretChoice?
        do {
            answer = try Alerts.confirm(
                message: output.shown(
                    "This text looks like it holds a secret: \(finding.description). Upload it to \(service.name)?"),
                buttons: buttons, displayName: plan.displayName, app: .paste)
        } catch {
            throw AlertFailure(error: error)
        }
        switch answer {
        case .uploadAnyway, .uploadPrivately: return answer
        case .cancel, nil: throw Cancelled()
        }
    }

    /// `--prompt`: the title, "" for none, nil when cancelled.
    func promptForTitle(initialText: String) throws -> String? {
        do {
            return try Alerts.prompt(
                title: "Paste", message: "Title of the paste", initialText: initialText,
                displayName: plan.displayName, app: .paste)
        } catch {
            throw AlertFailure(error: error)
        }
    }

    /// `--pick`: the index of the row chosen, nil when cancelled.
    func pick(title: String, rows: [PickRow]) throws -> Int? {
        do {
            return try Alerts.pick(title: title, rows: rows, displayName: plan.displayName, app: .paste)
        } catch {
            throw AlertFailure(error: error)
        }
    }
}
