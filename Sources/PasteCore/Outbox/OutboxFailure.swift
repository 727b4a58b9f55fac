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

    /// Retryable or held, for any error an upload can end with (the table above): its
    /// disposition's (`PasteError.disposition`); held for an error that is no `PasteError`.
    public static func verdict(for error: any Error) -> Verdict {
        (error as? any PasteError)?.disposition.outboxVerdict ?? .held
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

// MARK: - Dispositions of PasteCore's errors (the table above)

extension Disposition {
    /// Whether `paste --retry` may send the text again by itself: retryable from `retryLater`
    /// up, held from `hold` down.
    public var outboxVerdict: OutboxFailure.Verdict { course <= .retryLater ? .retryable : .held }
}

extension PasteError {
    /// Retryable or held in the outbox (`OutboxFailure`'s table).
    public var outboxVerdict: OutboxFailure.Verdict { disposition.outboxVerdict }
}

extension ServiceError {
    /// Retryable for the statuses that say "come back later" (408, 425, 429, 503) and for a
    /// refusal that made nothing; held for a permanent refusal (another 4xx: cron must not resend
    /// a doomed paste) and for everything else (1xx, 2xx, 3xx taken without a URL; 500 and the
    /// other 5xx may be made).
    public var disposition: Disposition {
        switch self {
        case .httpStatus(_, let status, _) where [408, 425, 429, 503].contains(status):
            Disposition(.retryLater, exitStatus: exitStatus)
        case .httpStatus:
            Disposition(.hold, exitStatus: exitStatus, reason: isPermanentRefusal ? .permanentRefusal : nil)
        case .refused:
            Disposition(.retryLater, exitStatus: exitStatus)
        case .noURL, .unsafeURL, .notAPaste, .partial:
            Disposition(.hold, exitStatus: exitStatus)
        }
    }
}

extension ConfigError {
    /// Held when the service left the config (only the person can say where it goes); else
    /// retryable: nothing was sent, and fixing the config lets it go.
    public var disposition: Disposition {
        if case .unknownService(let name, _, _, _) = self {
            return Disposition(.hold, exitStatus: exitStatus, reason: .serviceGone(name))
        }
        return Disposition(.retryLater, exitStatus: exitStatus)
    }
}

extension RequestError {
    /// Retryable when the content could not be read (local, nothing sent); else held: sending
    /// it again cannot work.
    public var disposition: Disposition {
        if case .unreadable = self { return Disposition(.retryLater, exitStatus: exitStatus) }
        return Disposition(.hold, exitStatus: exitStatus)
    }
}
