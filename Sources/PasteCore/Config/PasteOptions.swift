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
    /// `-e never`: the paste must not expire (only services that offer it, PrivateBin).
    public var neverExpires = false
    /// `--burn`: the paste is deleted once it has been read (only services that can, PrivateBin).
    public var burnsAfterReading = false
    /// Whether a language may be guessed from the text when neither `-l` nor a file name gives
    /// one (`guess-language` in `[paste]`; `-l text` also keeps it plain).
    public var guessesLanguage = true

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
    /// The service asks the person a question (`{prompt:…}`, `{select:…}`) and no one can be
    /// asked (no display).
    case cannotAsk(question: String)
    /// The person cancelled a question the service asks.
    case cancelled
    /// The service offers a fixed set of expiries and none is the one asked for (`requested`
    /// as given: `2h`); `offered` lists the service's names, `spellings` the same as `-e` takes them.
    case expiryNotOffered(service: String, requested: String, offered: [String], spellings: [String])

    public var message: String {
        switch self {
        case .unsupportedOption(let service, let option):
            "service '\(shown: service)' cannot honour \(option); nothing was uploaded"
        case .expiryTooShort(let service, let requested, let shortest):
            "service '\(shown: service)' cannot expire a paste within \(requested)s (shortest: \(shown: shortest)); nothing was uploaded"
        case .tooLarge(let service, let bytes, let limit):
            "the text is \(bytes) bytes but '\(shown: service)' accepts at most \(limit); nothing was uploaded"
        case .unreadable(let path, let reason):
            "cannot read '\(shownPath: path)': \(reason)"
        case .cannotAsk(let question):
            "the service asks '\(shown: question)' in a window, and no window can be shown; nothing was uploaded"
        case .cancelled:
            "cancelled; nothing was uploaded"
        case .expiryNotOffered(let service, let requested, let offered, _):
            "service '\(shown: service)' cannot expire a paste after \(requested); it offers \(Self.list(offered)); "
                + "nothing was uploaded"
        }
    }

    public var hint: String? {
        switch self {
        case .unsupportedOption: "choose another service with -S (see 'paste --list-services')"
        case .expiryNotOffered(_, _, _, let spellings):
            "use -e " + Self.list(spellings)
        default: nil
        }
    }

    /// `a, b or c`.
    static func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .unsupportedOption, .expiryTooShort, .expiryNotOffered: .usage
        case .tooLarge: .badInput
        case .unreadable: .ioError
        case .cannotAsk: .unavailable
        case .cancelled: .cancelled
        }
    }
}
