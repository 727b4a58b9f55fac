import Clipboard
import PasteCore

/// A clipboard error, as the person sees it: Clipboard knows nothing of PasteCore, so its
/// broad `kind` is mapped to an exit status here.
struct ClipboardFailure: PasteError {
    var error: ClipboardError

    /// The Clipboard module's message (it cannot reach `Sanitizer`): the X server's target
    /// names and `DISPLAY` are shown escaped, and the whole bounded. Past the read limit,
    /// the setting that made the limit is ours to name.
    var message: String {
        let shown = Sanitizer.shown(error.message, limit: Self.messageLength)
        guard case .exceedsLimit(_, let limit) = error else { return shown }
        return shown + "; paste reads at most max-clipboard = \(SettingRange.sizeText(Int64(limit)))"
    }

    /// The longest clipboard message shown (a selection may offer many targets).
    static let messageLength = 400

    var hint: String? {
        switch error {
        case .noDisplay: "pipe text in (cmd | paste), or use -f FILE"
        case .noTextTarget: "copy text, not an image or a file, and try again"
        case .noContentTarget: "copy text or an image (PNG, JPEG, WebP, GIF, BMP), or save it to a file and use -f FILE"
        case .tooLarge:
            "the limit is the image service's max-size (\(ContentPreferences.defaultImageLimit >> 20) MiB when it "
                + "sets none); copy a smaller image"
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
        case .refused: .refused
        }
    }
}
