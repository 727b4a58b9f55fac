import FoundationEssentials
import PasteCore
import SecretGuard
import Stores
import SystemInterop
import Upload

/// Record, after extract: a paste that was made goes into the history (size and digest taken
/// once, here) and leaves the outbox; a paste that was not keeps its text in the outbox, as an
/// entry the failure settles `retryable` or `held` (`OutboxFailure`).
///
/// One path for "a paste was made", whatever brought the job: stdin's entry (written before
/// sending) and a `--retry` entry are removed once the URL is in history. On failure the text is
/// in the outbox, durably: stdin's entry records the failure (a stream's rest read into it
/// first), the clipboard's text and a `-f` file are copied in now, a `--retry` entry records
/// the failed attempt. The failure (`PasteFailure`) then carries where the text is: in the
/// outbox, not saved (74), or cut short, and the signal, for a run SIGINT, SIGTERM or SIGHUP
/// stopped.
///
/// What is stored passes the output funnel (`Output.shown`: titles, previews, failure messages).
struct RecordStage {
    var context: Context
    var output: Output
    var history: History
    var outbox: Outbox
    /// What stops the run's transfers, if anything does (then a failure is reported as the
    /// interruption it was).
    var interruption: Interruption?
    /// Whether the history keeps a preview of the text: not for text let go with a secret in
    /// it (`--force`, or the person's answer at the hotkey).
    var keepsPreviews = true

    init(context: Context, output: Output, outbox: Outbox, interruption: Interruption? = nil) {
        self.context = context
        self.output = output
        self.outbox = outbox
        self.interruption = interruption
        history = History(context: context)
    }

    /// The title as the history keeps it: masked, and dropped when it was let go with a
    /// secret in it (`--force`).
    private func storedTitle(_ title: String?) -> String? {
        guard let title, keepsPreviews || SecretGuard().scan(Array(title.utf8)).isEmpty else { return nil }
        return output.shown(title)
    }

    /// The one tail of a sent job, whether an upload or `--retry` sent it: the server's answer
    /// (or why there is none) read by extract, then recorded by how it went; a 429 or 503 that
    /// asked to be tried again later (`Retry-After`) sets when the outbox tries it next.
    func record(
        _ job: PasteJob, response: Result<UploadResponse, UploadError>, transfer: RunPlan.Transfer
    ) -> Result<PasteResult, PasteFailure> {
        record(
            job, nextAttempt: Self.requestedTime(response, transfer: transfer, context: context),
            answer: ExtractStage.extract(response, for: job, output: output))
    }

    /// When a 429 or 503 answer asked to be tried again (`Retry-After`), as a time.
    static func requestedTime(
        _ response: Result<UploadResponse, UploadError>, transfer: RunPlan.Transfer, context: Context
    ) -> Date? {
        guard case .success(let answer) = response, let delay = transfer.retryPolicy.requestedDelay(of: answer)
        else { return nil }
        return context.now().addingTimeInterval(delay.timeInterval)
    }

    /// Records `job` by how it went: `answer` is what extract read from the server's answer,
    /// or why there is none.
    ///
    /// - Parameter nextAttempt: when the server asked to be tried again (a 429 or 503's
    ///   `Retry-After`), for the outbox's next attempt; nil: after the backoff.
    func record(
        _ job: PasteJob, nextAttempt: Date? = nil, answer: Result<ExtractStage.Answer, PasteFailure>
    ) -> Result<PasteResult, PasteFailure> {
        switch answer {
        case .success(let made): .success(recordPaste(made, of: job))
        case .failure(let failure): .failure(keep(job, after: failure.cause, nextAttempt: nextAttempt))
        }
    }

    /// The history preview of an outbox entry's text, sent by `--retry`, `--outbox send` or the
    /// background flush (issue 40, item 5: `--pick` lists it by its first line, as a fresh
    /// one): its first line, unless the secret guard finds something in it (an entry sent
    /// with `--force` may hold a secret, and a preview must never keep one).
    static func preview(of claim: OutboxClaim) -> String? {
        guard let start = try? claim.readContentPrefix(upTo: HistoryRecord.previewWindow) else { return nil }
        return preview(ofStart: start)
    }

    /// The history preview of the masked copy `--redact` made of an entry's text and sent in
    /// its place (`PasteJob.ClaimedEntry.contentPath`), as `preview(of:)` makes the entry's.
    static func preview(ofFile path: String) -> String? {
        let start: [UInt8]
        do throws(Errno) {
            let file = try FileDescriptor.open(path, .readOnly)
            start = try file.read(atOffset: 0, upTo: HistoryRecord.previewWindow)
        } catch {
            return nil
        }
        return preview(ofStart: start)
    }

    /// The first line of `start`, unless the secret guard finds something in it.
    private static func preview(ofStart start: [UInt8]) -> String? {
        guard let preview = HistoryRecord.preview(of: start), SecretGuard().scan(Array(preview.utf8)).isEmpty
        else { return nil }
        return preview
    }

    /// Records a paste that was made: history, then the text's entry removed from the outbox.
    private func recordPaste(_ answer: ExtractStage.Answer, of job: PasteJob) -> PasteResult {
        // One look at where the text is (a switch copies what it binds): what was made.
        let size: Int64
        let digest: String
        let preview: String?
        switch job.source {
        case .input(let fresh):
            let input = fresh.input
            let entrySize = job.claim.flatMap { try? $0.contentSize() }
            size = input.bytes.map { Int64($0.count) } ?? entrySize ?? input.content.knownSize ?? answer.bytesSent
            let streamed = job.streamDigest.flatMap { $0.byteCount == size ? $0.finalizeHex() : nil }
            digest =
                job.digest ?? streamed ?? job.claim.map { Self.digest(ofFile: $0.contentDescriptorPath) }
                ?? {
                    if case .file(let path, _) = input.content { return Self.digest(ofFile: path) }
                    return ""
                }()
            // An image's bytes have no first line to show: `--pick` shows its type and size.
            preview =
                input.type.category == .text && keepsPreviews
                ? input.bytes.flatMap { HistoryRecord.preview(of: $0) } : nil
        case .outbox(let claimed):
            size = claimed.size
            // (What `--redact` masked in it now was sent from a copy: its digest and first line.)
            digest =
                claimed.sentDigest
                ?? job.claim.map { $0.entry.metadata.sha256 ?? Self.digest(ofFile: $0.contentDescriptorPath) } ?? ""
            preview =
                job.type.category == .text && keepsPreviews
                ? (claimed.sentDigest == nil
                    ? job.claim.flatMap(Self.preview(of:)) : Self.preview(ofFile: claimed.contentPath)) : nil
        }
        let outcome = answer.outcome
        // A living paste's record first: a run killed after this never makes it a second time.
        let living = LivingRecorder.pasted(job, outcome: outcome, context: context, output: output)
        let type = job.type.essence
        let deletion = outcome.deletion.map(Deletion.init(answered:))
        var record = HistoryRecord(
            time: context.now(), service: job.service.name, url: outcome.url, byteCount: size, sha256: digest,
            title: storedTitle(job.title), preview: preview.map(output.shown), options: job.optionsKey, type: type)
        record.deletion = deletion
        record.living = living?.name
        let masked = job.masked
        if !masked.isEmpty { record.redacted = masked.map(HistoryRecord.Redacted.init(_:)) }
        var historyFailure: StoreError?
        // The record before anyone can see the URL (stdout, the clipboard's owner): it is the only
        // copy of the deletion token, and a run started as soon as this one returns finds its own
        // URL and its text through it. One `O_APPEND` write (`History.append`, issue 44, item 3).
        do { try history.append(record) } catch { historyFailure = error }
        if let historyFailure, let claim = job.claim {
            // Made, and recorded nowhere yet: the entry stays, held, with the link (issue 45,
            // item 4), so a run nobody watches (the background flush, a `--retry` from cron)
            // never leaves a paste that nothing records.
            do {
                try claim.recordPasted(
                    url: outcome.url, deletion: deletion?.text,
                    message: "pasted, but the history could not record it: \(historyFailure.message)")
                output.note(
                    "could not record the paste in history: \(historyFailure.message); outbox entry \(claim.id) "
                        + "keeps its link ('paste --outbox' shows it)")
            } catch {
                output.error(
                    "the paste was made, but neither the history (\(historyFailure.message)) nor outbox entry "
                        + "\(claim.id) (\(error.message)) could record its link")
            }
        } else if let historyFailure {
            output.note("could not record the paste in history: \(historyFailure.message)")
        } else if let claim = job.claim {
            do {
                try claim.recordSuccess()
            } catch {
                // Made, but still listed: it must not go again by itself.
                _ = try? claim.recordFailure(
                    OutboxFailure(verdict: .held, message: "sent as \(outcome.url), but could not be removed"))
                output.error(
                    "the paste was made, but outbox entry \(claim.id) could not be removed (\(error.message)); "
                        + "'paste --outbox drop \(claim.id)' removes it")
            }
        }
        var result = PasteResult(
            url: outcome.url, service: job.service.name, byteCount: size, sha256: digest, title: job.title,
            deletion: deletion, type: type,
            isKeyBearing: KeyBearingURL.isKeyBearing(job))
        result.living = living
        result.guessedLanguage = job.request.guessedLanguage
        result.masked = masked
        return result
    }

    // MARK: - Failures

    /// Keeps the text of a paste that was not made, and says where it is in the failure. A fresh
    /// text that can never be sent (its cause's disposition `drop`: content refused as it streamed
    /// for what it is, binary or not UTF-8; a URL that cannot be sent, a config error, never a
    /// reason to wait) is not kept, its partial copy removed (the caller still has it). A secret
    /// the guard saw in a stream is kept whole and held: the rest of stdin is read into the
    /// entry, and `paste --outbox send ID --force` sends it.
    func keep(
        _ job: PasteJob, after cause: any PasteError, nextAttempt requestedAttempt: Date? = nil
    ) -> PasteFailure {
        if !cause.disposition.isKeptWhenFresh, case .input = job.source {
            try? job.claim?.discard()
            return PasteFailure(cause: cause, text: .unchanged)
        }
        let signal = interruption?.signal
        let isOnClipboard: Bool
        if case .input(let fresh) = job.source {
            isOnClipboard = fresh.input.isFromSelection
        } else {
            isOnClipboard = false
        }
        // Backoff is between `--retry` runs: a fresh upload's text is due at once (unless the
        // server asked for a wait), and so is a transfer the person stopped, which says nothing
        // against the service.
        let nextAttempt: Date?
        switch (job.source, signal) {
        case (_, .some): nextAttempt = context.now()
        case (.input, nil): nextAttempt = requestedAttempt ?? context.now()
        case (.outbox, nil): nextAttempt = requestedAttempt
        }
        do {
            guard let entry = try settle(job, after: cause, nextAttempt: nextAttempt, isInterrupted: signal != nil)
            else {
                // A stream the signal cut short: never whole, removed.
                return PasteFailure(cause: cause, text: signal == nil ? .unchanged : .cutShort, signal: signal)
            }
            return PasteFailure(
                cause: cause, text: .outbox(id: entry.id, state: entry.metadata.effectiveState), signal: signal)
        } catch let storeError {
            return PasteFailure(
                cause: cause, text: .notSaved(TextNotSaved(failure: storeError, isOnClipboard: isOnClipboard)),
                signal: signal)
        }
    }

    /// Puts the failure on the text's entry (making one for text not in the outbox yet), durably;
    /// nil when the entry was removed instead (a stream the run's interruption cut short).
    ///
    /// - Throws: `StoreError` when the outbox cannot take it, or the rest of a stream or a file
    ///   cannot be read.
    private func settle(
        _ job: PasteJob, after error: any PasteError, nextAttempt: Date?, isInterrupted: Bool
    ) throws(StoreError) -> OutboxEntry? {
        let failure = OutboxFailure(error, describedBy: output)
        if let claim = job.claim {
            if case .input(let fresh) = job.source, try !claim.isWhole() {
                // A stream whose end was not reached: cut short by the signal, it was never
                // whole and goes; else the rest of stdin is read into it now.
                if isInterrupted {
                    try claim.discard()
                    return nil
                }
                do {
                    try completeStream(fresh.input, into: claim)
                } catch {
                    try? claim.discard()
                    throw error
                }
            }
            return try claim.recordFailure(failure, nextAttempt: nextAttempt)
        }
        guard case .input(let fresh) = job.source else { return nil }
        if let journalFailure = job.journalFailure { throw journalFailure }
        return try fresh.journal(in: outbox).recordFailure(failure, nextAttempt: nextAttempt)
    }

    /// Appends to a streamed input's entry what the failed upload never read: the rest of the
    /// start kept in memory, then the descriptor to its end, and records it whole. The tee
    /// holds exactly what was consumed, in order, so the entry ends up byte-exact whatever point
    /// the transfer died at.
    ///
    /// - Throws: `StoreError`: the entry cannot take it, or (`cannotRead`) stdin failed.
    private func completeStream(_ input: PasteInput, into claim: OutboxClaim) throws(StoreError) {
        guard case .stream(let descriptor, let prefix, _, _) = input.content else { return }
        let kept = Int(try claim.contentSize())
        if kept < prefix.count { try claim.append(Array(prefix[kept...])) }
        try Outbox.copy(from: input.label, into: claim) { body in
            try FileDescriptor.withUnowned(descriptor) { try $0.forEachChunk(body) }
        }
        try claim.finishContent()
    }

    // MARK: - Files

    /// The size of a file, or nil.
    static func fileSize(_ path: String?) -> Int64? {
        guard let path else { return nil }
        return try? FileSystem.status(ofPath: path).size
    }

    /// The SHA-256 of a file, read in chunks; "" when it cannot be read.
    static func digest(ofFile path: String) -> String {
        ContentDigest.sha256(ofFile: path) ?? ""
    }
}

extension OutboxFailure {
    /// The failure of an upload that ended with `error`, its message as the output funnel
    /// shows it (masked values stay masked in the outbox), masked before it is cut so no cut
    /// leaves half of a secret.
    init(_ error: any Error, describedBy output: Output) {
        self.init(error, redaction: output.shown)
    }
}
