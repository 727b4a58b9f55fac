/// What a failed upload means for its text in the outbox: safe to send again by itself
/// (`retryable`), or kept until the person says (`held`), and the message to keep with it.
///
/// The one question is whether the server may already have made the paste: then sending it
/// again could make a second one, so it is held. `verdict(for:)` answers it for every error an
/// upload can end with; the table, case by case:
///
/// | failure | verdict | why |
/// |---|---|---|
/// | `UploadError`, nothing sent (`mayHaveReachedServer` false): DNS, connection refused, connect timeout, TLS handshake or certificate, proxy unreachable or refusing | retryable | no request byte reached the server |
/// | `UploadError.unsupportedURL` (an entry whose URL was edited): never sent; fresh text is not kept at all (78) | held | it can never be sent as it is |
/// | `UploadError`, request sent: a timeout or drop after the body went out, a send or receive failure, a bad answer, a refused redirect, too many redirects | held | the server may have taken the body |
/// | `ServiceError.httpStatus` 408, 425, 429, 503 | retryable | the server refused before accepting ("come back later") |
/// | `ServiceError.httpStatus` other 4xx (400, 401, 403, 413, ...) | held | a permanent refusal: sent again unchanged it is refused again; the server's reason is kept |
/// | `ServiceError.httpStatus` 500, 502, 504 and other 5xx, after the whole body was taken | held | the server (or the one behind a gateway) may have made it |
/// | `RefusedBeforeBody`: a 5xx answered before the whole body was taken | retryable | the server never had the complete request |
/// | `ServiceError.httpStatus` 1xx, 2xx, 3xx; `.noURL`, `.unsafeURL`, `.notAPaste`, `.partial` | held | the server answered as if it took the text, without a usable URL |
/// | `ServiceError.refused` (PrivateBin's status 1) | retryable | the service said it made nothing |
/// | `ConfigError.unknownService` | held | the service left the config: only the person can say where it goes |
/// | other `ConfigError` (a token's variable unset under cron, ...) | retryable | nothing was sent; fixing the config lets it go |
/// | `RequestError.unreadable` | retryable | local, nothing was sent |
/// | other `RequestError` (too large, an option or expiry the service lacks) | held | sending it again cannot work |
/// | `InspectionRefusal`, `UploadError.contentRefused` (binary, not UTF-8 for the format; a secret seen as stdin streamed) | held | sending it again cannot work (a secret: the person must decide) |
/// | `GuardError` (the secret guard, run again on each entry sent) | held | the person must decide |
/// | `StoreError` | retryable | local, nothing was sent |
/// | anything else | held | unknown: never risk a second paste |
///
/// Whatever the verdict, an entry that has failed `retry-max-attempts` times is held
/// (`OutboxPolicy`).
public struct OutboxFailure: Sendable, Equatable {
    /// Whether an entry may be sent again by `paste --retry`.
    public enum Verdict: String, Sendable, Equatable {
        /// Nothing reached the server, or it refused before accepting.
        case retryable
        /// The server may have made the paste (or sending it again cannot work).
        case held
    }

    /// Retryable or held.
    public var verdict: Verdict
    /// One line for `last_error` and the listing, already sanitized.
    public var message: String

    /// A failure with its verdict; `message` goes through `describe` like every other.
    public init(verdict: Verdict, message: String) {
        self.verdict = verdict
        self.message = OutboxFailure.sanitize(message)
    }

    /// The failure of an upload that ended with `error`; `redaction` masks the run's secrets in
    /// its message before it is cut (`Outbox.redaction`, the run's `Redactor`).
    public init(_ error: any Error, redaction: (String) -> String = { $0 }) {
        self.verdict = OutboxFailure.verdict(for: error)
        self.message = OutboxFailure.describe(error, redaction: redaction)
    }

    /// Retryable or held, for any error an upload can end with (the table above).
    public static func verdict(for error: any Error) -> Verdict {
        (error as? any OutboxClassifiable)?.outboxVerdict ?? .held
    }

    /// The text kept as an entry's `last_error`: the error's message on one line, without
    /// terminal escapes or control characters, cut after `maximumMessageLength` characters (then
    /// ending in `…`).
    ///
    /// Every `last_error` goes through here (and `sanitize`): `redaction` masks the run's
    /// secrets by value first, so no cut can leave half of one; the outbox masks what it
    /// stores again on writing (`Outbox.redaction`), whoever made the message.
    public static func describe(_ error: any Error, redaction: (String) -> String = { $0 }) -> String {
        sanitize((error as? any PasteError)?.message ?? "\(error)", redaction: redaction)
    }

    /// Cleans a message for the outbox (see `describe`).
    static func sanitize(_ message: String, redaction: (String) -> String = { $0 }) -> String {
        Sanitizer.printable(redaction(message), limit: maximumMessageLength)
    }

    /// The longest `last_error` kept: a message and its server excerpt (160) with room to spare.
    public static let maximumMessageLength = 300

    /// What a recovery pass records on an entry that was in flight when its run died.
    public static let interrupted = OutboxFailure(
        verdict: .held, message: "the run sending it ended before an answer came; the paste may have been made")
}

/// An error that knows what it means for a text in the outbox (see `OutboxFailure`).
///
/// PasteCore's errors conform here; `UploadError` conforms in Upload. An error that does not
/// conform is taken as `held`.
public protocol OutboxClassifiable: Error {
    /// Retryable or held.
    var outboxVerdict: OutboxFailure.Verdict { get }
}

extension ServiceError: OutboxClassifiable {
    public var outboxVerdict: OutboxFailure.Verdict {
        switch self {
        case .httpStatus(_, let status, _):
            Self.outboxVerdict(status: status)
        case .refused:
            .retryable
        case .noURL, .unsafeURL, .notAPaste, .partial:
            .held
        }
    }

    /// The verdict for an HTTP status the service answered with (and no usable URL).
    static func outboxVerdict(status: Int) -> OutboxFailure.Verdict {
        switch status {
        case 408, 425, 429, 503: .retryable
        case 400...499: .held  // a permanent refusal: cron must not resend a doomed paste
        default: .held  // 1xx, 2xx, 3xx (taken, no URL), 500 and the other 5xx (may be made)
        }
    }
}

extension ConfigError: OutboxClassifiable {
    public var outboxVerdict: OutboxFailure.Verdict {
        if case .unknownService = self { return .held }
        return .retryable
    }
}

extension RequestError: OutboxClassifiable {
    public var outboxVerdict: OutboxFailure.Verdict {
        if case .unreadable = self { return .retryable }
        return .held
    }
}

extension InspectionRefusal: OutboxClassifiable {
    public var outboxVerdict: OutboxFailure.Verdict { .held }
}
