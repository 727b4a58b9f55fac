import PasteCore

extension UploadError {
    /// What a failed transfer means, decided here for every stage (`Disposition`):
    /// - nothing reached the server, in a way that may pass (resolve, connect, a timeout before
    ///   the body, the proxy down): asked again in this run (`RetryPolicy`), then the fallback,
    ///   then retryable in the outbox; `unreachable` when the service could not be reached at all
    ///   (`isUnreachable`);
    /// - content refused as it streamed: a secret is held for the person (only `--force` sends
    ///   it); binary data or text that is not UTF-8 can never go (a fresh text is not kept);
    /// - an unsupported URL (an entry whose URL was edited to `file:///…`) can never be sent as
    ///   it is: a fresh text is not kept (78), an entry is held so `--retry` stops trying it;
    /// - any request byte may have reached the server (`mayHaveReachedServer`: a timeout or drop
    ///   after the body went out, a send or receive failure, a bad answer, a refused or endless
    ///   redirect): held;
    /// - anything else sent nothing (TLS, a refusing proxy, a file that could not be read):
    ///   retryable (see `OutboxFailure`'s table).
    public var disposition: Disposition {
        switch self {
        case .contentRefused(let refusal):
            return refusal.keepsText
                ? Disposition(.hold, exitStatus: exitStatus, reason: .heldByGuard)
                : Disposition(.drop, exitStatus: exitStatus)
        case .unsupportedURL:
            return Disposition(.drop, exitStatus: exitStatus, reason: .unsendableURL)
        default:
            break
        }
        if mayHaveReachedServer { return Disposition(.hold, exitStatus: exitStatus) }
        switch self {
        case .couldNotResolve, .couldNotConnect, .proxyUnreachable, .timedOut:
            return Disposition(.retryNow, exitStatus: exitStatus, reason: isUnreachable ? .unreachable : nil)
        default:
            return Disposition(.retryLater, exitStatus: exitStatus)
        }
    }
}

extension UploadError {
    /// Whether the service's host refused the connection or does not resolve, before any byte
    /// went out: a dead host, not a slow one. A service with a fallback hands its text over at
    /// once on such a failure, without the in-run retries meant for one that has none (issue 40);
    /// timeouts and 5xx answers keep those rules.
    public var isRefusedConnection: Bool {
        switch self {
        case .couldNotConnect(_, _, false), .couldNotResolve(_, false): true
        default: false
        }
    }
}
