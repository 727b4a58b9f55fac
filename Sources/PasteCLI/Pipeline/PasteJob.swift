import PasteCore
import SystemInterop
import Upload

/// One paste on its way through send -> extract -> record -> deliver: its request, where its
/// text is kept should the upload fail, and what sending adds.
///
/// A fresh upload's jobs come from `SendStage.prepare` (after read, guard and build); `--retry`'s
/// from `RetryStage` (an outbox entry each). From there on both go the same way.
struct PasteJob {
    /// Where the paste's text is, and so what recording it means.
    enum Source {
        /// Text this run read: put in the outbox if the upload fails.
        case input(FreshText)
        /// An outbox entry `--retry` claimed: removed once sent, its failed attempt recorded
        /// otherwise.
        case outbox(ClaimedEntry)
    }

    /// Text this run read, and where it was going with which options (what the outbox keeps).
    ///
    /// (The payloads are structs, not tuples: a tuple's metadata is built at run time.)
    struct FreshText {
        var input: PasteInput
        var metadata: OutboxEntry.Metadata
    }

    /// An outbox entry claimed by this run, and its content file's size (statted once).
    struct ClaimedEntry {
        var claim: OutboxClaim
        var size: Int64
    }

    /// What is sent.
    var request: UploadRequest
    /// Where it goes (its result rule, its name in history).
    var service: ServiceProfile
    /// `-t`, for history and `--json`.
    var title: String?
    /// `-f`'s file name, for `--json`.
    var fileName: String?
    /// What the paste holds, for history and `--json`.
    var type = MediaType.plainText
    /// Where the text is.
    var source: Source
    /// The SHA-256 of in-memory text, taken before sending (the repeat check needs it).
    var digest: String?
    /// For a stream: the outbox entry it is teed into as it goes.
    var writer: OutboxEntryWriter?
    /// Held while the paste is made, so a concurrent `paste` of the same text waits for this
    /// one and then finds its URL in history.
    var repeatLock: FileLock?
    /// For a stream: its SHA-256, taken as the bytes go out (see `StreamDigest`).
    var streamDigest: StreamDigest?
}
