import FoundationEssentials
import SystemInterop

// The outbox as PasteCLI calls it until its upload path becomes the journal's thin client
// (issue 15, part 2): entries made only once an upload has failed, and a `--retry` that sends
// every whole entry. Each call is the journal's own underneath, so entries written this way
// follow the journal's protocol on disk.
// TODO(#15): part 2 moves PasteCLI to `create` / `OutboxClaim` / `dueEntries` and deletes this file.

extension Outbox {
    /// Starts an entry whose content will be streamed in (`create(_:)` behind a writer that
    /// settles it as PasteCLI expects).
    public func makeEntry(_ metadata: OutboxEntry.Metadata) throws(StoreError) -> OutboxEntryWriter {
        OutboxEntryWriter(claim: try create(metadata))
    }

    /// Stores a whole content at once and commits it (durably).
    ///
    /// - Parameters:
    ///   - failure: The message of the failed attempt, recorded as the first attempt.
    /// - Returns: The committed entry.
    @discardableResult
    public func store(
        content: [UInt8], metadata: OutboxEntry.Metadata, failure: String? = nil
    ) throws(StoreError) -> OutboxEntry {
        let writer = OutboxEntryWriter(claim: try create(metadata, content: content))
        return try writer.commit(failure: failure)
    }

    /// Every whole entry no run holds, retryable or held, oldest first (after a recovery pass).
    public func entries() throws(StoreError) -> [OutboxEntry] {
        try listing().items.filter { !$0.isBusy && $0.isWhole && ($0.state == .retryable || $0.state == .held) }
            .map(\.entry)
    }

    /// Claims a whole entry whatever its state, or returns nil when another run holds it or it
    /// is gone.
    public func claim(_ entry: OutboxEntry) throws(StoreError) -> OutboxClaim? {
        do {
            return try claim(id: entry.name)
        } catch {
            switch error {
            case .entryBusy, .noSuchEntry, .incompleteContent: return nil
            default: throw error
            }
        }
    }

    /// Removes an entry (its claim is held by the caller): metadata, then content.
    public func remove(_ entry: OutboxEntry) throws(StoreError) {
        try AtomicFile.remove(entry.metadataPath)
        try AtomicFile.remove(entry.contentPath)
        try AtomicFile.syncFolder(folder)
    }

    /// Records a failed attempt (its claim is held by the caller): one more attempt, its message
    /// and time; the entry stays sendable by `entries()`.
    ///
    /// - Returns: The entry with its new metadata.
    @discardableResult
    public func markFailed(_ entry: OutboxEntry, error message: String) throws(StoreError) -> OutboxEntry {
        var updated = entry
        updated.metadata.attempts += 1
        updated.metadata.lastError = OutboxFailure.sanitize(message)
        updated.metadata.lastAttempt = now()
        if updated.metadata.state == nil || updated.metadata.state == .inFlight { updated.metadata.state = .retryable }
        try AtomicFile.write(Outbox.encode(updated.metadata, path: updated.metadataPath), to: updated.metadataPath)
        return updated
    }
}

/// An outbox entry being written the way PasteCLI does today: content streams into
/// `contentPath`, then `commit()` settles it `retryable` (durably), or `discard()` removes it.
/// The entry's lock is held until then, and let go then (as the run that wrote it used to).
public final class OutboxEntryWriter {
    /// The claim on the entry while it is being written; nil once committed or discarded.
    private var claim: OutboxClaim?
    /// Whether `commit()` or `discard()` has run.
    public private(set) var isFinished = false
    /// The entry as written so far.
    public private(set) var entry: OutboxEntry

    init(claim: OutboxClaim) {
        self.claim = claim
        self.entry = claim.entry
    }

    /// The content file to stream into.
    public var contentPath: String { entry.contentPath }

    /// Appends bytes to the content.
    public func append(_ bytes: [UInt8]) throws(StoreError) {
        precondition(!isFinished, "append after commit or discard")
        try claim!.append(bytes)
    }

    /// Records the content as whole and settles the entry `retryable`, durably.
    ///
    /// - Parameter failure: The message of the failed attempt, recorded as the first attempt;
    ///   nil when it is queued without trying.
    /// - Returns: The committed entry.
    @discardableResult
    public func commit(failure: String? = nil) throws(StoreError) -> OutboxEntry {
        precondition(!isFinished, "commit after commit or discard")
        let claim = claim!
        if claim.state == .writing || claim.state == .inFlight { try claim.finishContent() }
        if let failure {
            try claim.recordFailure(OutboxFailure(verdict: .retryable, message: failure))
        } else {
            try claim.settleDurably(as: .retryable)
        }
        isFinished = true
        entry = claim.entry
        self.claim = nil
        return entry
    }

    /// Removes the entry: the upload worked and nothing needs to wait.
    public func discard() throws(StoreError) {
        precondition(!isFinished, "discard after commit or discard")
        isFinished = true
        defer { claim = nil }
        try claim!.discard()
    }
}

@available(*, unavailable)
extension OutboxEntryWriter: Sendable {}
