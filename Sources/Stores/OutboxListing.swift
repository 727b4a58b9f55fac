import FoundationEssentials
import PasteCore
import SystemInterop

/// What is in the outbox: its entries, what the recovery pass that made the listing did, and what
/// it could not read.
public struct OutboxListing: Sendable, Equatable {
    /// One entry as `paste --outbox` shows it.
    public struct Item: Sendable, Equatable {
        /// The entry, with its metadata.
        public var entry: OutboxEntry
        /// Whether a live run holds it: it is being written or sent right now.
        public var isBusy: Bool
        /// The content's length on disk.
        public var contentSize: Int64
        /// The first line of a text entry, shortened and cleaned (`HistoryRecord.preview`); nil
        /// for binary content (see `entry.metadata.contentType`) or a text with no visible line.
        public var preview: String?

        /// The entry's short id.
        public var id: String { entry.id }
        /// Where it stands.
        public var state: OutboxEntry.State { entry.metadata.effectiveState }

        /// Whether the content is whole: the length recorded, or (in entries written before
        /// lengths were) whatever is there.
        public var isWhole: Bool {
            OutboxEntry.Metadata.isWhole(
                byteCount: entry.metadata.byteCount, state: entry.metadata.state, contentSize: { contentSize })
        }

        /// Whether `paste --retry` sends it at `now`: retryable, whole, no run holding it, and
        /// its backoff over.
        ///
        /// A next attempt implausibly far ahead (`isScheduledImplausiblyFar`) counts as due: it
        /// was written while the clock was wrong (a dead RTC battery, a VM restored from a
        /// snapshot), and would otherwise wait for that date, silently.
        public func isDue(at now: Date) -> Bool {
            isSendable && (entry.metadata.nextAttempt.map { $0 <= now } ?? true || isScheduledImplausiblyFar(at: now))
        }

        /// Whether `paste --retry` run by a person sends it, whatever its backoff: retryable,
        /// whole, and no run holding it.
        public var isSendable: Bool {
            !isBusy && isWhole && state == .retryable
        }

        /// How long until an unattended `paste --retry` sends it (its backoff, or the wait the
        /// server asked for); nil when it is due now or is not retryable.
        public func wait(at now: Date) -> Duration? {
            guard state == .retryable, !isDue(at: now), let next = entry.metadata.nextAttempt else { return nil }
            return .milliseconds(Int64((next.timeIntervalSince(now) * 1000).rounded(.up)))
        }

        /// Whether the entry's next attempt is further ahead than any backoff or `Retry-After`
        /// paste honours would put it (`OutboxListing.implausibleWait`).
        public func isScheduledImplausiblyFar(at now: Date) -> Bool {
            guard let next = entry.metadata.nextAttempt else { return false }
            return next.timeIntervalSince(now) > OutboxListing.implausibleWait
        }

        /// How long ago the entry was made.
        public func age(at now: Date) -> Duration {
            .milliseconds(Int64((now.timeIntervalSince(entry.metadata.created) * 1000).rounded(.down)))
        }
    }

    /// How far ahead (seconds) a next attempt may be before it is taken for a clock that was
    /// wrong when it was written: a week, far past the longest backoff (six hours) and any
    /// sane `Retry-After`.
    public static let implausibleWait: Double = 7 * 24 * 3600

    /// The entries, oldest first.
    public var items: [Item] = []
    /// What the recovery pass did, one per file or entry it settled.
    public var recovered: [OutboxRecovery] = []
    /// What could not be read or settled; none stops the rest (each is a `StoreError`).
    public var problems: [StoreError] = []

    /// An empty listing.
    public init() {}
}

/// What a recovery pass did with something no live run explains: an entry whose run died, or a
/// file left by one.
public struct OutboxRecovery: Sendable, Equatable {
    /// What was done.
    public enum Action: Sendable, Equatable {
        /// A whole content written before anything was sent: the entry is now `retryable`.
        case completed
        /// An entry in flight when its run died: now `held`, since the paste may exist.
        case held
        /// An entry whose content was never whole (a stream cut short): removed.
        case removedIncomplete(byteCount: Int64)
        /// A content without metadata, older than `Outbox.strandedAge`: removed.
        case removedStranded(byteCount: Int64)
        /// Metadata that does not decode, older than `Outbox.strandedAge`: removed, with its
        /// content (whose wholeness cannot be known).
        case removedCorrupt
        /// A symbolic link, FIFO or device where a content should be: removed, never read.
        case removedNotRegular(kind: FileStatus.Kind)
        /// A leftover temporary file (of a metadata write a killed run never finished).
        case removedTemporary
        /// Metadata without a content file, older than `Outbox.strandedAge`: removed.
        case removedOrphanMetadata
    }

    /// The entry's name (or the stray file's name).
    public var name: String
    /// The file it was about (the content, the metadata or the temporary file).
    public var path: String
    /// What was done.
    public var action: Action

    /// The entry's short id.
    public var id: String { OutboxEntry.id(ofName: name) }

    /// One line for the person (PasteCLI prefixes `paste: `).
    public var message: String {
        switch action {
        case .completed:
            "outbox entry \(id) is complete: its run ended before sending it; 'paste --retry' sends it"
        case .held:
            "outbox entry \(id) is held: its run ended while sending it and the paste may have been made; "
                + "'paste --outbox send \(id)' sends it anyway"
        case .removedIncomplete(let byteCount):
            "removed outbox entry \(id) (\(byteCount) bytes): its text was never whole (a stream cut short)"
        case .removedStranded(let byteCount):
            "removed '\(path)' (\(byteCount) bytes): a content without metadata, left by a run that was killed"
        case .removedCorrupt:
            "removed '\(path)' and its content: the metadata is unreadable"
        case .removedNotRegular(let kind):
            "removed '\(path)': \(StoreError.describe(kind)), never read"
        case .removedTemporary:
            "removed the leftover '\(path)'"
        case .removedOrphanMetadata:
            "removed '\(path)': metadata without a content"
        }
    }
}

/// What `Outbox.dropAll()` did.
public struct OutboxDropResult: Sendable, Equatable {
    /// The ids of the entries removed.
    public var dropped: [String] = []
    /// The ids of the entries a live run holds, left in place.
    public var busy: [String] = []
}
