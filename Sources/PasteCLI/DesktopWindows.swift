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
            body: output.shown(text),
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
    /// there), or that it could not be saved (`PasteFailure.windowLines`).
    func notifyFailure(_ failure: PasteFailure) {
        notify(success: false, text: failure.windowLines().joined(separator: "\n"))
    }

    /// Shows why the run failed before any paste was sent (the config, the input, the guard).
    func notifyFailure(_ error: any PasteError) {
        notifyFailure(PasteFailure(error))
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
