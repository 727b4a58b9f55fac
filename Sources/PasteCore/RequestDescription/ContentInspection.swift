import SystemInterop

/// What a request's content must be, checked byte by byte: in memory before the request is
/// built, and for content read as it is sent (a large file, piped stdin) by a
/// `ContentInspection` on its way to libcurl.
public struct ContentChecks: Sendable, Hashable {
    /// Refuse a NUL byte: the content is text, and binary data is not pasted. Off for a file
    /// sent as a file (an image to a service that accepts files).
    public var refusesBinary: Bool
    /// Refuse bytes that are not UTF-8, naming this format, which carries text only as UTF-8;
    /// nil when the bytes go as they are.
    public var utf8Format: RequestFormat?

    /// Refuse a secret (the secret guard, `SecretScanner`): set by PasteCLI for text piped to
    /// stdin and streamed, unless `--force`. The guard scans the start it holds in memory before
    /// anything is sent; this scans the whole stream as it goes, so a key at any offset stops
    /// the request before it is complete.
    public var scansSecrets: Bool
    /// How many bytes at the start of the content the guard already scanned whole, and found
    /// clean (`SecretScanner.init(alreadyScanned:)`): the stream's scan only looks again at
    /// what their end cut short.
    public var secretsScannedUpFront: Int64
    /// How refusals name the content where its path does not say what it is: stdin held whole
    /// in the outbox, or the masked copy of a large text, both read by their descriptor
    /// (`/proc/self/fd/N`), are `stdin` to the person. Nil: `ContentSource.name`.
    public var contentName: String?

    /// Makes checks.
    public init(
        refusesBinary: Bool = false, utf8Format: RequestFormat? = nil, scansSecrets: Bool = false,
        secretsScannedUpFront: Int64 = 0, contentName: String? = nil
    ) {
        self.refusesBinary = refusesBinary
        self.utf8Format = utf8Format
        self.scansSecrets = scansSecrets
        self.secretsScannedUpFront = secretsScannedUpFront
        self.contentName = contentName
    }

    /// Nothing checked.
    public static let none = ContentChecks()

    /// The checks for text sent in `format`: no NUL, and UTF-8 where the format needs it; the
    /// content named `contentName` in refusals, when given.
    public static func text(in format: RequestFormat, naming contentName: String? = nil) -> ContentChecks {
        ContentChecks(refusesBinary: true, utf8Format: format.needsUTF8 ? format : nil, contentName: contentName)
    }

    /// What refusals call `content`: `contentName`, else the content's own name.
    public func name(of content: ContentSource) -> String { contentName ?? content.name }
}

extension RequestFormat {
    /// Whether the format carries text only as UTF-8: a form's percent-encoding, a JSON string,
    /// XML text, text in the URL and PrivateBin's JSON paste hold Unicode text, not bytes.
    /// Multipart, raw and tcp bodies carry the bytes as they are.
    public var needsUTF8: Bool {
        switch self {
        case .form, .json, .xml, .noBody, .privatebin: true
        case .multipart, .raw, .tcp: false
        }
    }
}

/// Content refused because of what it holds: binary data, or text that is not UTF-8 where the
/// format needs UTF-8 (nothing that can be retried: not kept in the outbox); or a secret the
/// guard saw as the text streamed (kept in the outbox, held, for the person to decide).
public enum InspectionRefusal: PasteError, Equatable, Sendable {
    /// A NUL byte at `offset` (0-based, from the start of the content).
    case binary(source: String, offset: Int64)
    /// Bytes that are not UTF-8 from `offset` (the start of the bad sequence), for a format that
    /// needs UTF-8.
    case notUTF8(source: String, offset: Int64, format: RequestFormat)
    /// What looks like a secret of kind `pattern`, starting at byte `offset` (0-based) on `line`
    /// (from 1), seen by the secret guard as the content streamed (never the secret itself).
    case secret(source: String, pattern: SecretPattern, offset: Int64, line: Int)

    /// Whether the text is still worth keeping: a secret may be sent once the person says so
    /// (`--force`); binary data and text that is not UTF-8 can never go to that service.
    public var keepsText: Bool {
        if case .secret = self { return true }
        return false
    }

    public var message: String {
        switch self {
        case .binary(let source, let offset):
            "\(shownPath: source) looks like binary data (a NUL byte at byte offset \(offset)); only text is pasted"
        case .notUTF8(let source, let offset, let format):
            "\(shownPath: source) is not UTF-8 (byte offset \(offset)), and format = \(format.rawValue) "
                + "sends only UTF-8 text; nothing was pasted"
        case .secret(let source, let pattern, let offset, let line):
            "refusing to upload \(shownPath: source): it looks like it holds \(pattern.nameWithArticle) "
                + "(line \(line), byte offset \(offset)); the upload was stopped, nothing was pasted"
        }
    }

    public var hint: String? {
        switch self {
        case .binary, .secret: nil
        case .notUTF8: "convert it (iconv -t UTF-8), or use a service whose format is multipart or raw"
        }
    }

    public var exitStatus: ExitStatus {
        if case .secret = self { return .refused }
        return .badInput
    }
}

/// Looks at content chunk by chunk, in order, and may refuse it.
///
/// The unit `ContentInspection` runs; each keeps its own state across chunks (a UTF-8 sequence
/// split between two chunks, a secret pattern half seen).
public protocol ContentInspector {
    /// Looks at the next chunk; `offset` is where it starts in the content. Nil accepts it.
    mutating func inspect(_ chunk: Span<UInt8>, at offset: Int64) -> InspectionRefusal?
    /// The content ended after `length` bytes. Nil accepts it.
    mutating func finish(at length: Int64) -> InspectionRefusal?
    /// This inspector's refusal made final once the transfer is over, with what is at hand only
    /// then (the secret guard's line, counted from a stream's outbox copy); by default as it is.
    func settle(_ refusal: InspectionRefusal) -> InspectionRefusal
    /// Takes on the NUL check, before the first chunk: from then on it refuses a NUL byte
    /// (`.binary`, at its offset) before anything else it would refuse, on its own pass over the
    /// bytes. False, the default, when it cannot: then a NUL inspector runs before it.
    mutating func refusesNULs() -> Bool
}

extension ContentInspector {
    public func settle(_ refusal: InspectionRefusal) -> InspectionRefusal { refusal }
    public mutating func refusesNULs() -> Bool { false }
}

/// Runs a list of inspectors over content as it streams and remembers the first refusal.
///
/// The stream-inspection hook: Upload wraps one in a CurlInterop `BodyInspector` for each
/// request whose content is read as it is sent, so every chunk is inspected before libcurl has
/// it and a refusal aborts the transfer before the request is complete. `check(_:)` runs the
/// same inspectors over content already in memory. Not thread-safe: one transfer, one thread.
public final class ContentInspection {
    private var inspectors: [any ContentInspector]
    private let makeInspectors: () -> [any ContentInspector]
    /// Content bytes inspected so far.
    public private(set) var offset: Int64 = 0
    /// Why the content was refused, once it was (settled by `settleRefusal()`).
    public private(set) var refusal: InspectionRefusal?
    /// The inspector that refused, until its refusal was settled.
    private var refusing: Int?

    /// An inspection running `checks`, naming the content `source` in its refusals.
    ///
    /// - Parameter secrets: makes the secret guard's inspector (SecretGuard's `SecretInspector`)
    ///   for `checks.scansSecrets`, from the source's name and how many bytes at its start were
    ///   already scanned: PasteCore does not know the scanner, its callers pass it in.
    public convenience init(
        _ checks: ContentChecks, source: String,
        secrets: ((_ source: String, _ alreadyScanned: Int64) -> any ContentInspector)? = nil
    ) {
        self.init { Self.inspectors(for: checks, source: source, secrets: secrets) }
    }

    /// An inspection running the inspectors `make` returns (again, from scratch, on `restart`).
    public init(_ make: @escaping () -> [any ContentInspector]) {
        makeInspectors = make
        inspectors = make()
    }

    /// The inspectors for `checks`.
    static func inspectors(
        for checks: ContentChecks, source: String,
        secrets: ((_ source: String, _ alreadyScanned: Int64) -> any ContentInspector)?
    ) -> [any ContentInspector] {
        var list: [any ContentInspector] = []
        var secretInspector: (any ContentInspector)?
        if checks.scansSecrets {
            guard let secrets else { preconditionFailure("scansSecrets needs the secret guard's inspector") }
            secretInspector = secrets(source, checks.secretsScannedUpFront)
        }
        // The secret guard reads every byte anyway: where no other check comes between them (no
        // UTF-8 check), it refuses a NUL too, in the same order, without a pass of its own
        // (PERF(stream): that `memchr` was 0.05 s of CPU a GiB piped).
        let guardRefusesNULs =
            checks.refusesBinary && checks.utf8Format == nil && secretInspector?.refusesNULs() == true
        if checks.refusesBinary && !guardRefusesNULs { list.append(NULInspector(source: source)) }
        if let format = checks.utf8Format { list.append(UTF8Inspector(source: source, format: format)) }
        if let secretInspector { list.append(secretInspector) }
        return list
    }

    /// Whether there is anything to run.
    public var isEmpty: Bool { inspectors.isEmpty }

    /// Inspects the next chunk; false once the content is refused (`refusal` says why).
    public func inspect(_ chunk: Span<UInt8>) -> Bool {
        guard refusal == nil else { return false }
        for index in inspectors.indices {
            if let refused = inspectors[index].inspect(chunk, at: offset) {
                refusal = refused
                refusing = index
                return false
            }
        }
        offset += Int64(chunk.count)
        return true
    }

    /// The content ended; false when it is refused.
    public func finish() -> Bool {
        guard refusal == nil else { return false }
        for index in inspectors.indices {
            if let refused = inspectors[index].finish(at: offset) {
                refusal = refused
                refusing = index
                return false
            }
        }
        return true
    }

    /// Makes the refusal final (`ContentInspector.settle(_:)`), once the transfer is over: what
    /// the refusing inspector needs (a stream's outbox copy) is at hand only then. Once; later
    /// calls change nothing.
    public func settleRefusal() {
        guard let index = refusing, let refusal else { return }
        self.refusal = inspectors[index].settle(refusal)
        refusing = nil
    }

    /// Starts over: the content will be read again from its start.
    public func restart() {
        inspectors = makeInspectors()
        offset = 0
        refusal = nil
        refusing = nil
    }

    /// Runs `checks` over content in memory.
    ///
    /// - Throws: the `InspectionRefusal` of the first inspector that refuses.
    public static func check(_ bytes: [UInt8], _ checks: ContentChecks, source: String) throws(InspectionRefusal) {
        let inspection = ContentInspection(checks, source: source)
        guard !inspection.isEmpty else { return }
        if !inspection.inspect(bytes.span) || !inspection.finish() {
            inspection.settleRefusal()
            throw inspection.refusal!
        }
    }
}

/// Refuses content holding a NUL byte (binary data), naming its offset. Uses `memchr`.
struct NULInspector: ContentInspector {
    var source: String

    mutating func inspect(_ chunk: Span<UInt8>, at offset: Int64) -> InspectionRefusal? {
        Memory.firstIndex(of: 0, in: chunk).map { .binary(source: source, offset: offset + Int64($0)) }
    }

    mutating func finish(at length: Int64) -> InspectionRefusal? { nil }
}

/// Refuses content that is not UTF-8, across chunk boundaries, naming the offset where the bad
/// sequence starts.
struct UTF8Inspector: ContentInspector {
    var source: String
    var format: RequestFormat
    var validator = UTF8Validator()

    mutating func inspect(_ chunk: Span<UInt8>, at offset: Int64) -> InspectionRefusal? {
        validator.validate(chunk, at: offset).map { .notUTF8(source: source, offset: $0, format: format) }
    }

    mutating func finish(at length: Int64) -> InspectionRefusal? {
        validator.finish().map { .notUTF8(source: source, offset: $0, format: format) }
    }
}
