/// The service answered, but not with a paste.
public enum ServiceError: PasteError, Equatable {
    /// An HTTP error status; `excerpt` is the sanitized start of the body.
    case httpStatus(service: String, status: Int, excerpt: String)
    /// The answer held no usable URL; `tried` is the result rule that looked for one, in its
    /// config spelling (`regex:…`, a template), when it was one that reads the answer.
    case noURL(service: String, status: Int, excerpt: String, tried: String? = nil)
    /// A URL was there but is not safe to show or copy.
    case unsafeURL(service: String, problem: Sanitizer.URLProblem)
    /// The URL is the endpoint, the site's root or the form page: nothing was created.
    case notAPaste(service: String, url: String)
    /// A partial answer (206) is never a finished paste.
    case partial(service: String)
    /// The service answered that it refused the paste (PrivateBin's `status` 1), with its
    /// message, sanitized.
    case refused(service: String, message: String)

    public var message: String {
        switch self {
        case .httpStatus(let service, let status, let excerpt):
            // The limit of a path: a ShareX uploader's service names its file.
            "\(shown: service, limit: Sanitizer.shownPathLength) answered HTTP \(status)"
                + (excerpt.isEmpty ? "" : ": \(excerpt)")
        case .noURL(let service, let status, let excerpt, let tried?):
            // What was looked for and what came back, so a rule that does not fit the answer
            // (a ShareX regex whose backslashes were lost) shows itself.
            "\(shown: service) gave no paste URL (HTTP \(status)): result = \(shown: tried) found nothing in "
                + (excerpt.isEmpty ? "an empty answer" : "the answer '\(excerpt)'")
        case .noURL(let service, let status, let excerpt, nil):
            "\(shown: service) gave no paste URL (HTTP \(status))" + (excerpt.isEmpty ? "" : ": \(excerpt)")
        case .unsafeURL(let service, let problem):
            "\(shown: service) gave an unusable URL: \(problem.text)"
        case .notAPaste(let service, let url):
            "\(shown: service) sent back to \(shown: url, limit: Sanitizer.shownURLLength), not to a new paste"
        case .partial(let service):
            "\(shown: service) gave a partial answer (HTTP 206)"
        case .refused(let service, let message):
            "\(shown: service) refused the paste: \(shown: message, limit: Sanitizer.excerptLength)"
        }
    }

    /// None of its own: where the text is depends on whether the outbox could take it, which
    /// the run says (PasteCLI's `PasteFailure`, or "the text could not be saved").
    public var hint: String? { nil }

    public var exitStatus: ExitStatus {
        switch self {
        case .httpStatus(_, let status, _) where Self.isTemporary(status): .temporaryFailure
        default: .unavailable
        }
    }

    /// Whether the service refused the paste for good: a 4xx other than 408 (timeout), 425 (too
    /// early) and 429 (too many requests). Sent again unchanged, it is refused again, so its
    /// outbox entry is held with the server's reason and `paste --retry` never resends it.
    public var isPermanentRefusal: Bool {
        guard case .httpStatus(_, let status, _) = self else { return false }
        return (400...499).contains(status) && ![408, 425, 429].contains(status)
    }

    /// Statuses that mean "try again later": too many requests, bad gateway, unavailable, gateway timeout.
    public static func isTemporary(_ status: Int) -> Bool { [408, 429, 502, 503, 504].contains(status) }
}

extension Sanitizer.URLProblem {
    /// `U+202E`.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// How the problem reads in a message.
    public var text: String {
        switch self {
        case .notHTTP(let scheme):
            scheme.isEmpty ? "not a URL" : "scheme '\(Sanitizer.printable(scheme, limit: 20))' is not http(s)"
        case .tooLong(let length): "\(length) bytes long"
        case .controlCharacters: "it holds control characters"
        case .whitespace: "it holds white space"
        case .notInURL(let character): "it holds '\(character)', which no URL holds"
        case .noHost: "it names no host"
        case .bidirectionalControl(let scalar):
            "it holds the bidirectional control \(Self.codePoint(scalar)), which makes it read as another address"
        case .invisibleCharacter(let scalar):
            "it holds the invisible character \(Self.codePoint(scalar)), which hides what it leads to"
        case .userInfo: "it puts a user name before the host (user@host), which hides where it leads"
        case .ideographicFullStop(let scalar):
            "its host holds the full stop \(Self.codePoint(scalar)), which browsers read as a dot"
        case .mixedScriptHost(let host):
            "its host '\(Sanitizer.shown(host, limit: 80))' mixes scripts, which makes it read as another host"
        }
    }
}
