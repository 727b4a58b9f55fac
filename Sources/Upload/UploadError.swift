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

    /// Whether any request byte may have reached the server, so that a retry could duplicate
    /// the paste.
    public var mayHaveReachedServer: Bool {
        switch self {
        case .couldNotResolve(_, let sent), .couldNotConnect(_, _, let sent), .timedOut(_, _, let sent),
            .tls(_, _, let sent), .readFailed(_, _, let sent), .teeFailed(_, _, let sent),
            .curl(_, let sent):
            sent
        case .redirectRefused, .tooManyRedirects, .sendFailed, .receiveFailed:
            true  // a first request, or part of this one, went out
        case .unsupportedURL, .bodyNotSendableOverTCP:
            false
        }
    }

    public var message: String {
        switch self {
        case .couldNotResolve(let host, _):
            "cannot resolve host '\(host)'"
        case .couldNotConnect(let url, let detail, _):
            "cannot connect to \(Endpoint(url).authority): \(detail)"
        case .timedOut(let url, .connect, _):
            "cannot connect to \(Endpoint(url).authority): timed out"
        case .timedOut(let url, .stalled(let seconds), _):
            "transfer with \(Endpoint(url).authority) stalled: under \(Uploader.stallBytesPerSecond) bytes/s for \(seconds)s"
        case .timedOut(let url, .total(let seconds), _):
            "transfer with \(Endpoint(url).authority) timed out after \(Self.format(seconds))s"
        case .tls(let url, let detail, _):
            "TLS failure with \(Endpoint(url).authority): \(detail)"
        case .redirectRefused(let url):
            "refusing redirect to '\(Sanitizer.printable(url, limit: 200))': only well-formed http and https URLs are followed"
        case .tooManyRedirects(let limit):
            "too many redirects (more than \(limit))"
        case .sendFailed(let url, let detail):
            "cannot send to \(Endpoint(url).authority): \(detail)"
        case .receiveFailed(let url, let detail):
            "no usable answer from \(Endpoint(url).authority): \(detail)"
        case .readFailed(let path, let code, _):
            "cannot read '\(path)': \(code.message)"
        case .teeFailed(let path, let code, _):
            "cannot write the outbox copy '\(path)': \(code.message)"
        case .unsupportedURL(let url):
            "unsupported URL '\(url)': use http://, https:// or tcp://host:port"
        case .bodyNotSendableOverTCP(let url):
            "cannot send a form to '\(url)': tcp services take the raw text"
        case .curl(let error, _):
            "upload failed: \(error.reason) (libcurl error \(error.code.rawValue))"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .couldNotResolve, .couldNotConnect, .timedOut, .sendFailed, .receiveFailed:
            .temporaryFailure
        case .tls, .redirectRefused, .tooManyRedirects:
            .unavailable
        case .readFailed, .teeFailed:
            .ioError
        case .unsupportedURL, .bodyNotSendableOverTCP:
            .config
        case .curl:
            .internalError
        }
    }

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
        let schemeEnd = url.firstRange(of: "://")
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
