internal import CCurlShims

/// What libcurl knows about a transfer after (or during) it, copied out of the handle.
public struct TransferInfo: Sendable, Equatable {
    /// The last HTTP status (`CURLINFO_RESPONSE_CODE`), 0 when none arrived.
    public var responseCode: Int
    /// The last URL used (`CURLINFO_EFFECTIVE_URL`).
    public var effectiveURL: String
    /// Redirects followed (`CURLINFO_REDIRECT_COUNT`).
    public var redirectCount: Int
    /// Where the last answer's redirect points (`CURLINFO_REDIRECT_URL`), if anywhere.
    public var redirectURL: String?
    /// Request body bytes sent (`CURLINFO_SIZE_UPLOAD_T`).
    public var bodyBytesSent: Int64
    /// The request body's length as declared to libcurl (`CURLINFO_CONTENT_LENGTH_UPLOAD_T`):
    /// -1 when it is not known (a chunked stream).
    public var bodyLength: Int64
    /// Request header bytes sent (`CURLINFO_REQUEST_SIZE`); > 0 once a request went out.
    public var headerBytesSent: Int
    /// Seconds until the TCP connection was made (`CURLINFO_CONNECT_TIME_T`), 0 if never.
    public var connectSeconds: Double
    /// Seconds the transfer took (`CURLINFO_TOTAL_TIME_T`).
    public var totalSeconds: Double
    /// The errno of the last failed connect or socket call (`CURLINFO_OS_ERRNO`).
    public var osErrno: Int32
    /// New connections this transfer made (`CURLINFO_NUM_CONNECTS`); 0 when it reused one.
    public var newConnections: Int
    /// The IP address connected to (`CURLINFO_PRIMARY_IP`).
    public var primaryIP: String
    /// The status a proxy answered a CONNECT with (`CURLINFO_HTTP_CONNECTCODE`), 0 when no
    /// tunnel was asked for.
    public var connectCode: Int
    /// What a SOCKS proxy said about the server it was asked to reach
    /// (`CURLINFO_PROXY_ERROR`), when it said the server itself could not be reached or named:
    /// the proxy works, and the server behind it is down.
    public var proxyTargetFailure: ProxyTargetFailure?
}

/// A SOCKS proxy's answer that the server behind it is down (libcurl's `CURLPX_REPLY_*`),
/// as opposed to a proxy that fails by itself.
public enum ProxyTargetFailure: Sendable, Equatable {
    /// The server refused the proxy's connection (SOCKS5 reply 5).
    case refused
    /// No route to the server or its network, or the connection's time ran out (replies 3, 4, 6).
    case unreachable
    /// The server's name could not be resolved here, for a proxy that takes addresses
    /// (`socks5://`, `socks4://`).
    case unresolved

    init?(code: Int) {
        switch code {
        case Int(CURLPX_REPLY_CONNECTION_REFUSED.rawValue): self = .refused
        case Int(CURLPX_REPLY_HOST_UNREACHABLE.rawValue), Int(CURLPX_REPLY_NETWORK_UNREACHABLE.rawValue),
            Int(CURLPX_REPLY_TTL_EXPIRED.rawValue):
            self = .unreachable
        case Int(CURLPX_RESOLVE_HOST.rawValue): self = .unresolved
        default: return nil
        }
    }

    /// The words for it, as errno would say them.
    public var reason: String {
        switch self {
        case .refused: "Connection refused"
        case .unreachable: "No route to host"
        case .unresolved: "cannot resolve it"
        }
    }
}

extension EasyHandle {
    /// A snapshot of the transfer's counters. Wraps `curl_easy_getinfo`.
    public var info: TransferInfo {
        TransferInfo(
            responseCode: long(CURLINFO_RESPONSE_CODE),
            effectiveURL: string(CURLINFO_EFFECTIVE_URL) ?? "",
            redirectCount: long(CURLINFO_REDIRECT_COUNT),
            redirectURL: string(CURLINFO_REDIRECT_URL),
            bodyBytesSent: offset(CURLINFO_SIZE_UPLOAD_T),
            bodyLength: offset(CURLINFO_CONTENT_LENGTH_UPLOAD_T),
            headerBytesSent: long(CURLINFO_REQUEST_SIZE),
            connectSeconds: Double(offset(CURLINFO_CONNECT_TIME_T)) / 1e6,
            totalSeconds: Double(offset(CURLINFO_TOTAL_TIME_T)) / 1e6,
            osErrno: Int32(truncatingIfNeeded: long(CURLINFO_OS_ERRNO)),
            newConnections: long(CURLINFO_NUM_CONNECTS),
            primaryIP: string(CURLINFO_PRIMARY_IP) ?? "",
            connectCode: long(CURLINFO_HTTP_CONNECTCODE),
            proxyTargetFailure: ProxyTargetFailure(code: long(CURLINFO_PROXY_ERROR)))
    }

    private func long(_ item: CURLINFO) -> Int {
        var value = 0
        _ = ccurl_easy_getinfo_long(raw, item, &value)
        return value
    }

    private func offset(_ item: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        _ = ccurl_easy_getinfo_off_t(raw, item, &value)
        return Int64(value)
    }

    private func string(_ item: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard ccurl_easy_getinfo_string(raw, item, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}
