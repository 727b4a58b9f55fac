internal import CCurlShims

/// An easy-handle option taking a number or a flag (CURLOPTTYPE_LONG).
public struct LongOption: Sendable {
    let rawValue: UInt32
    init(_ option: CURLoption) { rawValue = option.rawValue }

    /// `CURLOPT_NOSIGNAL`: never use signals (timeouts, DNS); required in threaded programs.
    public static let noSignal = LongOption(CURLOPT_NOSIGNAL)
    /// `CURLOPT_POST`: send a POST.
    public static let post = LongOption(CURLOPT_POST)
    /// `CURLOPT_UPLOAD`: send the body as a PUT.
    public static let upload = LongOption(CURLOPT_UPLOAD)
    /// `CURLOPT_HTTPGET`: the next request is a GET (it resets CURLOPT_POST, CURLOPT_UPLOAD and
    /// CURLOPT_NOBODY); used when a redirect turns an upload into a GET of the new page.
    public static let httpGet = LongOption(CURLOPT_HTTPGET)
    /// `CURLOPT_CONNECTTIMEOUT_MS`.
    public static let connectTimeoutMilliseconds = LongOption(CURLOPT_CONNECTTIMEOUT_MS)
    /// `CURLOPT_TIMEOUT_MS`: the whole transfer.
    public static let timeoutMilliseconds = LongOption(CURLOPT_TIMEOUT_MS)
    /// `CURLOPT_LOW_SPEED_LIMIT`: bytes per second below which the transfer is "too slow".
    public static let lowSpeedLimit = LongOption(CURLOPT_LOW_SPEED_LIMIT)
    /// `CURLOPT_LOW_SPEED_TIME`: seconds "too slow" is tolerated before aborting.
    public static let lowSpeedTime = LongOption(CURLOPT_LOW_SPEED_TIME)
    /// `CURLOPT_SSL_VERIFYPEER`.
    public static let verifyPeer = LongOption(CURLOPT_SSL_VERIFYPEER)
    /// `CURLOPT_SSL_VERIFYHOST` (2 = check the name, 0 = do not).
    public static let verifyHost = LongOption(CURLOPT_SSL_VERIFYHOST)
    /// `CURLOPT_HTTPPROXYTUNNEL`: reach the server through an HTTP proxy's CONNECT tunnel.
    public static let proxyTunnel = LongOption(CURLOPT_HTTPPROXYTUNNEL)
    /// `CURLOPT_CONNECT_ONLY`: connect, then stop (for raw TCP exchanges).
    public static let connectOnly = LongOption(CURLOPT_CONNECT_ONLY)
    /// `CURLOPT_UPLOAD_BUFFERSIZE`: bytes asked of the read callback at a time (64 KiB by default,
    /// 2 MiB at most).
    public static let uploadBufferSize = LongOption(CURLOPT_UPLOAD_BUFFERSIZE)
}

/// An easy-handle option taking a size (CURLOPTTYPE_OFF_T).
public struct SizeOption: Sendable {
    let rawValue: UInt32
    init(_ option: CURLoption) { rawValue = option.rawValue }

    /// `CURLOPT_POSTFIELDSIZE_LARGE`: the POST body's length; -1 = unknown (chunked).
    public static let postBodySize = SizeOption(CURLOPT_POSTFIELDSIZE_LARGE)
    /// `CURLOPT_INFILESIZE_LARGE`: the PUT body's length; -1 = unknown (chunked).
    public static let uploadSize = SizeOption(CURLOPT_INFILESIZE_LARGE)
}

/// An easy-handle option taking text (CURLOPTTYPE_STRINGPOINT); libcurl copies the text.
public struct StringOption: Sendable {
    let rawValue: UInt32
    init(_ option: CURLoption) { rawValue = option.rawValue }

    /// `CURLOPT_URL`.
    public static let url = StringOption(CURLOPT_URL)
    /// `CURLOPT_CUSTOMREQUEST`: the method word, when it is not the one POST/UPLOAD imply.
    public static let customRequest = StringOption(CURLOPT_CUSTOMREQUEST)
    /// `CURLOPT_USERAGENT`.
    public static let userAgent = StringOption(CURLOPT_USERAGENT)
    /// `CURLOPT_PROTOCOLS_STR`: the schemes a transfer may use at all (`"http,https"`).
    public static let protocols = StringOption(CURLOPT_PROTOCOLS_STR)
    /// `CURLOPT_CAINFO`: the file of CA certificates that verify servers (libcurl's default is
    /// the bundle it was built with, Debian's /etc/ssl/certs/ca-certificates.crt).
    public static let caFile = StringOption(CURLOPT_CAINFO)
    /// `CURLOPT_CAPATH`: a folder of hashed CA certificates (`openssl rehash`) that verify
    /// servers (Debian's default: /etc/ssl/certs).
    public static let caFolder = StringOption(CURLOPT_CAPATH)
    /// `CURLOPT_PROXY_CAINFO`: as `caFile`, for an https:// proxy's own certificate.
    public static let proxyCAFile = StringOption(CURLOPT_PROXY_CAINFO)
    /// `CURLOPT_PROXY_CAPATH`: as `caFolder`, for an https:// proxy's own certificate.
    public static let proxyCAFolder = StringOption(CURLOPT_PROXY_CAPATH)
    /// `CURLOPT_PINNEDPUBLICKEY`: `sha256//BASE64[;sha256//…]` or a public key file; the
    /// server's key must be one of them.
    public static let pinnedPublicKey = StringOption(CURLOPT_PINNEDPUBLICKEY)
    /// `CURLOPT_SSLCERT`: the client certificate (PEM) shown when a server asks for one.
    public static let clientCertificate = StringOption(CURLOPT_SSLCERT)
    /// `CURLOPT_SSLKEY`: the client certificate's private key (PEM); unset, libcurl looks for it
    /// in the certificate file.
    public static let clientKey = StringOption(CURLOPT_SSLKEY)
    /// `CURLOPT_PROXY`: `scheme://[user:password@]host:port`, or "" for a direct connection
    /// (which also stops libcurl reading the proxy environment variables itself).
    public static let proxy = StringOption(CURLOPT_PROXY)
}
