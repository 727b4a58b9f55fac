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
    /// `CURLOPT_FOLLOWLOCATION`: follow redirects.
    public static let followLocation = LongOption(CURLOPT_FOLLOWLOCATION)
    /// `CURLOPT_MAXREDIRS`: the most redirects followed.
    public static let maximumRedirects = LongOption(CURLOPT_MAXREDIRS)
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
    /// `CURLOPT_CONNECT_ONLY`: connect, then stop (for raw TCP exchanges).
    public static let connectOnly = LongOption(CURLOPT_CONNECT_ONLY)
    /// `CURLOPT_POSTREDIR`: which redirects keep a POST a POST (default 0: 301/302/303 become GET).
    public static let postRedirect = LongOption(CURLOPT_POSTREDIR)
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
    /// `CURLOPT_REDIR_PROTOCOLS_STR`: the schemes a redirect may lead to.
    public static let redirectProtocols = StringOption(CURLOPT_REDIR_PROTOCOLS_STR)
}
