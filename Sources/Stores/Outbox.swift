import FoundationEssentials
import PasteCore
import SystemInterop

/// The outbox: a journal of the pastes under way and of those waiting to be sent again.
///
/// Nothing is lost, nothing is sent twice. A run puts the text in the outbox *before* its request
/// starts, marks the entry in flight before sending, and removes it once the URL is recorded; a
/// run that fails records the failure, which settles the entry as `retryable` (nothing reached
/// the server) or `held` (the server may have made the paste). A run killed at any moment leaves
/// an entry that the next recovery pass (`listing()`, run by every listing and `--retry`)
/// settles from what is on disk. The states are `OutboxEntry.State`; what each failure means,
/// `OutboxFailure`; the pacing between runs, `OutboxPolicy`.
///
/// ## The journal protocol
///
/// A run makes its entries through one call, `journal(_:_:)` (a `JournalText`: stdin about to be
/// read, bytes in memory, or a file), which takes the first step below the way its text needs;
/// `create` and `createReading` are those steps.
///
/// 1. `create` reserves `N.content` with `O_CREAT | O_EXCL | O_NOFOLLOW` (the name, across
///    processes), takes an exclusive `flock` on it (held by the returned `OutboxClaim` until the
///    run lets it go: the lock is how every other run tells a live entry from a dead one), then
///    writes `N.json` with state `writing` (and the content's length when it is known). A
///    content known whole at creation (`create(_:content:)`) and stdin read into its entry
///    (`createReading`) go the other way round: the bytes first, under a temporary metadata
///    file (`.N.json.tmp-reading`, then `-pending` once whole), renamed into place after them;
///    a recovery pass adopts a pending file beside a whole content. A pipe whose writers are
///    gone says its length before its last bytes move (`markReadEnded(byteCount:)`).
/// 2. The content goes in (`append`, or streamed by the uploader's tee into `contentPath`);
///    `finishContent()` records its length once a stream has ended: from then on the content is
///    *whole*, and only then.
/// 3. `markInFlight()` before the request starts (for a stream, before its first byte).
/// 4. The URL recorded: `recordSuccess()` removes the entry. A failure: `recordFailure(_:)`
///    counts the attempt, keeps the sanitized message, settles `retryable` (with the next
///    attempt's time) or `held`, and makes the entry durable. A stream cut short, or text the
///    guard refused: `discard()`.
///
/// Until a failure is known nothing is `fsync`ed (the page cache survives a killed process; a
/// power cut mid-upload may lose the entry); from then on it is durable (`makeDurable()`), and
/// every later change of a durable entry is durable too, so a power cut never brings back a
/// `retryable` entry that was sent meanwhile.
///
/// A metadata file is always replaced whole (`AtomicFile.write`: a temporary file renamed), and
/// only by the run holding the entry's lock (so what a killed writer left beside it goes with
/// the next claim, `removeDeadWritersTemporaries`); the content file is never replaced, so its lock
/// stays meaningful. Files are 0600 in a 0700 folder of this user's (a folder of another user,
/// or a symbolic link in its place, is refused); every file is opened with `O_NOFOLLOW`, and a
/// content that is not a regular file is never read.
public struct Outbox: Sendable {
    /// The outbox folder.
    public let folder: String
    /// How `--retry` paces entries and when it gives up.
    public let policy: OutboxPolicy
    /// The clock, for entry names, attempt times and the age of stranded files.
    let now: @Sendable () -> Date
    /// Masks the run's secrets in the words a metadata file stores (`Redactor`): the service,
    /// its URL, the title, the file name and the last error. The entry in memory keeps them as
    /// they are, so the run that wrote it can still send it.
    public let redaction: @Sendable (String) -> String

    /// The most entries made in one millisecond before giving up (the sequence has four digits).
    static let maximumSequence = 9999

    /// How old a file that no metadata explains (a content without metadata, unreadable
    /// metadata, a stray temporary file) must be before a recovery pass removes it: long past
    /// any run's moment between creating a content file and locking it.
    public static let strandedAge = Duration.seconds(60)

    /// The outbox of the run's context: `$XDG_STATE_HOME/paste/outbox`.
    public init(context: Context, policy: OutboxPolicy = OutboxPolicy()) {
        self.init(
            folder: context.outboxDirectory, policy: policy, now: context.now, redaction: context.redactor.redaction)
    }

    /// An outbox in `folder`.
    public init(
        folder: String, policy: OutboxPolicy = OutboxPolicy(), now: @escaping @Sendable () -> Date = { Date() },
        redaction: @escaping @Sendable (String) -> String = { $0 }
    ) {
        self.folder = folder
        self.policy = policy
        self.now = now
        self.redaction = redaction
    }

    // MARK: - Making entries

    /// Starts an entry whose content will be streamed in, before its request starts.
    ///
    /// The content file exists (empty, 0600, locked by the returned claim) and the metadata says
    /// `writing` (or `in-flight` with `inFlight`, for a stream sent as it is read). Stream into
    /// `contentPath` (the uploader's tee opens it for appending) or `append`, then call
    /// `finishContent()` when the stream has ended; until then the entry is not whole, and a
    /// recovery pass removes it once its run has died.
    ///
    /// - Parameters:
    ///   - metadata: Where the paste goes; its `created` is taken from the clock.
    ///   - inFlight: Whether the request starts at once (saves a `markInFlight()` write).
    /// - Returns: The claim on the new entry, held by this run until it lets it go.
    /// - Throws: `StoreError` when the folder, the content or the metadata cannot be written
    ///   (`TextNotSaved` is what the person should see).
    public func create(_ metadata: OutboxEntry.Metadata, inFlight: Bool = false) throws(StoreError) -> OutboxClaim {
        var metadata = metadata
        metadata.state = inFlight ? .inFlight : .writing
        metadata.byteCount = nil
        return try reserve(metadata)
    }

    /// Starts an entry for a content that is about to be read (stdin), before the read.
    ///
    /// The content file exists (empty, 0600, locked by the returned claim); the metadata is in
    /// the entry's reading file (`.N.json.tmp-reading`), which no recovery pass adopts: until
    /// the read is over the content is not whole. `append` each chunk as it is read, then
    /// `finishReading()` the moment the read reaches its end: from then on a run killed at any
    /// moment leaves a whole, `retryable` entry. `discard()` an entry whose read is not used.
    ///
    /// - Returns: The claim on the new entry.
    /// - Throws: `StoreError` when the folder, the content or the metadata cannot be written.
    public func createReading(_ metadata: OutboxEntry.Metadata) throws(StoreError) -> OutboxClaim {
        var metadata = metadata
        metadata.state = .writing
        metadata.byteCount = nil
        return try reserve(metadata, reading: true)
    }

    /// Puts a whole content in the outbox before its request starts.
    ///
    /// The bytes go in before the metadata names the entry: the metadata is written to the
    /// entry's pending file (`.N.json.tmp-pending`, with the content's length), then the content,
    /// then the pending file is renamed into place. A run killed before the rename leaves the
    /// content and its pending metadata, which a recovery pass adopts when the content is the
    /// length recorded (then `retryable`: nothing was sent) and removes otherwise; a run killed
    /// after it leaves a whole entry. So no moment exists when the bytes are in memory only
    /// while the metadata says they are on disk. Nothing is `fsync`ed.
    ///
    /// - Parameters:
    ///   - content: The bytes, exactly as they are to be uploaded (text or binary).
    ///   - inFlight: Whether the request starts at once: the entry is then `in-flight` instead
    ///     of `retryable` (saves a `markInFlight()` write).
    /// - Returns: The claim on the new entry.
    public func create(
        _ metadata: OutboxEntry.Metadata, content: [UInt8], inFlight: Bool = false
    ) throws(StoreError) -> OutboxClaim {
        var metadata = metadata
        metadata.state = inFlight ? .inFlight : .retryable
        metadata.byteCount = Int64(content.count)
        return try reserve(metadata, content: content)
    }

    /// Reserves a new entry's name and writes its first metadata; see the protocol above. With
    /// `content`, the bytes are written first and the metadata renamed into place after them.
    private func reserve(
        _ metadata: OutboxEntry.Metadata, content: [UInt8]? = nil, reading: Bool = false
    ) throws(StoreError) -> OutboxClaim {
        try AtomicFile.createPrivateFolder(folder)
        var metadata = metadata
        metadata.created = now()
        let stamp = Outbox.stamp(metadata.created)
        for sequence in 0...Outbox.maximumSequence {
            let name = stamp + "-" + Outbox.padded(sequence, width: 4)
            let entry = OutboxEntry(name: name, folder: folder, metadata: metadata)
            // O_EXCL reserves the name, across processes too, and never follows a link.
            guard let lock = try FileLock.create(path: entry.contentPath) else { continue }
            let claim = OutboxClaim(outbox: self, entry: entry, lock: lock, isDurable: false)
            do {
                if let content {
                    try claim.writeMetadataAfter(content)
                } else if reading {
                    try claim.writeReadingMetadata()
                } else {
                    try claim.writeMetadata(entry.metadata)
                }
            } catch {
                try? AtomicFile.remove(entry.pendingMetadataPath)
                try? AtomicFile.remove(entry.readingMetadataPath)
                try? AtomicFile.remove(entry.contentPath)
                throw error
            }
            return claim
        }
        throw .cannotOpen(path: folder + "/" + stamp + "-*", errno: .fileExists)
    }

    // MARK: - Files

    /// The entry value for the files of `name`, with metadata still to be read.
    func entry(named name: String) -> OutboxEntry {
        OutboxEntry(name: name, folder: folder, metadata: Outbox.placeholder)
    }

    /// Metadata for an entry value whose metadata is about to be read.
    static let placeholder = OutboxEntry.Metadata(service: "", created: Date(timeIntervalSince1970: 0))

    /// The most bytes of a metadata file read: far beyond what paste writes there.
    static let maximumMetadataBytes = 1 << 20

    /// Reads an entry's metadata: nil when the file is missing.
    ///
    /// - Throws: `StoreError.corruptMetadata` when it does not decode, or the read's failure.
    func loadMetadata(_ entry: OutboxEntry) throws(StoreError) -> OutboxEntry? {
        guard let bytes = try AtomicFile.read(entry.metadataPath, limit: Outbox.maximumMetadataBytes) else {
            return nil
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let metadata = try? decoder.decode(OutboxEntry.Metadata.self, from: Data(bytes)) else {
            throw .corruptMetadata(path: entry.metadataPath)
        }
        var loaded = entry
        loaded.metadata = metadata
        return loaded
    }

    /// The metadata as it may be stored: its words passed through `redaction`.
    func redacted(_ metadata: OutboxEntry.Metadata) -> OutboxEntry.Metadata {
        var metadata = metadata
        metadata.service = redaction(metadata.service)
        metadata.serviceURL = metadata.serviceURL.map(redaction)
        metadata.title = metadata.title.map(redaction)
        metadata.fileName = metadata.fileName.map(redaction)
        metadata.lastError = metadata.lastError.map(redaction)
        return metadata
    }

    static func encode(_ metadata: OutboxEntry.Metadata, path: String) throws(StoreError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        do {
            var bytes = Array(try encoder.encode(metadata))
            bytes.append(UInt8(ascii: "\n"))
            return bytes
        } catch {
            throw .cannotEncode(path: path)
        }
    }

    /// Milliseconds since 1970, thirteen digits (enough until the year 2286), so names sort.
    static func stamp(_ date: Date) -> String {
        let milliseconds = max(0, Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
        return padded(Int(milliseconds), width: 13)
    }

    static func padded(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// How long ago a file last changed, by the outbox's clock.
    func age(of status: FileStatus) -> Duration {
        let modified = Date(timeIntervalSince1970: status.modificationTime.timeInterval)
        return .milliseconds(Int64((now().timeIntervalSince(modified) * 1000).rounded(.down)))
    }
}
