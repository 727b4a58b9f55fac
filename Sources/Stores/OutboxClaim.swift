import FoundationEssentials
import PasteCore
import SystemInterop

/// One run's hold on one outbox entry: the entry it made (`Outbox.create`) or the one it is about
/// to send again (`Outbox.claimDue`, `Outbox.claim(id:)`).
///
/// While this value lives, no other run can claim the entry, write its metadata or remove it,
/// and every listing shows it busy: the claim holds an exclusive `flock` on the content file (the
/// one file of an entry that is never replaced), which the kernel drops when the process dies.
/// So no entry is ever sent by two runs at once, and an entry `writing` or `in-flight` without a
/// holder is known to belong to a run that died.
///
/// The steps, in order (see `Outbox` for the whole protocol): `append` (or stream into
/// `contentPath`) and `finishContent()` for an entry being written; `markInFlight()` before the
/// request; then exactly one of `recordSuccess()`, `recordFailure(_:)` or `discard()`. Let the
/// claim go only after that (it is released when the value goes away).
public final class OutboxClaim {
    /// The entry as last written by this claim (or read when it was claimed).
    public private(set) var entry: OutboxEntry
    /// The outbox it belongs to (its clock and policy).
    let outbox: Outbox
    /// The lock on the content file; its descriptor reads (and, for a new entry, appends) it.
    let lock: FileLock
    /// Whether the entry is on disk for good (`fsync`ed): then every change is made durable too.
    public private(set) var isDurable: Bool
    /// Whether the entry has been removed (`recordSuccess()` or `discard()`).
    public private(set) var isRemoved = false

    init(outbox: Outbox, entry: OutboxEntry, lock: FileLock, isDurable: Bool) {
        self.outbox = outbox
        self.entry = entry
        self.lock = lock
        self.isDurable = isDurable
    }

    /// The entry's short id.
    public var id: String { entry.id }
    /// The content file's path in the outbox (for messages; open `contentDescriptorPath`).
    public var contentPath: String { entry.contentPath }

    /// The content file as this claim holds it, by its descriptor (`/proc/self/fd/N`): for a
    /// tee to append to or an uploader to read.
    ///
    /// Opening it opens the very file the claim created or locked (checked to be a regular
    /// file of this user, opened without following a link), whatever may have been put in the
    /// place of `contentPath` since: a swapped or linked file is never written or sent. Valid
    /// while the claim lives, in this process only.
    public var contentDescriptorPath: String { "/proc/self/fd/\(lock.file.rawValue)" }
    /// Where the entry stands.
    public var state: OutboxEntry.State { entry.metadata.effectiveState }

    // MARK: - Content

    /// The content's length now. Wraps `fstat` on the locked descriptor.
    public func contentSize() throws(StoreError) -> Int64 {
        try StoreError.attempt({ .cannotRead(path: contentPath, errno: $0) }) { () throws(Errno) in
            try lock.file.status().size
        }
    }

    /// Whether the content is whole: its length is the one recorded (entries written before
    /// lengths were recorded are taken as whole once they left `writing`).
    public func isWhole() throws(StoreError) -> Bool {
        try OutboxEntry.Metadata.isWhole(byteCount: entry.metadata.byteCount, state: entry.metadata.state) {
            () throws(StoreError) -> Int64? in try contentSize()
        }
    }

    /// Appends bytes to the content of an entry being written.
    ///
    /// - Throws: `StoreError.cannotWrite` (a full disk: `Errno.noSpace`).
    public func append(_ bytes: [UInt8]) throws(StoreError) {
        precondition(!isRemoved, "append to a removed outbox entry")
        precondition(
            state == .writing || (state == .inFlight && entry.metadata.byteCount == nil),
            "append to an outbox entry whose content is finished")
        try StoreError.attempt({ .cannotWrite(path: contentPath, errno: $0) }) { () throws(Errno) in
            try lock.file.writeAll(bytes)
        }
    }

    /// Records that the content is whole: its length (and digest, when known) go in the
    /// metadata. Call it once a stream has ended and its tee is flushed.
    ///
    /// - Parameter sha256: The content's SHA-256, when the caller computed it on the way.
    /// - Returns: The content's length.
    /// - Throws: `StoreError.incompleteContent` when a length given at creation is not what was
    ///   written, or the metadata's write failure.
    @discardableResult
    public func finishContent(sha256: String? = nil) throws(StoreError) -> Int64 {
        precondition(!isRemoved, "finish a removed outbox entry")
        let size = try contentSize()
        if let expected = entry.metadata.byteCount, expected != size {
            throw .incompleteContent(path: contentPath, expected: expected, actual: size)
        }
        var metadata = entry.metadata
        metadata.byteCount = size
        if let sha256 { metadata.sha256 = sha256 }
        if metadata != entry.metadata { try writeMetadata(metadata) }
        return size
    }

    /// Replaces what the entry says about its paste with `metadata` (a title, a digest, options
    /// known only after the entry was made), keeping its state, length and creation time.
    public func describe(_ metadata: OutboxEntry.Metadata) throws(StoreError) {
        precondition(!isRemoved, "describe a removed outbox entry")
        var updated = metadata
        updated.state = entry.metadata.state
        updated.byteCount = entry.metadata.byteCount
        updated.created = entry.metadata.created
        if updated != entry.metadata { try writeMetadata(updated) }
    }

    /// Reads the content's first `count` bytes (fewer when it is shorter), through the locked
    /// descriptor: the start a history preview is made of.
    public func readContentPrefix(upTo count: Int) throws(StoreError) -> [UInt8] {
        try StoreError.attempt({ .cannotRead(path: contentPath, errno: $0) }) { () throws(Errno) in
            try lock.file.read(atOffset: 0, upTo: count)
        }
    }

    /// Reads the whole content (the clipboard-sized case; a large entry is better streamed from
    /// `contentPath`). Reads through the locked descriptor: the very file that was checked.
    public func readContent() throws(StoreError) -> [UInt8] {
        var bytes: [UInt8] = []
        try StoreError.attempt({ .cannotRead(path: contentPath, errno: $0) }) { () throws(Errno) in
            while true {
                let chunk = try lock.file.read(atOffset: Int64(bytes.count), upTo: Self.readChunk)
                if chunk.isEmpty { return }
                bytes += chunk
            }
        }
        return bytes
    }

    /// How much `readContent` asks for at a time.
    static let readChunk = 1 << 20

    // MARK: - Sending

    /// Marks the entry in flight: from now on a run that dies leaves an entry the server may
    /// already have made (held by the next recovery pass, never sent again by itself). Call it
    /// before the request starts.
    public func markInFlight() throws(StoreError) {
        try settle(as: .inFlight)
    }

    /// The paste was made and its URL recorded: removes the entry (metadata first, so it stops
    /// being an entry at once, then the content).
    public func recordSuccess() throws(StoreError) {
        try remove()
    }

    /// The paste was made but its URL could not be recorded in the history: the entry stays,
    /// held (never sent again by itself), with the URL and how to delete the paste in its
    /// metadata, so `paste --outbox` still shows the link (issue 45, item 4). Durable, like a
    /// failure.
    ///
    /// - Parameters:
    ///   - url: the paste's URL, sanitized.
    ///   - deletion: its deletion token or link, when the service gave one.
    ///   - message: why the history could not take it, for `last_error`.
    /// - Returns: The entry as recorded.
    @discardableResult
    public func recordPasted(url: String, deletion: String?, message: String) throws(StoreError) -> OutboxEntry {
        precondition(!isRemoved, "record the paste of a removed outbox entry")
        var metadata = entry.metadata
        metadata.attempts += 1
        metadata.lastError = OutboxFailure(verdict: .held, message: message).message
        metadata.lastAttempt = outbox.now()
        metadata.state = .held
        metadata.nextAttempt = nil
        metadata.pastedURL = url
        metadata.pastedDeletion = deletion
        try makeDurable(with: metadata)
        return entry
    }

    /// Records a failed attempt: one more attempt, its sanitized message and time, and the state
    /// it leaves the entry in: `held` when the failure says so or attempts ran out
    /// (`OutboxPolicy.maximumAttempts`), else `retryable` with the time of the next attempt.
    /// The entry is then durable (`makeDurable()`).
    ///
    /// The content must be whole: finish a stream first (reading the rest of its input), or
    /// `discard()` one that was cut short.
    /// - Parameters:
    ///   - failure: What the attempt ended with.
    ///   - nextAttempt: When the next attempt may be, when the caller knows better than the
    ///     backoff: the time a 429 or 503 asked for (`Retry-After`), or now for a transfer the
    ///     person interrupted (nothing is wrong with the service). Nil: after the backoff.
    /// - Returns: The entry as recorded.
    @discardableResult
    public func recordFailure(_ failure: OutboxFailure, nextAttempt: Date? = nil) throws(StoreError) -> OutboxEntry {
        precondition(!isRemoved, "record a failure of a removed outbox entry")
        let isWhole = try isWhole()
        precondition(isWhole, "finish the content (or discard the entry) before recording a failure")
        let now = outbox.now()
        var metadata = entry.metadata
        metadata.attempts += 1
        metadata.lastError = failure.message
        metadata.lastAttempt = now
        if failure.verdict == .held || outbox.policy.isExhausted(afterAttempt: metadata.attempts) {
            metadata.state = .held
            metadata.nextAttempt = nil
        } else {
            metadata.state = .retryable
            let delay = outbox.policy.delay(afterAttempt: metadata.attempts)
            metadata.nextAttempt = nextAttempt ?? now.addingTimeInterval(delay.timeInterval)
        }
        try makeDurable(with: metadata)
        return entry
    }

    /// Flushes the content and the metadata to disk (`fsync` of both and of the folder), so the
    /// entry survives a power cut; every later change is made durable too. `recordFailure` does
    /// it; call it directly when a run must stop before it knows how its request ended.
    public func makeDurable() throws(StoreError) {
        try makeDurable(with: entry.metadata)
    }

    /// Removes an entry that must not wait: a stream cut short (the text was never whole), or
    /// text the guard refused.
    public func discard() throws(StoreError) {
        try remove()
    }

    // MARK: - Writing

    /// Sets the state and writes the metadata (durably when the entry is durable).
    func settle(as state: OutboxEntry.State) throws(StoreError) {
        var metadata = entry.metadata
        metadata.state = state
        try writeMetadata(metadata)
    }

    /// Sets the state and makes the entry durable (for a recovery pass's changes).
    func settleDurably(as state: OutboxEntry.State) throws(StoreError) {
        var metadata = entry.metadata
        metadata.state = state
        try makeDurable(with: metadata)
    }

    /// Replaces the metadata file (only ever under this claim's lock).
    func writeMetadata(_ metadata: OutboxEntry.Metadata) throws(StoreError) {
        precondition(!isRemoved, "write the metadata of a removed outbox entry")
        // What is stored passes the run's redaction; the entry in memory keeps what it sends.
        let bytes = try Outbox.encode(outbox.redacted(metadata), path: entry.metadataPath)
        try AtomicFile.write(bytes, to: entry.metadataPath, durable: isDurable)
        entry.metadata = metadata
    }

    /// Writes a new entry's content, then names it: the metadata (with the content's length)
    /// goes to the pending file first, the bytes after it, and the rename puts the metadata in
    /// place only once every byte is written (see `Outbox.create(_:content:)`).
    func writeMetadataAfter(_ content: [UInt8]) throws(StoreError) {
        let metadata = entry.metadata
        let pending = entry.pendingMetadataPath
        let bytes = try Outbox.encode(outbox.redacted(metadata), path: entry.metadataPath)
        // A pending file of a dead run of the same name was never an entry: this run holds
        // the name now.
        try AtomicFile.remove(pending)
        try AtomicFile.writeTemporary(bytes, at: pending)
        try StoreError.attempt({ .cannotWrite(path: contentPath, errno: $0) }) { () throws(Errno) in
            try lock.file.writeAll(content)
        }
        try StoreError.attempt({ .cannotWrite(path: entry.metadataPath, errno: $0) }) { () throws(Errno) in
            try FileSystem.rename(pending, to: entry.metadataPath)
        }
    }

    /// Writes the reading metadata of an entry made before its content is read
    /// (`Outbox.createReading`).
    func writeReadingMetadata() throws(StoreError) {
        let bytes = try Outbox.encode(outbox.redacted(entry.metadata), path: entry.metadataPath)
        let reading = entry.readingMetadataPath
        try AtomicFile.remove(reading)
        try AtomicFile.writeTemporary(bytes, at: reading)
    }

    /// Whether the end of the read was said (`markReadEnded()`, `markReadEnded(byteCount:)`).
    public private(set) var hasReadEnded = false

    /// Says, in one `rename`, that the read of an entry made by `Outbox.createReading` reached
    /// its end: call it the moment it does, before anything else (`finishReading()` does, when
    /// it was not called). Nothing when the end was said already.
    public func markReadEnded() throws(StoreError) {
        precondition(!isRemoved && state == .writing, "end the read of an entry that is not being read")
        if hasReadEnded { return }
        let pending = entry.pendingMetadataPath
        try StoreError.attempt({ .cannotWrite(path: pending, errno: $0) }) { () throws(Errno) in
            try FileSystem.rename(entry.readingMetadataPath, to: pending)
        }
        hasReadEnded = true
    }

    /// Says, before the last bytes of the read move, that the read ends once the content is
    /// `byteCount` bytes long: for stdin whose every writer is gone, so that its rest is known
    /// (`FileDescriptor.finalPipeByteCount`). The pending metadata, with that length, takes the
    /// reading one's place. `markReadEnded()` can only follow the end, leaving a moment (the
    /// last bytes moved, the end not yet seen or said) when a run killed leaves a whole text
    /// that no recovery pass can tell from a part; from here on a run killed at any moment
    /// leaves an entry a pass adopts once every byte is in (`retryable`), and removes
    /// otherwise (the bytes not moved are still in stdin). Nothing when the end was said.
    public func markReadEnded(byteCount: Int64) throws(StoreError) {
        precondition(!isRemoved && state == .writing, "end the read of an entry that is not being read")
        if hasReadEnded { return }
        var metadata = entry.metadata
        metadata.byteCount = byteCount
        let bytes = try Outbox.encode(outbox.redacted(metadata), path: entry.metadataPath)
        let pending = entry.pendingMetadataPath
        try AtomicFile.remove(pending)
        try AtomicFile.writeTemporary(bytes, at: pending)
        try AtomicFile.remove(entry.readingMetadataPath)
        hasReadEnded = true
    }

    /// The read of an entry made by `Outbox.createReading` stops short of its end: stdin is too
    /// large to hold, and the rest is streamed into the entry as it is sent (the request's tee
    /// continues the content, which holds what was read so far: `ContentSource.stream`'s
    /// `teeHoldsPrefix`). The entry becomes one whose content is streamed in, as
    /// `Outbox.create(_:inFlight:)` makes: its metadata in place, `writing`, no length yet, and a
    /// recovery pass removes it should its run die before `finishContent()`. So stdin's entry is
    /// made once, and no byte of it is written twice.
    ///
    /// - Throws: `StoreError` when the metadata cannot be written (discard the entry then).
    public func continueAsStream() throws(StoreError) {
        precondition(!isRemoved && state == .writing && !hasReadEnded, "stream into an entry that is not being read")
        try writeMetadata(entry.metadata)
        try AtomicFile.remove(entry.readingMetadataPath)
    }

    /// The read of an entry made by `Outbox.createReading` reached its end: the content is
    /// whole. One `rename` says so at once (the reading metadata becomes the pending one, which
    /// a recovery pass adopts beside any content); then the metadata goes in place, `retryable`,
    /// with the content's length.
    ///
    /// - Throws: `StoreError` when the metadata cannot be written (discard the entry then).
    public func finishReading() throws(StoreError) {
        precondition(!isRemoved && state == .writing, "finish reading an entry that is not being read")
        let pending = entry.pendingMetadataPath
        if !hasReadEnded { try markReadEnded() }
        var metadata = entry.metadata
        metadata.byteCount = try contentSize()
        metadata.state = .retryable
        try writeMetadata(metadata)
        try AtomicFile.remove(pending)
    }

    private func makeDurable(with metadata: OutboxEntry.Metadata) throws(StoreError) {
        precondition(!isRemoved, "make a removed outbox entry durable")
        try StoreError.attempt({ .cannotWrite(path: contentPath, errno: $0) }) { () throws(Errno) in
            try lock.file.sync()
        }
        isDurable = true
        try writeMetadata(metadata)
    }

    private func remove() throws(StoreError) {
        precondition(!isRemoved, "remove an outbox entry twice")
        try AtomicFile.remove(entry.metadataPath)
        if state == .writing {
            // An entry discarded while (or just after) its content was read.
            try? AtomicFile.remove(entry.readingMetadataPath)
            try? AtomicFile.remove(entry.pendingMetadataPath)
        }
        if let size = try? contentSize(), size >= Self.removedInBackgroundSize {
            try removeContentInBackground()
        } else {
            try AtomicFile.remove(entry.contentPath)
        }
        isRemoved = true
    }

    /// From this size on, a removed entry's content is unlinked by a detached process once this
    /// claim lets it go (`FileSystem.removeFileWhenReleased`): freeing a large file's blocks can
    /// take a while (0.2 s per GiB on the bench machine, whose ext4 is mounted with `discard`),
    /// and a run whose paste is made should not wait for it.
    static let removedInBackgroundSize: Int64 = 64 << 20

    /// Renames the content out of the entry's way (`.N.content.tmp-removed`, which no listing
    /// shows and which recovery removes should it ever be stranded), then has it removed in the
    /// background; in place when no process can be started.
    private func removeContentInBackground() throws(StoreError) {
        let doomed = AtomicFile.temporaryPath(for: entry.contentPath, tag: "removed")
        do {
            try FileSystem.rename(entry.contentPath, to: doomed)
        } catch {
            try AtomicFile.remove(entry.contentPath)
            return
        }
        do {
            try FileSystem.removeFileWhenReleased(doomed)
        } catch {
            try AtomicFile.remove(doomed)
        }
    }
}

@available(*, unavailable)
extension OutboxClaim: Sendable {}
