import PasteCore

/// Why a living paste (`paste --update NAME`) cannot go now.
enum LivingError: PasteError {
    /// NAME lives on another service than the one named for the run.
    case livesElsewhere(name: String, service: String, named: String)
    /// NAME's first text has not made it yet (its create waits in the outbox): an update
    /// waits behind it, never sent as a second create.
    case notMadeYet(name: String, createEntry: String?)
    /// A newer text of NAME is on the server already: this older one is never sent after it.
    case superseded(name: String)
    /// `--update` names one paste: one input.
    case severalInputs

    var message: String {
        switch self {
        case .livesElsewhere(let name, let service, let named):
            "living paste '\(shown: name)' lives on '\(shown: service)', not '\(shown: named)'; nothing was uploaded"
        case .notMadeYet(let name, let entry?):
            "living paste '\(shown: name)' is not made yet: its first text waits in outbox entry \(entry) "
                + "(the service may have made it; 'paste --outbox send \(entry)' sends it, "
                + "'paste --outbox drop \(entry)' forgets it)"
        case .notMadeYet(let name, nil):
            "living paste '\(shown: name)' is not made yet: this update waits for its first text"
        case .superseded(let name):
            "a newer text of living paste '\(shown: name)' is on the service already; this one is not sent"
        case .severalInputs:
            "--update makes one living paste: give it one input (one -f FILE, stdin or the clipboard)"
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .livesElsewhere, .severalInputs: .usage
        case .notMadeYet: .temporaryFailure
        case .superseded: .success
        }
    }

    var disposition: Disposition {
        switch self {
        case .notMadeYet: Disposition(.retryLater, exitStatus: exitStatus)
        case .superseded: Disposition(.drop, exitStatus: exitStatus)
        default: Disposition(.drop, exitStatus: exitStatus)
        }
    }
}
