/// Where the bytes of a paste come from.
///
/// Clipboard text is already in memory; files and piped stdin are streamed so memory stays flat.
public enum ContentSource: Sendable, Equatable {
    /// Bytes already in memory (clipboard text, a rendered JSON body).
    case bytes([UInt8])
    /// A regular file of known size, streamed with a Content-Length.
    case file(path: String, size: Int64)
    /// An open descriptor of unknown length (piped stdin), streamed chunked after `prefix` (the
    /// start, already read to check it). When `teePath` is set, every byte sent is also appended
    /// to that file as it streams (the outbox copy); with `teeHoldsPrefix`, the file holds the
    /// prefix already (stdin's outbox entry, written as it was read), and the tee continues it
    /// with what follows: no byte is written to the entry twice.
    case stream(fileDescriptor: Int32, prefix: [UInt8], teePath: String?, teeHoldsPrefix: Bool = false)
}

/// One field of a form: a plain value, or the content itself.
public struct FormField: Sendable, Equatable {
    /// What a field holds.
    public enum Value: Sendable, Equatable {
        /// A short text value (`paste[parser]=plaintext`).
        case text(String)
        /// The paste's content, with an optional file name and content type for multipart.
        case content(ContentSource, fileName: String?, contentType: String?)
    }

    /// The field's name (`paste[body]`).
    public var name: String
    /// The field's value.
    public var value: Value

    /// Makes a field.
    public init(name: String, value: Value) {
        self.name = name
        self.value = value
    }
}

/// The body of an HTTP request, independent of libcurl.
public enum RequestBody: Sendable, Equatable {
    /// `multipart/form-data`, one part per field, in order.
    case multipart([FormField])
    /// `application/x-www-form-urlencoded`; values are already final text (content is in memory).
    case form([(name: String, value: String)])
    /// The content itself is the body (`raw` format, `PUT`/`POST` of the text).
    case raw(ContentSource, contentType: String)
    /// A body already rendered in memory (a filled JSON template), with its content type.
    case rendered([UInt8], contentType: String)
    /// A template rendered around content that is escaped as it streams: `prefix`, the content
    /// written by `escaping` chunk by chunk, then `suffix` (a JSON template whose `{content}` is
    /// a large file or a pipe, sent chunked in flat memory).
    case embedded(
        prefix: [UInt8], content: ContentSource, escaping: ContentEscaping, suffix: [UInt8], contentType: String)

    public static func == (lhs: RequestBody, rhs: RequestBody) -> Bool {
        switch (lhs, rhs) {
        case (.multipart(let a), .multipart(let b)): a == b
        case (.form(let a), .form(let b)): a.map { [$0.name, $0.value] } == b.map { [$0.name, $0.value] }
        case (.raw(let a, let t), .raw(let b, let u)): a == b && t == u
        case (.rendered(let a, let t), .rendered(let b, let u)): a == b && t == u
        case (.embedded(let p, let c, let e, let s, let t), .embedded(let q, let d, let f, let r, let u)):
            p == q && c == d && e == f && s == r && t == u
        default: false
        }
    }
}

/// How content is written inside a rendered body.
public enum ContentEscaping: Sendable, Equatable {
    /// The inside of a JSON string (`JSONText.escape`).
    case jsonString
}

/// How the paste's URL is taken from the server's answer.
public enum ResultRule: Sendable, Equatable {
    /// The final URL after following redirects.
    case redirect
    /// The `Location` header of the first answer, without following it.
    case location
    /// The first http(s) URL in the body.
    case body
    /// A string at an RFC 6901 JSON pointer in the body.
    case json(pointer: String)
    /// The first capture group of a regular expression over the body.
    case regex(String)
    /// A template over the answer (`https://host/{json:/key}`); redirects are followed unless
    /// it reads `{location}`.
    case template(Template)

    /// Whether the transfer should follow redirects to produce this result.
    public var followsRedirects: Bool {
        switch self {
        case .redirect: true
        case .template(let template): !template.usesLocation
        default: false
        }
    }
}

/// A complete description of one upload: what to send where, and how to read the answer.
///
/// PasteCore builds it from a service profile and the options; Upload runs it through libcurl
/// (or a plain TCP socket for `tcp://` services).
public struct UploadRequest: Sendable, Equatable {
    /// `http://`, `https://` or `tcp://host:port`.
    public var url: String
    /// `POST` or `PUT`.
    public var method: String
    /// Extra header lines, `Name: value`, secrets already resolved.
    public var headers: [String]
    /// What to send. For `tcp://` services only `.raw` is meaningful.
    public var body: RequestBody
    /// How the URL is read back.
    public var result: ResultRule
    /// How a deletion token or URL is read back, when the service gives one (what can be known
    /// before the answer already filled in).
    public var deletion: Template?
    /// How the server's own error message is read from an answer that is not a success.
    public var errorMessage: Template?
    /// The language guessed from the text (`LanguageGuess`) and sent in the service's language
    /// field, when neither `-l` nor a file name gave one; nil otherwise. Shown by `-n` and
    /// `--json`.
    public var guessedLanguage: String?
    /// How its transfers connect: trust, client certificate, proxies (direct and verified by
    /// the system's store unless set).
    public var connection = ConnectionPolicy()
    /// Appended to the paste's URL once it is read from the answer, never sent: PrivateBin's
    /// `#` and base58 key (or `#-` and the key, for a paste that burns after reading).
    public var linkFragment: String?
    /// What the content must be as it is read and sent (see `ContentChecks`): set by
    /// `RequestBuilder` for text; nothing by default.
    public var contentChecks = ContentChecks.none
    /// The longest the answer may take once the request is sent (the service's
    /// `response-timeout`); nil: the uploader's.
    public var responseTimeout: Duration?

    /// Makes a request description.
    public init(
        url: String, method: String = "POST", headers: [String] = [], body: RequestBody,
        result: ResultRule, deletion: Template? = nil, errorMessage: Template? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.result = result
        self.deletion = deletion
        self.errorMessage = errorMessage
    }

    /// Whether this request goes over a raw TCP connection (termbin/fiche style).
    public var isTCP: Bool { url.hasPrefix("tcp://") }
}

/// What came back from the server, as much as result extraction and error reports need.
public struct UploadResponse: Sendable, Equatable {
    /// The HTTP status of the last answer (0 for TCP).
    public var status: Int
    /// The header lines of the last answer, names as sent.
    public var headers: [(name: String, value: String)]
    /// The URL of the last answer after redirects (the request URL when none were followed).
    public var effectiveURL: String
    /// How many redirects were followed.
    public var redirectCount: Int
    /// The start of the body, bounded (see `UploadResponse.maximumBodyBytes`).
    public var body: [UInt8]
    /// How many bytes of the request body went out.
    public var bytesSent: Int64
    /// Whether the whole request body went out before the answer came (or an earlier request
    /// of its redirect chain carried it). False when the server answered before paste had sent
    /// all of it (libcurl then stops sending): no server makes a paste of a request it never
    /// got to the end of, so a 5xx answered that early is retryable (`RefusedBeforeBody`).
    /// True when it cannot be told (a body written whole into the socket may still be unread).
    public var isBodyTaken = true
    /// Set when the request was accepted with a redirect (301, 302 or 303) but the page it led
    /// to then failed (`answered HTTP 404`, a timeout): the paste exists at `effectiveURL`, whose
    /// page could not be read; this says how it failed. `status` and `headers` are the page's.
    public var unreadPage: String?

    /// The most of a response body kept in memory: enough for any JSON answer or error page.
    public static let maximumBodyBytes = 1 << 20

    /// Makes a response.
    public init(
        status: Int, headers: [(name: String, value: String)] = [], effectiveURL: String,
        redirectCount: Int = 0, body: [UInt8] = [], bytesSent: Int64 = 0, isBodyTaken: Bool = true
    ) {
        self.status = status
        self.headers = headers
        self.effectiveURL = effectiveURL
        self.redirectCount = redirectCount
        self.body = body
        self.bytesSent = bytesSent
        self.isBodyTaken = isBodyTaken
    }

    /// The first header with this name, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public static func == (lhs: UploadResponse, rhs: UploadResponse) -> Bool {
        lhs.status == rhs.status && lhs.effectiveURL == rhs.effectiveURL
            && lhs.redirectCount == rhs.redirectCount && lhs.body == rhs.body
            && lhs.bytesSent == rhs.bytesSent && lhs.unreadPage == rhs.unreadPage
            && lhs.isBodyTaken == rhs.isBodyTaken
            && lhs.headers.map { [$0.name, $0.value] } == rhs.headers.map { [$0.name, $0.value] }
    }
}

extension ContentSource {
    /// How messages name the content: `stdin`, a file's path, or `the text`.
    public var name: String {
        switch self {
        case .bytes: "the text"
        case .file(let path, _): "'\(shownPath: path)'"
        case .stream(let descriptor, _, _, _): descriptor == 0 ? "stdin" : "the input"
        }
    }

    /// Whether the bytes are read as they are sent (a file, a pipe), not held in memory.
    public var isReadAsSent: Bool {
        if case .bytes = self { return false }
        return true
    }

    /// The size when known before sending.
    public var knownSize: Int64? {
        switch self {
        case .bytes(let bytes): Int64(bytes.count)
        case .file(_, let size): size
        case .stream: nil
        }
    }
}

extension RequestFormat {
    /// Whether a body of this format can be streamed from a descriptor.
    public var canStream: Bool { self == .multipart || self == .raw || self == .tcp }

    /// Whether a body of this format can carry a file byte-exact, with its type: a multipart
    /// file part, or a raw body.
    public var canCarryFiles: Bool { self == .multipart || self == .raw }
}
