import PasteErrors

/// A clipboard error as the person reads it, where it is born: its `detail` shown safely, the
/// hint, and the status by its broad `kind`.
extension ClipboardError: PasteError {
    /// `detail`, with the X server's target names and `DISPLAY` shown escaped, and the whole
    /// bounded. Past the read limit, the setting that made the limit is named.
    public var message: String {
        let shown = Sanitizer.shown(detail, limit: Self.messageLength)
        guard case .exceedsLimit(_, let limit) = self else { return shown }
        return shown + "; paste reads at most max-clipboard = \(ByteCount.text(Int64(limit)))"
    }

    /// The longest clipboard message shown (a selection may offer many targets).
    static let messageLength = 400

    public var hint: String? {
        switch self {
        case .noDisplay: "pipe text in (cmd | paste), or use -f FILE"
        case .undecidedCopy: "copy it again, or pick the X side with clipboard = x11 (paste-config(5))"
        case .noTextTarget: "copy text, not an image or a file, and try again"
        case .noContentTarget: "copy text or an image (PNG, JPEG, WebP, GIF, BMP), or save it to a file and use -f FILE"
        case .tooLarge:
            "the limit is the image service's max-size (\(ContentPreferences.defaultImageLimit >> 20) MiB when it "
                + "sets none); copy a smaller image"
        default: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch kind {
        case .noInput: .noInput
        case .badInput: .badInput
        case .temporaryFailure: .temporaryFailure
        case .unavailable: .unavailable
        case .ioError: .ioError
        case .refused: .refused
        }
    }
}
