/// What the person asked for one paste, independent of any service.
public struct PasteOptions: Sendable, Equatable {
    /// `-t TITLE`.
    public var title: String?
    /// `-l LANG`.
    public var language: String?
    /// `-p`: the paste must not be listed publicly.
    public var isPrivate = false
    /// `-e DURATION`, in seconds.
    public var expirySeconds: Int?

    public init(title: String? = nil, language: String? = nil, isPrivate: Bool = false, expirySeconds: Int? = nil) {
        self.title = title
        self.language = language
        self.isPrivate = isPrivate
        self.expirySeconds = expirySeconds
    }
}

/// Why a request could not be built for a service.
public enum RequestError: PasteError, Equatable {
    /// The service has no way to honour an option; nothing is sent rather than ignoring it.
    case unsupportedOption(service: String, option: String)
    /// No expiry the service offers is as short as the one asked for.
    case expiryTooShort(service: String, requested: Int, shortest: String)
    /// The content is larger than the service accepts.
    case tooLarge(service: String, bytes: Int64, limit: Int64)
    /// A streamed content could not be read to build an in-memory body.
    case unreadable(path: String, reason: String)
    /// The service does not take text (a ShareX image or URL-shortener definition).
    case cannotSend(service: String, accepts: ContentKinds)
    /// The service asks the person a question (`{prompt:…}`, `{select:…}`) and no one can be
    /// asked (no display).
    case cannotAsk(question: String)
    /// The person cancelled a question the service asks.
    case cancelled

    public var message: String {
        switch self {
        case .unsupportedOption(let service, let option):
            "service '\(service)' cannot honour \(option); nothing was uploaded"
        case .expiryTooShort(let service, let requested, let shortest):
            "service '\(service)' cannot expire a paste within \(requested)s (shortest: \(shortest)); nothing was uploaded"
        case .tooLarge(let service, let bytes, let limit):
            "the text is \(bytes) bytes but '\(service)' accepts at most \(limit); nothing was uploaded"
        case .unreadable(let path, let reason):
            "cannot read '\(path)': \(reason)"
        case .cannotSend(let service, let accepts):
            "service '\(service)' takes \(accepts.isEmpty ? "nothing paste can send" : accepts.configText), not text; nothing was uploaded"
        case .cannotAsk(let question):
            "the service asks '\(question)' in a window, and no window can be shown; nothing was uploaded"
        case .cancelled:
            "cancelled; nothing was uploaded"
        }
    }

    public var hint: String? {
        switch self {
        case .unsupportedOption: "choose another service with -S (see 'paste --list-services')"
        default: nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unsupportedOption, .expiryTooShort: .usage
        case .tooLarge, .cannotSend: .badInput
        case .unreadable: .ioError
        case .cannotAsk: .unavailable
        case .cancelled: .cancelled
        }
    }
}
