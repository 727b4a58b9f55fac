import FoundationEssentials
import PasteCore

/// A paste in the outbox: its content file and its metadata file.
///
/// An entry named `N` is the pair `N.content` (the bytes, exactly as they would be uploaded:
/// text or binary, never transformed) and `N.json` (`Metadata`). Names are the creation time in
/// milliseconds since 1970, thirteen digits, then a four-digit sequence number
/// (`1738324800000-0000`), so sorting names sorts by creation. The person names an entry by its
/// `id`, seven hexadecimal digits derived from the name (or any unique start of them).
///
/// The metadata says where the paste was going and with which options, what `state` the entry is
/// in, and how long the content is once it is whole (`byteCount`): a content of exactly that
/// length is whole, anything else is a stream cut short (see `Outbox` for the whole protocol).
public struct OutboxEntry: Sendable, Equatable {
    /// Where an entry stands.
    ///
    /// | state | meaning | `paste --retry` |
    /// |---|---|---|
    /// | `writing` | the content is being written; nothing was sent yet | skips it |
    /// | `in-flight` | the request may be under way (marked before sending) | skips it |
    /// | `retryable` | nothing reached the server, or it refused before accepting | sends it when due |
    /// | `held` | the server may have made the paste, or attempts ran out | only `--outbox send ID` |
    ///
    /// An entry `writing` or `in-flight` whose run died (no lock on its content) is settled by
    /// the next recovery pass: `in-flight` and whole becomes `held`; `writing` and whole (its
    /// length was known beforehand) becomes `retryable`; not whole, it is removed.
    public enum State: String, Codable, Sendable, CaseIterable {
        /// The content is being written and nothing was sent yet.
        case writing
        /// The request may be under way: a run that dies now leaves an entry the server may
        /// already have made.
        case inFlight = "in-flight"
        /// Safe to send again: nothing reached the server, or it refused before accepting.
        case retryable
        /// The server may already have made it, or it failed `retry-max-attempts` times: sent
        /// only when the person says so.
        case held
    }

    /// What the outbox knows about a waiting paste: where it was going, with which options, and
    /// how its attempts went.
    public struct Metadata: Codable, Sendable, Equatable {
        /// The service's name from the config (or `url` for an ad-hoc endpoint).
        public var service: String
        /// The endpoint of an ad-hoc `--url` upload; nil for a named service.
        public var serviceURL: String?
        /// `-t TITLE`.
        public var title: String?
        /// `-l LANG`.
        public var language: String?
        /// `-p`.
        public var isPrivate: Bool
        /// `-e DURATION`, as given.
        public var expiry: String?
        /// `--burn`; absent (nil) when not asked, as in entries written before it existed.
        public var burnsAfterReading: Bool?
        /// The file name of `-f FILE`, for services that send one.
        public var fileName: String?
        /// The content's MIME type (`image/png`) when it is not plain text; nil for text.
        public var contentType: String?
        /// When the entry was made.
        public var created: Date
        /// Where the entry stands; nil in entries written before states existed, which are
        /// read as `retryable`.
        public var state: State?
        /// The length of the whole content, once it is known: given when the entry is made
        /// with its content, or recorded when a stream ends. Nil while a stream is still being
        /// written (and in entries written before it existed, whose content is taken as it is).
        public var byteCount: Int64?
        /// The content's SHA-256 (lower-case hexadecimal), when the writer knew it.
        public var sha256: String?
        /// How many uploads of it have failed.
        public var attempts: Int
        /// The last failure's message, sanitized (`OutboxFailure.describe`).
        public var lastError: String?
        /// When the last attempt failed.
        public var lastAttempt: Date?
        /// When `paste --retry` may send it next (backoff between runs); nil: at once.
        public var nextAttempt: Date?
        /// The URL of the paste this entry's content already made, when the history could not
        /// record it (issue 45, item 4): the entry is then held and keeps the link, so no paste
        /// is made that nothing records. Nil for an entry not pasted yet.
        public var pastedURL: String?
        /// How that paste is deleted (a token or a link, as the history keeps it), when the
        /// service said and the history could not record it.
        public var pastedDeletion: String?
        /// The living paste (`paste --update NAME`) this text is for; nil for any other paste.
        public var living: String?
        /// Whether it makes that living paste (`create`) or replaces its content (`update`):
        /// pending updates of one name collapse to the newest, creates never.
        public var livingAction: LivingAction?
        /// The secrets `--redact` masked in the content (and its title), by kind and place,
        /// never a value: the history line of a `--retry` that sends it says so as a fresh
        /// paste's does. Nil when nothing was masked.
        public var redacted: [HistoryRecord.Redacted]?
        /// Whether masking was asked for this text (issue 42, item 3): `--redact` on the run that
        /// wrote it or on a `--retry` that sent it since, or the person's answer "Upload with
        /// secrets masked" at a hotkey. A `--retry` that sends it then masks what the guard
        /// finds in its text, and the values that go with it (its service's literal fields, a
        /// fallback's, the title, the language) on every service, as that run would have;
        /// false: its text is refused where the guard finds anything, and the config's `redact`
        /// keys decide for its values, as they stand when it is sent. Nil in entries written
        /// before it existed: their values are refused, never masked.
        public var isMaskingRequested: Bool?

        /// What a living paste's entry does.
        public enum LivingAction: String, Codable, Sendable {
            case create
            case update
        }

        /// Makes metadata for a new entry (no attempts yet).
        public init(
            service: String, serviceURL: String? = nil, title: String? = nil,
            language: String? = nil, isPrivate: Bool = false, expiry: String? = nil,
            fileName: String? = nil, created: Date, attempts: Int = 0, lastError: String? = nil,
            lastAttempt: Date? = nil, burnsAfterReading: Bool? = nil, contentType: String? = nil
        ) {
            self.service = service
            self.serviceURL = serviceURL
            self.title = title
            self.language = language
            self.isPrivate = isPrivate
            self.expiry = expiry
            self.fileName = fileName
            self.created = created
            self.attempts = attempts
            self.lastError = lastError
            self.lastAttempt = lastAttempt
            self.burnsAfterReading = burnsAfterReading
            self.contentType = contentType
        }

        enum CodingKeys: String, CodingKey {
            case service
            case serviceURL = "service_url"
            case title
            case language = "lang"
            case isPrivate = "private"
            case expiry
            case burnsAfterReading = "burn"
            case fileName = "file_name"
            case contentType = "type"
            case created, state
            case byteCount = "bytes"
            case sha256
            case attempts
            case lastError = "last_error"
            case lastAttempt = "last_attempt"
            case nextAttempt = "next_attempt"
            case pastedURL = "pasted_url"
            case pastedDeletion = "pasted_delete"
            case living
            case livingAction = "living_action"
            case redacted
            case isMaskingRequested = "redact"
        }

        /// The state, entries written before states existed being `retryable`.
        public var effectiveState: State { state ?? .retryable }
    }

    /// The entry's name (`1738324800000-0000`); names sort in creation order.
    public var name: String
    /// The file holding the content.
    public var contentPath: String
    /// The file holding the metadata.
    public var metadataPath: String
    /// The metadata as last read or written.
    public var metadata: Metadata

    /// Makes an entry value for the files of `name` in `folder`.
    init(name: String, folder: String, metadata: Metadata) {
        self.name = name
        self.contentPath = folder + "/" + name + OutboxEntry.contentSuffix
        self.metadataPath = folder + "/" + name + OutboxEntry.metadataSuffix
        self.metadata = metadata
    }

    /// The entry's short id: the first seven hexadecimal digits of the SHA-256 of its name.
    ///
    /// Stable (a function of the name alone) and spread evenly, where a start of the name would
    /// be the same for every entry of a day.
    public var id: String { Self.id(ofName: name) }

    /// The id of the entry named `name`.
    static func id(ofName name: String) -> String {
        String(ContentDigest.sha256(Array(name.utf8)).prefix(idLength))
    }

    /// How many hexadecimal digits an id has (as many as git shows of a commit).
    public static let idLength = 7

    /// The metadata a new entry's content is written under before it is renamed into place
    /// (`Outbox.create(_:content:)`): `.N.json.tmp-pending`, a temporary file that a recovery
    /// pass adopts when the content beside it is whole.
    var pendingMetadataPath: String {
        AtomicFile.temporaryPath(for: metadataPath, tag: OutboxEntry.pendingTag)
    }

    /// The metadata of an entry whose content is still being read (`Outbox.createReading`):
    /// `.N.json.tmp-reading`, renamed to `pendingMetadataPath` the moment the read ends.
    var readingMetadataPath: String {
        AtomicFile.temporaryPath(for: metadataPath, tag: OutboxEntry.readingTag)
    }

    static let contentSuffix = ".content"
    static let metadataSuffix = ".json"
    /// The tag of `pendingMetadataPath`.
    static let pendingTag = "pending"
    /// The tag of `readingMetadataPath`.
    static let readingTag = "reading"
}

extension OutboxEntry.Metadata {
    /// Whether an entry's content is whole: exactly the length recorded (`byteCount`); an entry
    /// written before lengths were recorded (no `byteCount`) is whole once it left `writing` (no
    /// `state` either), whatever is there. `contentSize` (nil: not a regular file) is asked for
    /// only when a length was recorded. The one rule the listing, a claim and the hotkey's look
    /// share.
    static func isWhole<Failure: Error>(
        byteCount: Int64?, state: OutboxEntry.State?, contentSize: () throws(Failure) -> Int64?
    ) throws(Failure) -> Bool {
        guard let byteCount else { return state == nil }
        return try contentSize() == byteCount
    }
}
