import PasteCore
import SystemInterop
import Upload

/// Record, after extract: a paste that was made goes into the history (size and digest taken
/// once, here); a paste that was not keeps its text in the outbox.
///
/// One path for "a paste was made", whatever brought the job: a fresh upload's stream copy is
/// discarded once the paste is recorded, a `--retry` entry is removed. On failure a fresh
/// upload's text is written to the outbox (fsynced before paste exits) and the failure says so
/// (`KeptInOutbox`); a `--retry` entry records the failed attempt.
///
/// What is stored passes the output funnel (`Output.shown`: titles, previews, failure messages).
struct RecordStage {
    var context: Context
    var output: Output
    var history: History

    init(context: Context, output: Output) {
        self.context = context
        self.output = output
        history = History(context: context)
    }

    /// Records `job` by how it went: `answer` gives what extract read from the server's answer,
    /// or throws why there is none.
    func record(_ job: PasteJob, answer: () throws -> ExtractStage.Answer) -> Result<PasteResult, any Error> {
        do {
            return .success(try recordPaste(try answer(), of: job))
        } catch {
            return .failure(keep(job, after: error))
        }
    }

    /// Records a paste that was made: history, then the text's copy in the outbox removed.
    ///
    /// - Throws: only when a `--retry` entry cannot be removed (the entry then records it).
    private func recordPaste(_ answer: ExtractStage.Answer, of job: PasteJob) throws -> PasteResult {
        // One look at where the text is (a switch copies what it binds): what was made, and
        // the outbox entry to remove once it is recorded.
        let size: Int64
        let digest: String
        let preview: String?
        let sentEntry: OutboxEntry?
        switch job.source {
        case .input(let fresh):
            let input = fresh.input
            size =
                input.bytes.map { Int64($0.count) } ?? Self.fileSize(job.writer?.contentPath) ?? input.content
                .knownSize ?? answer.bytesSent
            let streamed = job.streamDigest.flatMap { $0.byteCount == size ? $0.finalizeHex() : nil }
            digest =
                job.digest ?? streamed ?? job.writer.map { Self.digest(ofFile: $0.contentPath) }
                ?? {
                    if case .file(let path, _) = input.content { return Self.digest(ofFile: path) }
                    return ""
                }()
            // An image's bytes have no first line to show: `--pick` shows its type and size.
            preview = input.type.category == .text ? input.bytes.flatMap { HistoryRecord.preview(of: $0) } : nil
            sentEntry = nil
        case .outbox(let claimed):
            size = claimed.size
            digest = Self.digest(ofFile: claimed.claim.entry.contentPath)
            preview = nil
            sentEntry = claimed.claim.entry
        }
        let outcome = answer.outcome
        let type = job.type.essence
        let isURLDeletion = outcome.deletion?.hasPrefix("http") == true
        let record = HistoryRecord(
            time: context.now(), service: job.service.name, url: outcome.url, byteCount: size, sha256: digest,
            title: job.title.map(output.shown), deletionToken: isURLDeletion ? nil : outcome.deletion,
            deletionURL: isURLDeletion ? outcome.deletion : nil, preview: preview.map(output.shown),
            type: type)
        do { try history.append(record) } catch {
            output.note("could not record the paste in history: \(error.message)")
        }
        if let sentEntry {
            try Outbox(context: context).remove(sentEntry)
        } else {
            try? job.writer?.discard()
        }
        return PasteResult(
            url: outcome.url, service: job.service.name, byteCount: size, sha256: digest, title: job.title,
            deletion: outcome.deletion, type: type)
    }

    // MARK: - Failures

    /// Keeps the text of a paste that was not made, and says so in the error. Content refused as
    /// it streamed (binary, not UTF-8) can never be sent: its partial copy is removed instead.
    func keep(_ job: PasteJob, after error: any Error) -> any Error {
        if case .contentRefused? = error as? UploadError, case .input = job.source {
            try? job.writer?.discard()
            return error
        }
        switch job.source {
        case .input(let fresh):
            guard keepInOutbox(fresh.input, metadata: fresh.metadata, writer: job.writer, after: error),
                let failure = error as? any PasteError
            else { return error }
            return KeptInOutbox(failure: failure)
        case .outbox(let claimed):
            return keep(claimed.claim, after: error)
        }
    }

    /// Records a failed attempt at a claimed outbox entry (`--retry`), which stays for the next.
    func keep(_ claim: OutboxClaim, after error: any Error) -> any Error {
        _ = try? Outbox(context: context).markFailed(claim.entry, error: output.shown(Self.message(of: error)))
        return error
    }

    /// Puts the text of a failed upload in the outbox; true when it is there.
    private func keepInOutbox(
        _ input: PasteInput, metadata: OutboxEntry.Metadata, writer: OutboxEntryWriter?, after error: any Error
    ) -> Bool {
        let message = output.shown(Self.message(of: error))
        let outbox = Outbox(context: context)
        do {
            if let writer {
                try completeStream(input, into: writer)
                _ = try writer.commit(failure: message)
            } else if let bytes = input.bytes {
                try outbox.store(content: bytes, metadata: metadata, failure: message)
            } else if case .file(let path, _) = input.content {
                try Self.store(copyOf: path, in: outbox, metadata: metadata, failure: message)
            } else {
                return false
            }
            return true
        } catch let storeError {
            output.report((storeError as? any PasteError) ?? InternalFailure(detail: "\(storeError)"))
            return false
        }
    }

    /// The failure as the person reads it.
    static func message(of error: any Error) -> String {
        (error as? any PasteError)?.message ?? "\(error)"
    }

    /// Appends to a streamed input's outbox copy what the failed upload never read: the rest of
    /// the start kept in memory, then the descriptor to its end. The tee holds exactly what was
    /// consumed, in order, so the entry ends up byte-exact whatever point the transfer died at.
    private func completeStream(_ input: PasteInput, into writer: OutboxEntryWriter) throws {
        guard case .stream(let descriptor, let prefix, _) = input.content else { return }
        let kept = Int(Self.fileSize(writer.contentPath) ?? 0)
        if kept < prefix.count { try writer.append(Array(prefix[kept...])) }
        do {
            try FileDescriptor.withUnowned(descriptor) { try $0.forEachChunk { try writer.append(Array($0)) } }
        } catch let error as Errno {
            throw InputError.unreadable(path: input.label, reason: error.message)
        }
    }

    /// Copies a file into a new outbox entry in chunks (a large `-f` file that failed to send).
    private static func store(
        copyOf path: String, in outbox: Outbox, metadata: OutboxEntry.Metadata, failure: String
    ) throws {
        let writer = try outbox.makeEntry(metadata)
        do {
            try FileSystem.forEachChunk(ofFile: path) { try writer.append(Array($0)) }
        } catch let error as Errno {
            try? writer.discard()
            throw InputError.unreadable(path: path, reason: error.message)
        }
        _ = try writer.commit(failure: failure)
    }

    // MARK: - Files

    /// The size of a file, or nil.
    static func fileSize(_ path: String?) -> Int64? {
        guard let path else { return nil }
        return try? FileSystem.status(ofPath: path).size
    }

    /// The SHA-256 of a file, read in chunks; "" when it cannot be read.
    static func digest(ofFile path: String) -> String {
        var hasher = SHA256()
        do { try FileSystem.forEachChunk(ofFile: path) { hasher.update($0) } } catch { return "" }
        return SHA256.hex(hasher.finalize())
    }
}
