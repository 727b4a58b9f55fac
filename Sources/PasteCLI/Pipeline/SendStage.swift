import PasteCore
import Stores
import Synchronization
import SystemInterop
import Upload

/// Send, after build: each request through libcurl (or a TCP socket), retried only where a
/// retry cannot make a second paste; several at once on one multi handle.
///
/// Before the uploader exists, `prepare` turns each request into a job: a repeat is answered
/// from history instead (holding the repeat lock, so a second press of the hotkey waits for the
/// first), and text read from stdin is put in the outbox before its request starts (the
/// journal: whole input at once, a stream teed into its entry as it goes), so that a run killed
/// at any moment leaves it there. The clipboard (which still holds the text) and `-f` files (the
/// file is the copy) go to the outbox only if their upload fails (`RecordStage`). `--retry`
/// enters here with jobs made from outbox entries (`RetryStage`) and sends them one by one
/// with `perform`.
///
/// Every transfer can be stopped by SIGINT, SIGTERM or SIGHUP (`Interruption`, asked from
/// libcurl's progress callback and from an interrupted read of stdin); the job still reaches
/// `RecordStage`, which says where the text is.
///
/// `streamObserver(for:)` sees every byte of a stream once, in order, as it is sent (the
/// digest). The secret guard on the rest of a stream rides on the request's content inspection
/// instead (`GuardStage.streamChecks`), which can stop the transfer before the request is
/// complete.
struct SendStage {
    /// How many uploads of a batch run at once on the multi handle.
    static let batchConcurrency = 6

    /// What sends the requests: libcurl by default (`Uploader.factory`), a test's script in
    /// the in-process harness.
    private let uploader: any Transport
    /// Waits out a retry's backoff (`Seams.sleep`).
    private let sleep: @Sendable (Duration, _ unless: () -> Bool) -> Bool
    private let progressBar: ProgressBar.Driver?
    private let transfer: RunPlan.Transfer
    private let output: Output
    /// What stops a transfer (nil: nothing does, as for `--delete`).
    private let interruption: Interruption?
    /// What shows "Retrying…" at a hotkey before a retry's backoff (nil: nothing does).
    var retrying: RetryFeedback?
    /// The services whose text goes on to a fallback: a refused connection to one of them is not
    /// asked again in the run, so a dead host hands over at once (`UploadError.isRefusedConnection`).
    var handsOver: Set<String> = []
    /// Whether the `-v` trace shows its URLs shortened: on from the first job that gives a
    /// key-bearing URL (`KeyBearingURL.isKeyBearing(_:)`), whichever way it is sent (a fresh
    /// paste, a batch, a fallback, `--retry`, `--outbox send`, the background flush).
    private let traceMask = KeyBearingTraceMask()

    /// Makes the uploader for the run (warning on stderr when `--insecure` turned TLS checks off).
    ///
    /// - Parameter seams: the run's transport and backoff wait (`Seams`).
    init(transfer: RunPlan.Transfer, output: Output, interruption: Interruption? = nil, seams: Seams = .live) {
        self.transfer = transfer
        self.output = output
        self.interruption = interruption
        let traceMask = traceMask
        let progressBar =
            transfer.showsProgress
            ? ProgressBar.Driver(colored: output.usesColor) { [streams = output.streams] in
                streams.write($0, to: .error)
            }
            : nil
        self.progressBar = progressBar
        var options = transfer.transport
        if transfer.isInsecure {
            output.warning("--insecure: TLS certificates and host names are not verified")
        }
        if let progressBar {
            options.progress = { sent, total in progressBar.update(sent: sent, total: total) }
        }
        if transfer.isVerbose {
            options.verbose = { line in
                output.trace(traceMask.apply(line))
            }
        }
        if let interruption {
            options.shouldStop = { interruption.hasArrived }
        }
        uploader = seams.transport(options)
        sleep = seams.sleep
    }

    /// Erases the progress bar, if one was drawn, once the run's uploads are over.
    func finish() {
        progressBar?.finish()
    }

    // MARK: - Before sending

    /// What to do with one paste of an upload.
    enum Preparation {
        /// Answered from history: the same text went to the same service, the same way,
        /// moments ago.
        case repeated(PasteResult)
        /// To be sent.
        case send(PasteJob)
    }

    /// Answers a repeat from history, or gets the upload ready to send: for stdin, the entry its
    /// text went into as it was read.
    ///
    /// - Parameters:
    ///   - service: where the paste goes (`ReadStage.Reading.route(of:)`).
    ///   - inputCount: how many pastes the run makes (only a run of one waits for a concurrent
    ///     paste of the same text).
    ///   - outbox: the run's outbox.
    ///   - journaled: stdin's entry, written as it was read (`PasteInput.standardInput`; a
    ///     stream's holds its start, and its request's tee continues it), or why it could not
    ///     be; nil when none was made (the clipboard, files, a dry run).
    static func prepare(
        _ request: UploadRequest, _ input: PasteInput, service: ServiceProfile, plan: RunPlan, options: PasteOptions,
        history: History, inputCount: Int, outbox: Outbox, context: Context,
        journaled: Result<OutboxClaim, StoreError>? = nil
    ) -> Preparation {
        // The repeat check and the outbox work on the bytes, whatever they are: the same image
        // twice within the window reuses the URL too.
        if plan.repeatWindow != nil, let own = ownURL(in: input, history: history) {
            if case .success(let claim) = journaled { try? claim.discard() }
            return .repeated(own)
        }
        let digest = input.bytes.map(ContentDigest.sha256)
        let optionsKey = options.repeatKey
        var repeatLock: FileLock?
        if let window = plan.repeatWindow, let digest {
            // Another paste of the same text to the same service may be under way (a hotkey
            // pressed twice): wait for it, then its URL is in history. Only a run of one paste
            // waits: a batch would hold several locks of one folder at once (and flock locks of
            // one process on one file exclude each other).
            if inputCount == 1 {
                repeatLock = try? FileLock(
                    path: repeatLockPath(digest: digest, service: service.name, context: context), kind: .exclusive)
            }
            // Keyed by the options too: a private paste never gets a public paste's URL. The run's
            // service answers for its fallback chain: a text that fell back moments ago is
            // there, and the same text again is not pasted a second time on the fallback.
            let chain = [service] + (service.name == plan.route.service.name ? plan.fallbacks : [])
            for candidate in chain {
                guard
                    let earlier = try? history.recent(
                        sha256: digest, service: candidate.name, options: optionsKey, within: window)
                else { continue }
                // The journal's entry is not needed: the text is pasted already.
                if case .success(let claim) = journaled { try? claim.discard() }
                return .repeated(
                    PasteResult(
                        url: earlier.url, service: candidate.name, byteCount: earlier.byteCount, sha256: digest,
                        title: earlier.title, deletion: earlier.deletion,
                        type: input.type.essence, isRepeat: true,
                        isKeyBearing: KeyBearingURL.isKeyBearing(service: candidate, isPrivate: options.isPrivate)))
            }
        }
        var metadata = Self.metadata(of: input, service: service, plan: plan, options: options, context: context)
        metadata.sha256 = digest
        var job = PasteJob(
            request: request, service: service, title: options.title, fileName: input.fileName, type: input.type,
            source: .input(PasteJob.FreshText(input: input, metadata: metadata)), optionsKey: optionsKey,
            digest: digest, repeatLock: repeatLock)
        // The journal: stdin's text is nowhere else, so it went into the outbox as it was read
        // (`PasteInput.standardInput`; the page cache is enough against kill -9, fsynced once a
        // failure is known). Should the outbox refuse, the text is sent anyway and a failure
        // says so.
        switch journaled {
        case .success(let claim)?:
            job.claim = claim
            // Made before the read: now it says everything (a prompted title, the digest).
            try? claim.describe(metadata)
            // A stream: its request's tee continues the entry as it is sent, whole at its end.
            if case .stream = input.content { job.streamDigest = StreamDigest() }
        case .failure(let error)?:
            job.journalFailure = error
        case nil:
            // A living paste's text is journaled whatever it came from: an update that fails
            // waits in the outbox, and a newer one replaces it there (`LivingStage`). So is
            // stdin masked by `--redact` (`GuardStage.mask`), which was not journaled as it was
            // read: its masked text, the only one the outbox may hold, is nowhere else (in
            // memory, or past that in the run's unnamed copy, copied in a chunk at a time).
            if (service.living != nil && input.bytes != nil)
                || (!input.masked.isEmpty && input.isStandardInput && input.isMaskable)
            {
                do {
                    job.claim = try PasteJob.FreshText(input: input, metadata: metadata).journal(in: outbox)
                } catch {
                    job.journalFailure = error
                }
            }
        }
        return .send(job)
    }

    /// How many of the newest history records a clipboard holding a URL is compared with.
    static let ownURLRecords = 16
    /// The longest clipboard text taken for a URL paste made (longer is never one of its URLs).
    static let ownURLMaximumLength = 8_192

    /// The paste whose URL the clipboard holds, when it holds nothing else (blanks around it
    /// aside) and the URL is one of the last `ownURLRecords` in history: after a press of the
    /// hotkey, the clipboard holds the URL, and a second press must not paste the link (issue
    /// 45, item 5). Text from stdin or a file is pasted as given, and `--new` pastes anything.
    static func ownURL(in input: PasteInput, history: History) -> PasteResult? {
        guard input.isFromSelection, input.type.category == .text, let bytes = input.bytes,
            bytes.count <= ownURLMaximumLength
        else { return nil }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0d).contains(byte) }
        let trimmed = Array(bytes.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        guard trimmed.starts(with: Array("http".utf8)), !trimmed.contains(where: isSpace) else {
            return nil
        }
        let url = String(decoding: trimmed, as: UTF8.self)
        guard let (age, record) = try? history.recentRecord(url: url, among: ownURLRecords) else { return nil }
        var result = PasteResult(
            url: record.url, service: record.service, byteCount: record.byteCount, sha256: record.sha256,
            title: record.title, deletion: record.deletion, type: record.type ?? "text/plain", isRepeat: true,
            // (A fragment is how a URL carries its key: PrivateBin's.)
            isKeyBearing: record.url.contains("#"))
        result.ownURLAge = age
        return result
    }

    /// What the outbox keeps about `input`'s paste.
    static func metadata(
        of input: PasteInput, service: ServiceProfile, plan: RunPlan, options: PasteOptions, context: Context
    ) -> OutboxEntry.Metadata {
        var metadata = OutboxEntry.Metadata(
            service: service.name, serviceURL: plan.adHocURL, title: options.title, language: options.language,
            isPrivate: options.isPrivate,
            expiry: options.neverExpires ? PrivateBin.never : options.expirySeconds.map(String.init),
            fileName: input.fileName, created: context.now(),
            burnsAfterReading: options.burnsAfterReading ? true : nil,
            // An image or a binary file is kept byte-exact and retried as a file.
            contentType: input.type.category == .text ? nil : input.type.name)
        metadata.living = service.living?.name
        metadata.livingAction = service.living.map { $0.isCreate ? .create : .update }
        // What `--redact` masked, so a `--retry` that sends it records it in the history too.
        if !input.masked.isEmpty { metadata.redacted = input.masked.map(HistoryRecord.Redacted.init(_:)) }
        // Whether masking was asked for: `--redact`, or the person's answer "Upload with secrets
        // masked" at a hotkey; so a `--retry` masks as this run did (`RetryPlan.masking(of:)`).
        metadata.isMaskingRequested = plan.masking.isRequested || input.isMaskingChosen
        return metadata
    }

    /// The lock file for uploads of one text to one service.
    ///
    /// Sixteen per service, chosen by the digest's first hex digit: the same text always meets
    /// the same lock, different texts rarely wait for each other, and the folder never fills
    /// with one file per paste.
    static func repeatLockPath(digest: String, service: String, context: Context) -> String {
        let folder = (context.runtimeDirectory.map { $0 + "/paste" }) ?? context.pasteStateDirectory
        try? AtomicFile.createFolder(folder)
        let safeService = String(service.map { $0.isLetter || $0.isNumber ? $0 : "_" })
        return folder + "/sending-\(safeService)-\(digest.prefix(1)).lock"
    }

    // MARK: - Sending

    /// Sends every job: a single one with retries, several on one libcurl multi handle
    /// (connections reused, transfers overlapped); the answers in the order given.
    ///
    /// Mark each job in flight first (`PasteJob.markInFlight`).
    func send(_ jobs: [PasteJob]) -> [Result<UploadResponse, UploadError>] {
        if jobs.contains(where: KeyBearingURL.isKeyBearing) { traceMask.turnOn() }
        if jobs.count == 1 {
            return [Result { () throws(UploadError) in try perform(jobs[0]) }]
        }
        let batch = uploader.sendAll(jobs.map { $0.request }, maxConcurrent: Self.batchConcurrency)
        // A transfer that never reached the server may go again, alone, with the usual policy.
        return zip(jobs, batch).map { job, outcome in
            guard interruption?.hasArrived != true,
                !Self.handsOverAtOnce(outcome, handsOver: handsOver.contains(job.service.name)),
                case .retry = transfer.retryPolicy.decide(after: outcome, attempt: 1)
            else {
                return outcome
            }
            return Result { () throws(UploadError) in try perform(job) }
        }
    }

    /// Why an attempt that is retried failed, in one line: its error, or the status it answered.
    static func reason(of outcome: Result<UploadResponse, UploadError>) -> String {
        switch outcome {
        case .failure(let error): error.message
        case .success(let answer): "The service answered HTTP \(answer.status)."
        }
    }

    /// Sends one request as it is, no retries (`--delete`: the answer is read by the caller).
    /// Sends one request once (`--delete`); `masked`: its `-v` trace shows URLs shortened, as
    /// a key-bearing paste's are (`KeyBearingURL.shortenedURLs(in:)`).
    func sendOnce(_ request: UploadRequest, masked: Bool = false) throws(UploadError) -> UploadResponse {
        if masked { traceMask.turnOn(everyTarget: true) }
        return try uploader.send(request, streamObserver: nil, streamEnd: nil)
    }

    /// What sees every byte of a job's stream as it is sent: its digest.
    func streamObserver(for job: PasteJob) -> ((Span<UInt8>) -> Void)? {
        job.streamDigest.map { digest in { digest.update($0) } }
    }

    /// Runs a job's request, retrying only what cannot create a duplicate paste, and nothing
    /// once the run was told to stop.
    func perform(_ job: PasteJob) throws(UploadError) -> UploadResponse {
        if KeyBearingURL.isKeyBearing(job) { traceMask.turnOn() }
        return try perform(
            job.request, streamObserver: streamObserver(for: job), streamEnd: job.streamEnd,
            handsOver: handsOver.contains(job.service.name))
    }

    /// Whether a failure goes to its service's fallback now, not asked again: the connection
    /// was refused, and the service hands over (`handsOver`). The one test of it, for a batch's
    /// answers (`send`) and for each attempt of `perform`.
    static func handsOverAtOnce(_ outcome: Result<UploadResponse, UploadError>, handsOver: Bool) -> Bool {
        guard handsOver, case .failure(let error) = outcome else { return false }
        return error.isRefusedConnection
    }

    /// Runs a request, retrying only what cannot create a duplicate paste.
    ///
    /// - Parameter handsOver: a refused connection is returned at once, for the fallback.
    func perform(
        _ request: UploadRequest, streamObserver: ((Span<UInt8>) -> Void)? = nil, streamEnd: (() -> Void)? = nil,
        handsOver: Bool = false
    ) throws(UploadError) -> UploadResponse {
        let policy = transfer.retryPolicy
        var attempt = 1
        while true {
            let outcome: Result<UploadResponse, UploadError>
            do {
                outcome = .success(
                    try uploader.send(request, streamObserver: streamObserver, streamEnd: streamEnd))
            } catch {
                outcome = .failure(error)
            }
            if Self.handsOverAtOnce(outcome, handsOver: handsOver) { return try outcome.get() }
            // A stream cannot be read twice; only in-memory and file bodies are retried.
            guard interruption?.hasArrived != true, request.isReplayable,
                case .retry(let wait) = policy.decide(after: outcome, attempt: attempt)
            else {
                return try outcome.get()
            }
            output.note(
                "retrying in \(wait.secondsText) (attempt \(attempt + 1) of \(policy.maximumAttempts))"
            )
            retrying?.showRetrying(
                reason: Self.reason(of: outcome), attempt: attempt + 1,
                of: policy.maximumAttempts)
            // The only sleep in paste: a back-off the server asked for (cut short by a signal).
            guard sleep(wait, { interruption?.hasArrived == true }) else {
                return try outcome.get()
            }
            attempt += 1
        }
    }
}

/// Whether a run's `-v` trace is shortened (`SendStage`): turned on once, before the first
/// transfer of a key-bearing job, and read by libcurl's debug callback on the transfer's thread.
///
/// `everyTarget`: every request line's target is shortened too, not only a GET's (a deletion
/// posts to the paste's own URL, which is the key-bearing one).
private final class KeyBearingTraceMask: Sendable {
    /// 0: off; 1: URLs and GET/HEAD targets; 2: every request target too.
    private let level = Atomic<UInt8>(0)

    var isOn: Bool { level.load(ordering: .acquiring) > 0 }

    func turnOn(everyTarget: Bool = false) {
        level.store(everyTarget ? 2 : max(1, level.load(ordering: .acquiring)), ordering: .releasing)
    }

    /// `line` as the trace shows it.
    func apply(_ line: String) -> String {
        switch level.load(ordering: .acquiring) {
        case 0: line
        case 1: KeyBearingURL.shortenedURLs(in: line)
        default: KeyBearingURL.shortenedURLs(in: line, everyTarget: true)
        }
    }
}
