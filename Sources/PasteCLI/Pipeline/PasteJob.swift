import PasteCore
import SecretGuard
import Stores
import SystemInterop
import Upload

/// One paste on its way through send -> extract -> record -> deliver: its request, where its
/// text is kept while it is sent (and should the upload fail), and what sending adds.
///
/// A fresh upload's jobs come from `SendStage.prepare` (after read, guard and build); `--retry`'s
/// and `--outbox send`'s from `RetryStage` (an outbox entry each). From there on both go the
/// same way.
struct PasteJob {
    /// Where the paste's text came from, and so what recording it means.
    enum Source {
        /// Text this run read: removed from the outbox once recorded (stdin, written there
        /// before sending), or put there if the upload fails (the clipboard, `-f` files).
        case input(FreshText)
        /// An outbox entry this run claimed: removed once sent, its failed attempt recorded
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

    /// An outbox entry claimed by this run: its content's size (statted once), the options it
    /// is sent with and what was masked in what it carries (`RetryStage.job(for:)`).
    struct ClaimedEntry {
        var size: Int64
        /// Its options as sent: its metadata's, with the title and the language masked where
        /// this run masked them (a fallback takes them from here).
        var options: PasteOptions
        /// What was masked in the paste: its text's and its title's as its metadata kept them
        /// (`OutboxEntry.Metadata.redacted`), with its service's fields as masked now.
        var masked: [MaskedSecret] = []
        /// Where its text is read from: the claim's content (`OutboxClaim.contentDescriptorPath`),
        /// or the masked copy `--redact` made of it (`RetryStage.job(for:)`), which a fallback
        /// sends too.
        var contentPath: String
        /// The SHA-256 of what is sent, when it is not the entry's own (a masked copy): the
        /// history records the paste's digest, so a later paste of the unmasked text is never
        /// taken for a repeat of it.
        var sentDigest: String?
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
    /// Where the text came from.
    var source: Source
    /// `PasteOptions.repeatKey` of the paste: history keeps it, so the repeat window reuses a
    /// URL only for a paste made the same way.
    var optionsKey: String
    /// The SHA-256 of in-memory text, taken before sending (the repeat check needs it).
    var digest: String?
    /// The outbox entry that holds the text while it is sent: stdin's, written before the
    /// request starts (a stream's as it streams), or the entry `--retry` claimed. Nil for the
    /// clipboard and `-f` files (the text is still there; it goes to the outbox if the upload
    /// fails), and when the outbox could not be written (`journalFailure`).
    var claim: OutboxClaim?
    /// Why stdin's text could not be put in the outbox before sending: it is sent anyway, and
    /// if the upload fails the run says the text could not be saved.
    var journalFailure: StoreError?
    /// Held while the paste is made, so a concurrent `paste` of the same text waits for this
    /// one and then finds its URL in history.
    var repeatLock: FileLock?
    /// For a stream: its SHA-256, taken as the bytes go out (see `StreamDigest`).
    var streamDigest: StreamDigest?

    /// Marks the entry in flight, just before the request starts: from then on a run killed
    /// without a word leaves an entry the next `--retry` holds instead of sending (the server
    /// may have made the paste).
    ///
    /// A fresh text's entry that cannot be marked is not trusted to tell: it is removed, and
    /// the text goes as if the outbox could not take it (said if the upload fails).
    ///
    /// - Throws: for an entry `--retry` claimed, why it could not be marked (it is then not
    ///   sent, and stays as it was).
    mutating func markInFlight() throws(StoreError) {
        guard let claim, claim.state != .inFlight else { return }
        do {
            try claim.markInFlight()
        } catch {
            guard case .input = source else { throw error }
            try? claim.discard()
            self.claim = nil
            journalFailure = error
        }
    }

    /// What a streamed body's end does: the entry's content is whole from now on (its length
    /// and digest recorded), whatever the server answers later.
    var streamEnd: (() -> Void)? {
        guard let claim, let streamDigest else { return nil }
        return {
            _ = try? claim.finishContent(sha256: streamDigest.finalizeHex())
        }
    }
}
