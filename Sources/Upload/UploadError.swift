import CurlInterop
import PasteCore
import SystemInterop

/// Why an upload failed, with what a message, an exit status and a retry decision need.
///
/// Cases whose timing varies carry `requestSent`: whether any request byte may have reached
/// the server (then a retry could create the paste twice).
public enum UploadError: PasteError, Equatable {
    /// The phase a timeout hit.
    public enum TimeoutPhase: Sendable, Equatable {
        /// No connection within the connect timeout.
        case connect
        /// Under 1 byte/s for this many seconds (or no answer on a raw TCP exchange).
        case stalled(seconds: Int)
        /// The whole transfer ran past its bound, in seconds.
        case total(seconds: Double)
        /// The answer did not come within `response-timeout` (seconds) of the text being sent.
        case response(seconds: Double)
    }

    /// The host name did not resolve.
    case couldNotResolve(host: String, requestSent: Bool)
    /// No connection could be made; `detail` is the system's reason (`connection refused`).
    case couldNotConnect(url: String, detail: String, requestSent: Bool)
    /// A timeout fired.
    case timedOut(url: String, phase: TimeoutPhase, requestSent: Bool)
    /// The TLS handshake or certificate verification failed.
    case tls(url: String, detail: String, requestSent: Bool)
    /// A redirect pointed at a scheme other than http or https (`file:///etc/passwd`), or at a
    /// malformed URL (control characters).
    case redirectRefused(url: String)
    /// The redirect chain was longer than allowed.
    case tooManyRedirects(Int)
    /// Sending the request failed part-way.
    case sendFailed(url: String, detail: String)
    /// Receiving the answer failed (reset, empty reply, malformed reply).
    case receiveFailed(url: String, detail: String)
    /// Reading the content to send failed.
    case readFailed(path: String, errno: Errno, requestSent: Bool)
    /// Appending to the outbox copy (the tee) failed.
    case teeFailed(path: String, errno: Errno, requestSent: Bool)
    /// The URL's scheme is not http, https or tcp, or it is malformed.
    case unsupportedURL(String)
    /// A `tcp://` service was given a form body; only raw content can go over TCP.
    case bodyNotSendableOverTCP(url: String)
    /// Any other libcurl failure, kept whole.
    case curl(CurlError, requestSent: Bool)
    /// The server's certificate could not be verified (an unknown CA, a wrong name, expired);
    /// `trust` and `source` are the CAs that were trusted and where they came from.
    case certificateNotTrusted(
        url: String, detail: String, trust: ConnectionPolicy.Trust = .system(nil),
        source: ConnectionPolicy.TrustSource = .system)
    /// The server refused the TLS connection for want of a client certificate.
    case clientCertificateRequired(url: String, detail: String)
    /// A redirect (307, 308, or a PUT's 301/302) would send the body to another origin.
    case bodyRedirectRefused(url: String, status: Int)
    /// The answer is not HTTP/1.x or HTTP/2 (an HTTP/0.9 reply, a malformed status line), or
    /// its header is larger than libcurl takes.
    case badAnswer(url: String, detail: String)
    /// The content was refused as it was read (binary, not UTF-8, a secret): the transfer was
    /// stopped before the request was complete, so the server made no paste. Never retried;
    /// kept (held) only for a secret (`InspectionRefusal.keepsText`).
    case contentRefused(InspectionRefusal)
    /// The proxy could not be reached (`authority` is its `host:port`).
    case proxyUnreachable(proxy: String, detail: String, requestSent: Bool)
    /// The proxy answered a request (CONNECT, or an absolute-form one) with an error status.
    case proxyRefused(proxy: String, status: Int, requestSent: Bool)
    /// The SOCKS proxy could not complete the connection to the server.
    case proxyFailed(proxy: String, detail: String, requestSent: Bool)
    /// The TLS connection to an https:// proxy itself failed (its certificate, most often).
    case proxyTLS(
        proxy: String, detail: String, trust: ConnectionPolicy.Trust = .system(nil),
        source: ConnectionPolicy.TrustSource = .system)
    /// The transfer was stopped because the run was told to end (`TransportOptions.shouldStop`:
    /// SIGINT, SIGTERM, SIGHUP). `bodySent`: whether the whole body had gone out (or an earlier
    /// request of the chain carried it), so that the server may have made the paste; a body cut
    /// short is an incomplete request, which no server makes a paste of.
    case interrupted(url: String, bodySent: Bool)

    /// Whether any request byte may have reached the server, so that a retry could duplicate
    /// the paste.
    public var mayHaveReachedServer: Bool {
        switch self {
        case .couldNotResolve(_, let sent), .couldNotConnect(_, _, let sent), .timedOut(_, _, let sent),
            .tls(_, _, let sent), .readFailed(_, _, let sent), .teeFailed(_, _, let sent),
            .curl(_, let sent), .proxyUnreachable(_, _, let sent), .proxyRefused(_, _, let sent),
            .proxyFailed(_, _, let sent), .interrupted(_, let sent):
            sent
        case .redirectRefused, .tooManyRedirects, .sendFailed, .receiveFailed, .bodyRedirectRefused, .badAnswer:
            true  // a first request, or part of this one, went out
        case .unsupportedURL, .bodyNotSendableOverTCP, .certificateNotTrusted, .clientCertificateRequired, .proxyTLS:
            false  // the TLS handshake ends before the server's HTTP side sees anything
        case .contentRefused:
            false  // part of the request may have gone, never all of it: no paste was made
        }
    }

    /// Whether this failure, on the page a redirect led to after the body was accepted, leaves
    /// the paste made: a failure of the network, the server, TLS or a proxy, not of the
    /// redirect policy or of reading the content.
    var isPageFailure: Bool {
        switch self {
        case .couldNotResolve, .couldNotConnect, .timedOut, .tls, .sendFailed, .receiveFailed, .certificateNotTrusted,
            .clientCertificateRequired, .badAnswer, .proxyUnreachable, .proxyRefused, .proxyFailed, .proxyTLS, .curl,
            .interrupted:
            true
        case .redirectRefused, .tooManyRedirects, .bodyRedirectRefused, .readFailed, .teeFailed, .unsupportedURL,
            .bodyNotSendableOverTCP, .contentRefused:
            false
        }
    }

    public var message: String {
        switch self {
        case .couldNotResolve(let host, _):
            "cannot resolve host '\(shown: host)'"
        case .couldNotConnect(let url, let detail, _):
            "cannot connect to \(shown: Endpoint(url).authority): \(shown: detail, limit: Self.detailLength)"
        case .timedOut(let url, .connect, _):
            "cannot connect to \(shown: Endpoint(url).authority): timed out"
        case .timedOut(let url, .stalled(let seconds), _):
            "transfer with \(shown: Endpoint(url).authority) stalled: under \(Uploader.stallBytesPerSecond) bytes/s for \(seconds)s"
        case .timedOut(let url, .total(let seconds), _):
            "transfer with \(shown: Endpoint(url).authority) timed out after \(Self.format(seconds))s"
        case .timedOut(let url, .response(let seconds), _):
            "no complete answer from \(shown: Endpoint(url).authority) within \(Self.format(seconds))s "
                + "of sending the text (response-timeout)"
        case .tls(let url, let detail, _):
            "TLS failure with \(shown: Endpoint(url).authority): \(shown: detail, limit: Self.detailLength)"
        case .redirectRefused(let url):
            "refusing redirect to '\(shown: url, limit: Sanitizer.shownURLLength)': only well-formed http and https URLs are followed"
        case .tooManyRedirects(let limit):
            "too many redirects (more than \(limit))"
        case .sendFailed(let url, let detail):
            "cannot send to \(shown: Endpoint(url).authority): \(shown: detail, limit: Self.detailLength)"
        case .receiveFailed(let url, let detail):
            "no usable answer from \(shown: Endpoint(url).authority): \(shown: detail, limit: Self.detailLength)"
        case .readFailed(let path, let code, _):
            "cannot read '\(shownPath: path)': \(code.message)"
        case .teeFailed(let path, let code, _):
            "cannot write the outbox copy '\(shownPath: path)': \(code.message)"
        case .unsupportedURL(let url):
            "unsupported URL '\(shown: url, limit: Sanitizer.shownURLLength)': use http://, https:// or tcp://host:port"
        case .bodyNotSendableOverTCP(let url):
            "cannot send a form to '\(shown: url, limit: Sanitizer.shownURLLength)': tcp services take the raw text"
        case .curl(let error, _):
            "upload failed: \(shown: error.reason, limit: Self.detailLength) (libcurl error \(error.code.rawValue))"
        case .certificateNotTrusted(let url, let detail, _, _), .clientCertificateRequired(let url, let detail):
            "TLS failure with \(shown: Endpoint(url).authority): \(shown: detail, limit: Self.detailLength)"
        case .bodyRedirectRefused(let url, let status):
            "refusing the \(status) redirect to '\(shown: url, limit: Sanitizer.shownURLLength)': it would send the text to another origin"
        case .badAnswer(let url, let detail):
            "unusable answer from \(shown: Endpoint(url).authority): \(shown: detail, limit: Self.detailLength)"
        case .proxyUnreachable(let proxy, let detail, _):
            "cannot connect to proxy \(shown: proxy): \(shown: detail, limit: Self.detailLength)"
        case .proxyRefused(let proxy, let status, _):
            "proxy \(shown: proxy) answered \(status): \(Self.proxyReason(status))"
        case .proxyFailed(let proxy, let detail, _):
            "proxy \(shown: proxy) failed: \(shown: detail, limit: Self.detailLength)"
        case .proxyTLS(let proxy, let detail, _, _):
            "TLS failure with proxy \(shown: proxy): \(shown: detail, limit: Self.detailLength)"
        case .contentRefused(let refusal):
            refusal.message
        case .interrupted(let url, _):
            "the transfer with \(shown: Endpoint(url).authority) was interrupted"
        }
    }

    public var hint: String? {
        switch self {
        case .certificateNotTrusted(_, _, let trust, let source):
            ConnectionPolicy.trustHint(trust, source: source, isProxy: false)
        case .clientCertificateRequired:
            "the server asks for a client certificate: set 'client-cert' and 'client-key' in the service's section"
        case .proxyTLS(_, _, let trust, let source):
            ConnectionPolicy.trustHint(trust, source: source, isProxy: true)
        case .proxyRefused(_, 407, _):
            "give the proxy's credentials in its URL: proxy = http://USER:${env:PROXY_PASSWORD}@HOST:PORT"
        case .contentRefused(let refusal):
            refusal.hint
        default:
            nil
        }
    }

    /// How a proxy's error status reads (RFC 9110 §15).
    static func proxyReason(_ status: Int) -> String {
        switch status {
        case 403: "forbidden"
        case 407: "proxy authentication required"
        case 502: "bad gateway (it could not reach the server)"
        case 503: "service unavailable"
        case 504: "gateway timeout (the server did not answer it)"
        default: "refused"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .couldNotResolve, .couldNotConnect, .timedOut, .sendFailed, .receiveFailed, .proxyUnreachable,
            .proxyFailed:
            .temporaryFailure
        case .proxyRefused(_, let status, _):
            [502, 503, 504].contains(status) ? .temporaryFailure : .unavailable
        case .tls, .redirectRefused, .tooManyRedirects, .certificateNotTrusted, .clientCertificateRequired,
            .bodyRedirectRefused, .badAnswer, .proxyTLS:
            .unavailable
        case .readFailed, .teeFailed:
            .ioError
        case .unsupportedURL, .bodyNotSendableOverTCP:
            .config
        case .curl:
            .internalError
        case .contentRefused(let refusal):
            refusal.exitStatus
        case .interrupted:
            .cancelled
        }
    }

    /// How much of a library's reason (libcurl's error buffer, which may quote the server) a
    /// message shows.
    static let detailLength = 200

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// The `host:port` of a URL, for messages (`127.0.0.1:9`), with the scheme's default port.
struct Endpoint: Equatable {
    var scheme: String
    var host: String
    var port: Int?

    init(_ url: String) {
        let schemeEnd = Endpoint.schemeSeparator(in: url)
        scheme = schemeEnd.map { String(url[..<$0.lowerBound]).lowercased() } ?? ""
        var rest = schemeEnd.map { url[$0.upperBound...] } ?? url[...]
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = String(rest[...close])
            let after = rest[rest.index(after: close)...]
            port = after.hasPrefix(":") ? Int(after.dropFirst()) : nil
        } else if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            port = Int(rest[rest.index(after: colon)...])
        } else {
            host = String(rest)
            port = nil
        }
    }

    /// The port, or the scheme's default.
    var effectivePort: Int? { port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil) }

    /// `host:port`, or just the host when no port is known.
    var authority: String { effectivePort.map { "\(host):\($0)" } ?? host }

    /// The host without IPv6 brackets.
    var bareHost: String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}

extension Endpoint {
    /// Where `://` first is in `url`, found byte by byte: `firstRange(of:)` is
    /// `_StringProcessing`'s, whose generic searcher's metadata is made at its first use, on the
    /// hotkey's path (every redirect's origin is an `Endpoint`).
    static func schemeSeparator(in url: String) -> Range<String.Index>? {
        let bytes = url.utf8
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if bytes[index] == UInt8(ascii: ":") {
                let first = bytes.index(after: index)
                guard first != bytes.endIndex, bytes[first] == UInt8(ascii: "/") else {
                    index = first
                    continue
                }
                let second = bytes.index(after: first)
                if second != bytes.endIndex, bytes[second] == UInt8(ascii: "/") {
                    return index..<bytes.index(after: second)
                }
            }
            index = bytes.index(after: index)
        }
        return nil
    }
}
