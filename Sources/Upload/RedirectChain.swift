import PasteCore

/// The requests of one upload, from the first to where its redirects end.
///
/// paste follows redirects itself, one request at a time on the same easy handle (so on the
/// same connection when the server allows), instead of libcurl's CURLOPT_FOLLOWLOCATION: that
/// way each request carries only what its origin may see. The rules, curl's wherever they are
/// not about credentials (lib/transfer.c, `Curl_follow`):
/// - Redirects are followed only when the result is the final URL (`result = redirect`): any
///   3xx answer with a non-empty `Location`, at most `limit` times, only to http and https URLs
///   without control characters.
/// - 303 turns any request into a GET; 301 and 302 turn a POST into a GET (what browsers do,
///   RFC 9110 §15.4.2-3): the body was accepted and is not sent again. Any other redirect
///   (307, 308, a PUT's 301 or 302) asks for the same request again, body and all.
/// - The configured headers (credentials, cookies), the client certificate and the pinned key
///   belong to the origin (scheme, host, port) of the service's URL: a request to another
///   origin goes without them, and a redirect that would send the body to another origin is
///   refused.
/// - An answer reached through a redirect is read only up to `pageAllowance` bytes: a pastie
///   service's page holds the whole paste again, and only its URL is wanted.
struct RedirectChain {
    /// One request of the chain.
    struct Hop: Equatable {
        /// Where it goes.
        var url: String
        /// 0 for the request as built, then 1, 2, … for each redirect followed.
        var number: Int
        /// Whether it carries the body (false: a GET without one).
        var sendsBody: Bool
        /// Whether it goes to the service's own origin, which alone gets the credentials.
        var isAtHome: Bool
        /// How much of its answer's body is read (nil: all).
        var bodyAllowance: Int?
    }

    /// The most of a page reached through a redirect that is read: enough for any answer a
    /// person would read, small enough that a 64 MiB paste is not downloaded again.
    static let pageAllowance = 64 << 10

    /// The service's URL, whose origin alone gets the credentials.
    let serviceURL: String
    /// The most redirects followed.
    let limit: Int
    /// Whether redirects are followed at all.
    let follows: Bool
    /// The method of the request as built.
    let method: String
    /// The request being sent (or last sent).
    private(set) var current: Hop
    /// Whether a 301, 302 or 303 answered a request carrying the body: the body was accepted,
    /// so the paste exists whatever happens to the page the redirects lead to.
    private(set) var bodyAccepted = false

    /// Starts the chain at the request's own URL.
    init(request: UploadRequest, limit: Int) {
        serviceURL = request.url
        self.limit = limit
        follows = request.result.followsRedirects
        method = request.method.uppercased()
        current = Hop(url: request.url, number: 0, sendsBody: method != "GET", isAtHome: true, bodyAllowance: nil)
    }

    /// Redirects followed so far.
    var redirectCount: Int { current.number }

    /// The next request after an answer, or nil when the answer is the last one.
    ///
    /// - Parameters:
    ///   - status: the answer's HTTP status.
    ///   - location: its `Location` header, as sent.
    ///   - target: that location resolved against the request's URL (`CURLINFO_REDIRECT_URL`),
    ///     nil when libcurl could not make a URL of it.
    /// - Throws: `UploadError.redirectRefused` (not http(s), or malformed),
    ///   `.tooManyRedirects`, `.bodyRedirectRefused` (the body would go to another origin).
    mutating func next(status: Int, location: String?, target: String?) throws(UploadError) -> Hop? {
        guard follows, (300...399).contains(status), let location, !location.isEmpty else { return nil }
        if location.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .redirectRefused(url: location)
        }
        guard let target, !target.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw .redirectRefused(url: target ?? location)
        }
        let origin = Origin(target)
        guard origin.scheme == "http" || origin.scheme == "https" else { throw .redirectRefused(url: target) }
        guard current.number < limit else { throw .tooManyRedirects(limit) }
        let becomesGet = status == 303 || ((status == 301 || status == 302) && method == "POST")
        let sendsBody = current.sendsBody && !becomesGet
        // Parsed only once a redirect comes: most uploads never need it.
        let isAtHome = origin == Origin(serviceURL)
        if sendsBody && !isAtHome { throw .bodyRedirectRefused(url: target, status: status) }
        if current.sendsBody && becomesGet { bodyAccepted = true }
        current = Hop(
            url: target, number: current.number + 1, sendsBody: sendsBody, isAtHome: isAtHome,
            bodyAllowance: Self.pageAllowance)
        return current
    }
}

/// A URL's origin (RFC 6454): scheme, host and port, compared without case; the port is the
/// scheme's default when none is written.
struct Origin: Equatable {
    var scheme: String
    var host: String
    var port: Int?

    init(_ url: String) {
        let endpoint = Endpoint(url)
        scheme = endpoint.scheme
        host = endpoint.bareHost.lowercased()
        port = endpoint.effectivePort
    }
}
