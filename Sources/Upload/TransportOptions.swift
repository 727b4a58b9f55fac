import PasteCore
import SystemInterop

/// How transfers behave: timeouts, redirects, TLS, identification, and what is reported.
///
/// Whom a transfer trusts and which proxy it goes through are the request's own
/// (`UploadRequest.connection`, resolved from the config and the run's environment): libcurl
/// is always told the proxy, "" for none, so it never reads the process environment itself.
public struct TransportOptions: Sendable {
    /// The client version sent in the default User-Agent.
    // TODO(lead): take the version from PasteCore once it has one.
    public static let clientVersion = "0.1.0"

    /// How long a connection, the whole transfer, a stall and the answer may take
    /// (CURLOPT_CONNECTTIMEOUT_MS, CURLOPT_TIMEOUT_MS, CURLOPT_LOW_SPEED_LIMIT with
    /// CURLOPT_LOW_SPEED_TIME, and the answer's own bound).
    public var timeouts: TransferTimeouts
    /// The most redirects followed (by `RedirectChain`, one request at a time).
    public var maxRedirects: Int
    /// Skip TLS certificate and host name verification (`--insecure`; a service's
    /// `insecure = true` arrives in its request's connection policy). Off unless asked for.
    public var insecure: Bool
    /// The User-Agent header.
    public var userAgent: String
    /// Receives the verbose trace, one line at a time, prefixed `> ` (sent), `< ` (received) or
    /// `* ` (libcurl's notes); credentials and cookies are redacted before it sees them.
    public var verbose: (@Sendable (String) -> Void)?
    /// Receives (bytes of the body sent, total when known) as a transfer runs.
    public var progress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)?
    /// Asked as an HTTP transfer runs (from libcurl's progress callback: at least once a second,
    /// and at once when a signal interrupts its wait, or a read of a streamed body): true stops
    /// the transfer, which then fails with `UploadError.interrupted`. paste answers true once
    /// SIGINT, SIGTERM or SIGHUP arrived.
    public var shouldStop: (@Sendable () -> Bool)?

    /// Makes options; every default is the documented one.
    public init(
        timeouts: TransferTimeouts = TransferTimeouts(), maxRedirects: Int = 10, insecure: Bool = false,
        userAgent: String = "paste/\(TransportOptions.clientVersion)",
        verbose: (@Sendable (String) -> Void)? = nil,
        progress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)? = nil
    ) {
        self.timeouts = timeouts
        self.maxRedirects = maxRedirects
        self.insecure = insecure
        self.userAgent = userAgent
        self.verbose = verbose
        self.progress = progress
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so a small positive timeout never becomes 0 ("no limit"),
    /// at most `Int32.max` (24.8 days, far past any accepted setting): the conversion can
    /// never overflow, whatever the duration.
    var roundedUpMilliseconds: Int {
        guard self > .zero else { return 1 }
        guard components.seconds < Int64(Int32.max) / 1000 else { return Int(Int32.max) }
        return max(1, Int(millisecondsRoundedUp))  // SystemInterop's Duration+Parts
    }
}
