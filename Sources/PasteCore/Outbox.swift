import FoundationEssentials
import SystemInterop

/// The outbox folder, where pastes whose upload failed wait for `paste --retry`.
///
/// Nothing is lost: the text goes to disk (content `fsync`ed, metadata written atomically, both
/// 0600 in a 0700 folder) before paste reports the failure. Entries come back in creation order.
/// Two `--retry` runs (a cron job and a person) never send the same entry twice: each run
/// `claim`s an entry with a non-blocking `flock` before sending it and skips entries another run
/// holds.
public struct Outbox: Sendable {
    /// The outbox folder.
    public let folder: String
    /// The clock, for entry names and attempt times.
    private let now: @Sendable () -> Date

    /// The most entries made in one millisecond before giving up (the sequence has four digits).
    static let maximumSequence = 9999

    /// The outbox of the run's context: `$XDG_STATE_HOME/paste/outbox`.
    public init(context: Context) {
        self.init(folder: context.outboxDirectory, now: context.now)
    }

    /// An outbox in `folder`.
    public init(folder: String, now: @escaping @Sendable () -> Date = { Date() }) {
        self.folder = folder
        self.now = now
    }

    // MARK: - Making entries

    /// Starts an entry whose content will be streamed in; see `OutboxEntryWriter`.
    ///
    /// The entry's `created` time is taken from the clock, replacing `metadata.created`.
    /// - Throws: `StoreError` when the folder or content file cannot be made.
    public func makeEntry(_ metadata: OutboxEntry.Metadata) throws(StoreError) -> OutboxEntryWriter {
        try AtomicFile.createFolder(folder)
        var metadata = metadata
        metadata.created = now()
        let stamp = Outbox.stamp(metadata.created)
        for sequence in 0...Outbox.maximumSequence {
            let name = stamp + "-" + Outbox.padded(sequence, width: 4)
            let entry = OutboxEntry(name: name, folder: folder, metadata: metadata)
            // O_EXCL reserves the name, across processes too.
            guard let file = try Outbox.reserve(entry.contentPath) else { continue }
            try StoreError.attempt({ .cannotWrite(path: entry.contentPath, errno: $0) }) { () throws(Errno) in
                try file.setPermissions(AtomicFile.filePermissions)
            }
            return OutboxEntryWriter(entry: entry, file: file)
        }
        throw .cannotOpen(path: folder + "/" + stamp + "-*", errno: .fileExists)
    }

    /// Creates `path` (0600, for appending) unless it exists: nil when it does (`O_EXCL`).
    private static func reserve(_ path: String) throws(StoreError) -> FileDescriptor? {
        do {
            return try FileDescriptor.open(
                path, .writeOnly, options: [.append, .create, .exclusive], permissions: AtomicFile.filePermissions)
        } catch {
            if error == .fileExists { return nil }
            throw .cannotOpen(path: path, errno: error)
        }
    }

    /// Stores a whole content at once and commits it.
    ///
    /// - Parameters:
    ///   - failure: The message of the failed attempt, recorded as the first attempt.
    /// - Returns: The committed entry.
    @discardableResult
    public func store(
        content: [UInt8], metadata: OutboxEntry.Metadata, failure: String? = nil
    ) throws(StoreError) -> OutboxEntry {
        let writer = try makeEntry(metadata)
        do {
            try writer.append(content)
            return try writer.commit(failure: failure)
        } catch {
            try? writer.discard()
            throw error
        }
    }

    // MARK: - Reading

    /// What is in the outbox: the entries in creation order, and the metadata files that could
    /// not be read (each a `StoreError.corruptMetadata` or read error), which do not stop the rest.
    public struct Listing: Sendable {
        /// The readable committed entries, oldest first.
        public var entries: [OutboxEntry]
        /// One error per entry that could not be read.
        public var problems: [StoreError]
    }

    /// Lists the committed entries and any unreadable ones. An absent folder is an empty outbox.
    public func listing() throws(StoreError) -> Listing {
        var listing = Listing(entries: [], problems: [])
        for name in try Outbox.names(in: folder) {
            let entry = OutboxEntry(name: name, folder: folder, metadata: placeholder)
            do {
                if let loaded = try load(entry) { listing.entries.append(loaded) }
            } catch {
                listing.problems.append(error)
            }
        }
        return listing
    }

    /// The committed entries, oldest first.
    public func entries() throws(StoreError) -> [OutboxEntry] {
        try listing().entries
    }

    // MARK: - Retrying

    /// Claims an entry for sending, or returns nil when another run holds it or it is gone.
    ///
    /// Wraps `flock(LOCK_EX | LOCK_NB)` on the content file. After locking, the entry is checked
    /// again: a run that finished it first removed its files before unlocking, so a claim on a
    /// file no longer linked, or without metadata, is not an entry any more.
    public func claim(_ entry: OutboxEntry) throws(StoreError) -> OutboxClaim? {
        guard
            let lock = try FileLock.attempt(
                path: entry.contentPath, kind: .exclusive, creating: false)
        else { return nil }
        guard lock.isStillLinked, let fresh = try load(entry) else { return nil }
        return OutboxClaim(entry: fresh, lock: lock)
    }

    /// Removes an entry: the metadata first (so it stops being an entry at once), then the content.
    ///
    /// Call it while holding the entry's claim, so no other run picks up the entry meanwhile.
    public func remove(_ entry: OutboxEntry) throws(StoreError) {
        try AtomicFile.remove(entry.metadataPath)
        try AtomicFile.remove(entry.contentPath)
        try AtomicFile.syncFolder(folder)
    }

    /// Records a failed attempt: one more attempt, its message and time, written atomically.
    ///
    /// - Returns: The entry with its new metadata.
    @discardableResult
    public func markFailed(_ entry: OutboxEntry, error message: String) throws(StoreError)
        -> OutboxEntry
    {
        var updated = entry
        updated.metadata.attempts += 1
        updated.metadata.lastError = message
        updated.metadata.lastAttempt = now()
        try AtomicFile.write(
            Outbox.encode(updated.metadata, path: updated.metadataPath), to: updated.metadataPath)
        return updated
    }

    // MARK: - Files

    /// Metadata for an entry value whose metadata is about to be read.
    private var placeholder: OutboxEntry.Metadata {
        OutboxEntry.Metadata(service: "", created: Date(timeIntervalSince1970: 0))
    }

    /// Reads an entry's metadata; nil when the entry is gone (either file missing).
    private func load(_ entry: OutboxEntry) throws(StoreError) -> OutboxEntry? {
        guard let bytes = try AtomicFile.read(entry.metadataPath) else { return nil }
        guard (try? FileSystem.status(ofPath: entry.contentPath)) != nil else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let metadata = try? decoder.decode(OutboxEntry.Metadata.self, from: Data(bytes)) else {
            throw .corruptMetadata(path: entry.metadataPath)
        }
        var loaded = entry
        loaded.metadata = metadata
        return loaded
    }

    /// The names of committed entries in `folder`, sorted.
    static func names(in folder: String) throws(StoreError) -> [String] {
        let fileNames: [String]
        do {
            fileNames = try FileSystem.entries(ofDirectory: folder)
        } catch {
            if error == .noSuchFileOrDirectory { return [] }
            throw .cannotRead(path: folder, errno: error)
        }
        return fileNames.filter { !$0.hasPrefix(".") && $0.hasSuffix(OutboxEntry.metadataSuffix) }
            .map { String($0.dropLast(OutboxEntry.metadataSuffix.count)) }.sorted()
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
}
