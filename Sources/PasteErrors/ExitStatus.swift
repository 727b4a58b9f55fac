/// The exit statuses of `paste`, after sysexits.h, as documented in paste(1) EXIT STATUS.
///
/// The numbers are a contract: scripts and tests outside the project rely on them.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Everything worked.
    case success = 0
    /// The command line was wrong (`EX_USAGE`).
    case usage = 64
    /// The input was unusable: empty, binary, or no text target on the selection (`EX_DATAERR`).
    case badInput = 65
    /// The input was not there: a missing file or an empty clipboard (`EX_NOINPUT`).
    case noInput = 66
    /// The service failed or gave no usable URL (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// A bug in paste itself (`EX_SOFTWARE`).
    case internalError = 70
    /// A local read or write failed (`EX_IOERR`).
    case ioError = 74
    /// A temporary failure: network, timeout, 429 or 503. The text waits in the outbox (`EX_TEMPFAIL`).
    case temporaryFailure = 75
    /// The secret guard refused the upload (`EX_NOPERM`).
    case refused = 77
    /// The configuration is wrong (`EX_CONFIG`).
    case config = 78
    /// The terminal went away: SIGHUP stopped the upload (128 + SIGHUP); the text waits in the
    /// outbox.
    case hungUp = 129
    /// The person cancelled (128 + SIGINT, as shells report an interrupted command): a question
    /// answered no, or Ctrl-C during the upload (the text then waits in the outbox).
    case cancelled = 130
    /// SIGTERM stopped the upload (128 + SIGTERM); the text waits in the outbox.
    case terminated = 143
}

extension ExitStatus {
    /// The status's name in `--json` failure objects (`"error"`): stable, documented in paste(1),
    /// JSON OUTPUT, so scripts can branch on it.
    public var kind: String {
        switch self {
        case .success: "none"
        case .usage: "usage"
        case .badInput: "bad-input"
        case .noInput: "no-input"
        case .unavailable: "unavailable"
        case .internalError: "internal"
        case .ioError: "io"
        case .temporaryFailure: "temporary"
        case .refused: "refused"
        case .config: "config"
        case .hungUp: "hung-up"
        case .cancelled: "cancelled"
        case .terminated: "terminated"
        }
    }
}
