import PasteCore
import Stores
import SystemInterop

/// A paste that was not made: why (the cause, with what it means: its `Disposition`), where its
/// text is now, and the signal that stopped the run, if one did.
///
/// The pipeline's results are `Result<PasteResult, PasteFailure>`: send, extract and record
/// make them, deliver shows them. What the person reads about a failure comes from here alone
/// (`lines`): stderr and `--json` (`terminalLines`), the failure window and desktop
/// notifications (`windowLines`). What the failure means (the exit status, whether its text was
/// kept, the words for where it is) is read from `disposition`, which the cause decided where it
/// was born; nothing here asks the cause what type it is.
struct PasteFailure: Error {
    /// Where the text of a paste that was not made is.
    enum TextPlace: Sendable {
        /// Where it was, nothing kept for it: refused before anything was kept, content that
        /// can never be sent (its partial copy removed), or an entry that could not record why.
        case unchanged
        /// In the outbox, whole, as entry `id` in `state` (retryable or held).
        case outbox(id: String, state: OutboxEntry.State)
        /// A stream the signal cut short: never whole, so nothing was kept.
        case cutShort
        /// The outbox could not take it (whether the clipboard still holds it is said in it).
        case notSaved(TextNotSaved)
    }

    /// Why the paste was not made.
    let cause: any PasteError
    /// What the cause means (`PasteError.disposition`), taken once from it.
    let disposition: Disposition
    /// Where the text is.
    var text: TextPlace
    /// SIGINT, SIGTERM or SIGHUP, when one stopped the run while this paste was sent.
    var signal: Signal?
    /// Whether an outbox entry was refused before anything of it was sent (`RetryStage.refusal`):
    /// held, it is not a paste that may have been made.
    var isRefusedBeforeSending = false

    /// A failure whose text is where it was.
    init(_ cause: some PasteError) {
        self.cause = cause
        disposition = cause.disposition
        text = .unchanged
        signal = nil
    }

    /// A failure of what building a request threw (`RequestBuilder`'s errors come from several
    /// parts, each as a `PartError`): its text is where it was, and why is the part's own error
    /// (with its disposition).
    init(_ error: PartError) {
        self.init(cause: error.underlying, text: .unchanged)
    }

    init(cause: any PasteError, text: TextPlace, signal: Signal? = nil) {
        self.cause = cause
        disposition = cause.disposition
        self.text = text
        self.signal = signal
    }

    /// Whether the signal is what the failure says first (the text was kept, cut short or
    /// could not be saved as the run stopped).
    private var isInterrupted: Bool {
        if case .unchanged = text { return false }
        return signal != nil
    }

    /// The status the run ends with for this failure: 128 + the signal's number for a run
    /// stopped, 74 when the text could not be saved, else the cause's.
    var exitStatus: ExitStatus {
        if isInterrupted, let signal { return Interruption.exitStatus(for: signal) }
        if case .notSaved(let notSaved) = text { return notSaved.exitStatus }
        return disposition.exitStatus
    }

    /// The title a window or notification gives it: "Not uploaded" for a paste that paste
    /// chose not to make, where nothing left the machine (the secret guard or the clipboard's
    /// password mark refused it, the content or an option does not suit the service, no service
    /// is chosen, there was nothing to paste, the person cancelled); "Paste failed" for one that
    /// was tried and did not work (the service, the network, the disk).
    var title: String {
        guard case .unchanged = text else { return "Paste failed" }
        switch exitStatus {
        case .refused, .badInput, .usage, .config, .noInput, .cancelled: return "Not uploaded"
        default: return "Paste failed"
        }
    }

    /// Whether the entry is held because the secret guard holds it (up front on `--outbox
    /// send`, or as it streamed): no paste was made, and only `--force` sends it.
    var isHeldByGuard: Bool {
        guard case .outbox(_, .held) = text else { return false }
        return disposition.reason == .heldByGuard
    }

    // MARK: - What is said

    /// One line of stderr: an error (`paste: ` in colour on a terminal) or a hint below it
    /// (left out under `--json`).
    enum Line: Equatable {
        case error(String)
        case hint(String)
    }

    /// The failure as stderr says it: why, the cause's hint, and where the text is.
    func terminalLines() -> [Line] {
        if isInterrupted {
            switch text {
            case .outbox(let id, let state) where state != .held:
                return [.error("interrupted; the text waits in the outbox (\(id)); 'paste --retry' sends it")]
            case .outbox(let id, _):
                return [
                    .error(
                        "interrupted; the text is held in the outbox (\(id)): the paste may have been made; "
                            + "'paste --outbox send \(id)' sends it anyway")
                ]
            case .cutShort:
                return [.error("interrupted; the piped text was cut short before its end, so none of it was kept")]
            case .notSaved(let notSaved):
                return [.error("interrupted; " + notSaved.message)] + Self.hints(notSaved.hint)
            case .unchanged:
                break
            }
        }
        let why = [Line.error(cause.message)] + Self.hints(cause.hint)
        switch text {
        case .outbox(let id, _) where isServiceGone:
            return [
                .error(
                    "outbox entry \(id) is held: its service '\(serviceName ?? "")' is not configured any more; "
                        + "'paste --outbox send \(id)' sends it once it is, 'paste --outbox drop \(id)' drops it")
            ]
        case .outbox where disposition.reason == .contentChanged:
            // Its message says it all: held, why, and how to see or drop it.
            return why
        case .outbox(let id, .held) where isUnsupportedURL:
            return why + [
                .hint(
                    "the text is held in the outbox (\(id)): its URL can never be sent; "
                        + "'paste --outbox show \(id)' prints the text, 'paste --outbox drop \(id)' drops it")
            ]
        case .outbox(let id, let state):
            let whereItIs =
                isHeldByGuard
                ? "the text is held in the outbox (\(id)): 'paste --outbox send \(id) --force' sends it anyway, "
                    + "'paste --outbox drop \(id)' drops it"
                : state == .held && isPermanentRefusal
                    ? "the text is held in the outbox (\(id)): the service refused it, so 'paste --retry' does not "
                        + "send it again; 'paste --outbox send \(id)' sends it anyway, 'paste --outbox drop \(id)' drops it"
                    : state == .held && isRefusedBeforeSending
                        ? "the text is held in the outbox (\(id)): nothing of it was sent; "
                            + "'paste --outbox send \(id)' tries it again, 'paste --outbox drop \(id)' drops it"
                        : state == .held
                            ? "the text is held in the outbox (\(id)): the paste may have been made; "
                                + "'paste --outbox send \(id)' sends it anyway, 'paste --outbox drop \(id)' drops it"
                            : "the text waits in the outbox (\(id)); 'paste --retry' sends it again"
            return why + [.hint(whereItIs)]
        case .notSaved(let notSaved):
            // Both said, even under --json (which hides hints): why it failed, then that the
            // text could not be saved.
            return why + [.error(notSaved.message)] + Self.hints(notSaved.hint)
        case .unchanged, .cutShort:
            return why
        }
    }

    /// The failure as a window or a desktop notification says it: why, then where the text is.
    func windowLines() -> [String] {
        let whereItIs: String?
        switch text {
        case .outbox(let id, _) where disposition.reason == .contentChanged:
            whereItIs = "The text is held in the outbox (\(id)): it changed since it was kept."
        case .outbox(let id, .held) where isUnsupportedURL:
            whereItIs = "The text is held in the outbox (\(id)): its URL can never be sent."
        case .outbox(let id, _) where isHeldByGuard:
            whereItIs = "The text is held in the outbox (\(id)): only 'paste --outbox send \(id) --force' sends it."
        case .outbox(let id, .held) where isPermanentRefusal:
            whereItIs =
                "The text is held in the outbox (\(id)): the service refused it; it is not sent again by itself."
        case .outbox(let id, .held) where isRefusedBeforeSending:
            whereItIs = "The text is held in the outbox (\(id)): nothing of it was sent."
        case .outbox(let id, .held):
            whereItIs = "The text is held in the outbox (\(id)): the paste may have been made."
        case .outbox(let id, _):
            whereItIs = "The text waits in the outbox (\(id)): paste --retry sends it."
        case .notSaved(let notSaved):
            whereItIs = notSaved.message + (notSaved.isOnClipboard ? "; the clipboard still holds it." : "")
        case .unchanged, .cutShort:
            whereItIs = nil
        }
        return [cause.message] + (whereItIs.map { [$0] } ?? [])
    }

    /// A hint's lines, one `Line` each.
    private static func hints(_ hint: String?) -> [Line] {
        hint.map { $0.split(separator: "\n").map { .hint(String($0)) } } ?? []
    }

    /// The service an outbox entry was for, when the config no longer has it.
    private var serviceName: String? {
        guard case .serviceGone(let name) = disposition.reason else { return nil }
        return name
    }

    /// Whether its URL can never be sent (a scheme other than http or https).
    private var isUnsupportedURL: Bool { disposition.reason == .unsendableURL }

    /// Whether the service refused the text for good (a 4xx other than 408, 425 and 429): no
    /// paste was made, and sending it again unchanged cannot work.
    private var isPermanentRefusal: Bool { disposition.reason == .permanentRefusal }

    /// Whether the entry is held because its service left the config: one line, and the
    /// others still go.
    private var isServiceGone: Bool { serviceName != nil }
}
