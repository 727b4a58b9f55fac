import FoundationEssentials
import SystemInterop

/// A paste waiting in the outbox: its content file and its metadata file.
///
/// An entry named `N` is the pair `N.content` (the bytes, exactly as they would be uploaded) and
/// `N.json` (`Metadata`). Names are the creation time in milliseconds since 1970, thirteen digits,
/// then a four-digit sequence number (`1738324800000-0000`), so sorting names sorts by creation.
/// An entry exists for `paste --retry` only once its metadata file does.
public struct OutboxEntry: Sendable, Equatable {
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
        /// When the entry was made.
        public var created: Date
        /// How many uploads of it have failed.
        public var attempts: Int
        /// The last failure's message, as shown to the person.
        public var lastError: String?
        /// When the last attempt failed.
        public var lastAttempt: Date?

        /// Makes metadata for a new entry (no attempts yet).
        public init(
            service: String, serviceURL: String? = nil, title: String? = nil,
            language: String? = nil, isPrivate: Bool = false, expiry: String? = nil,
            fileName: String? = nil, created: Date, attempts: Int = 0, lastError: String? = nil,
            lastAttempt: Date? = nil, burnsAfterReading: Bool? = nil
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
            case created, attempts
            case lastError = "last_error"
            case lastAttempt = "last_attempt"
        }
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

    static let contentSuffix = ".content"
    static let metadataSuffix = ".json"
}

/// An outbox entry being written: content streams into `contentPath`, then `commit()` makes it
/// visible to `paste --retry`.
///
/// The content file exists (empty, 0600) from the start, so a streaming uploader can open it with
/// `O_APPEND` and tee into it. Until `commit()` there is no metadata file, and `--retry` ignores
/// the content: a crash midway leaves only an ignored file. Call `discard()` when the upload
/// worked and the copy is not needed.
public final class OutboxEntryWriter {
    /// The entry as it will be once committed.
    public private(set) var entry: OutboxEntry
    /// The content file to stream into.
    public var contentPath: String { entry.contentPath }
    /// Whether `commit()` or `discard()` has run.
    public private(set) var isFinished = false
    /// The writer's own descriptor on the content file (for `append` and the final `fsync`).
    private let file: FileDescriptor

    init(entry: OutboxEntry, file: consuming FileDescriptor) {
        self.entry = entry
        self.file = file
    }

    /// Appends bytes to the content, for callers that do not stream into `contentPath`
    /// themselves.
    public func append(_ bytes: [UInt8]) throws(StoreError) {
        precondition(!isFinished, "append after commit or discard")
        try StoreError.attempt({ .cannotWrite(path: contentPath, errno: $0) }) { () throws(Errno) in
            try file.writeAll(bytes)
        }
    }

    /// Flushes the content to disk and writes the metadata atomically; the entry is then visible
    /// to `entries()`.
    ///
    /// - Parameter failure: The message of the failed attempt that sends the text to the outbox,
    ///   recorded as the first attempt; nil when it is queued without trying.
    /// - Returns: The committed entry.
    @discardableResult
    public func commit(failure: String? = nil) throws(StoreError) -> OutboxEntry {
        precondition(!isFinished, "commit after commit or discard")
        try StoreError.attempt({ .cannotWrite(path: contentPath, errno: $0) }) { () throws(Errno) in try file.sync() }
        if let failure {
            entry.metadata.attempts += 1
            entry.metadata.lastError = failure
            entry.metadata.lastAttempt = entry.metadata.created
        }
        try AtomicFile.write(Outbox.encode(entry.metadata, path: entry.metadataPath), to: entry.metadataPath)
        isFinished = true
        return entry
    }

    /// Removes the content file: the upload worked and nothing needs to wait.
    public func discard() throws(StoreError) {
        precondition(!isFinished, "discard after commit or discard")
        isFinished = true
        try AtomicFile.remove(entry.contentPath)
    }
}

@available(*, unavailable)
extension OutboxEntryWriter: Sendable {}

/// An outbox entry claimed by one `paste --retry` run: while this value lives, no other run can
/// claim it, so no entry is ever sent twice by two runs at once.
///
/// Holds an exclusive `flock` on the entry's content file (the one file of an entry that is never
/// replaced). Finish with `Outbox.remove(_:)` after a successful upload or `Outbox.markFailed`
/// after a failed one, then let the claim go.
public final class OutboxClaim {
    /// The claimed entry, with its metadata freshly read.
    public let entry: OutboxEntry
    /// The lock on the content file.
    let lock: FileLock

    init(entry: OutboxEntry, lock: FileLock) {
        self.entry = entry
        self.lock = lock
    }

    /// Reads the whole content into memory (the clipboard-sized case; large entries are better
    /// streamed from `entry.contentPath`).
    public func content() throws(StoreError) -> [UInt8] {
        guard let bytes = try AtomicFile.read(entry.contentPath) else {
            throw .cannotOpen(path: entry.contentPath, errno: .noSuchFileOrDirectory)
        }
        return bytes
    }
}

@available(*, unavailable)
extension OutboxClaim: Sendable {}
