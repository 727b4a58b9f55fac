import Clipboard
import PasteCore

/// A clipboard error, as the person sees it: Clipboard knows nothing of PasteCore, so its
/// broad `kind` is mapped to an exit status here.
struct ClipboardFailure: PasteError {
    var error: ClipboardError

    var message: String {
        // Clipboard says what it met; the setting that made the limit is ours to name.
        guard case .exceedsLimit(_, let limit) = error else { return error.message }
        return error.message + "; paste reads at most max-clipboard = \(Self.configText(limit))"
    }

    /// A size as the config writes it: `1G`, `64K`, or bytes.
    static func configText(_ bytes: Int) -> String {
        for (shift, unit) in [(30, "G"), (20, "M"), (10, "K")] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(unit)"
        }
        return "\(bytes)"
    }

    var hint: String? {
        switch error {
        case .noDisplay: "pipe text in (cmd | paste), or use -f FILE"
        case .noTextTarget: "copy text, not an image or a file, and try again"
        default: nil
        }
    }

    var exitStatus: ExitStatus {
        switch error.kind {
        case .noInput: .noInput
        case .badInput: .badInput
        case .temporaryFailure: .temporaryFailure
        case .unavailable: .unavailable
        case .ioError: .ioError
        }
    }
}
