import Clipboard
import PasteCore
import SystemInterop
import Upload

/// A finished paste, as printed and recorded.
struct PasteResult {
    var url: String
    var service: String
    var byteCount: Int64
    var sha256: String
    var title: String?
    var deletion: String?
    var isRepeat = false
}

extension Runner {
    /// The main job, with a window for the person when paste runs at a hotkey: every failure
    /// that ends the run is shown there too, not only on a stderr nobody reads.
    mutating func upload() throws -> ExitStatus {
        let configuration: Configuration
        do {
            configuration = try loadConfiguration()
        } catch {
            if showsWindows(settings: Settings()) { notifyFailure(error, settings: Settings()) }
            throw error
        }
        do {
            return try upload(configuration: configuration)
        } catch let error as any PasteError {
            if !(error is Cancelled), showsWindows(settings: configuration.settings) {
                notifyFailure(error, settings: configuration.settings)
            }
            throw error
        }
    }

    /// Reads, checks, uploads, prints, records and copies.
    mutating func upload(configuration: Configuration) throws -> ExitStatus {
        let settings = configuration.settings
        let profile = try chooseService(configuration)
        var options = invocation.options
        var builder = RequestBuilder(profile: profile, context: context, cryptography: SystemCryptography())
        // Refuse options the service cannot honour before reading anything.
        try builder.validate(options, size: nil)
        let connection = try connectionPolicy(for: profile, configuration)

        // Where the URL will be copied from. Reading the X11 clipboard keeps the reader's
        // connection for it (the owner is forked from it once the URL is known); otherwise the
        // owner is a second process, ready by the time the URL is: forked at the start of main
        // (`earlyOwner`), or else spawned now so its start-up overlaps reading the input and the
        // upload. Released unused, either leaves without touching the clipboard.
        let copies = invocation.copies && settings.copy && !invocation.isDryRun
        let preparedCopy: (any PreparedClipboardWrite)?
        let inputs: [PasteInput]
        if copies, earlyOwner == nil, readsSelection, let kept = try readSelectionKeepingConnection(settings: settings)
        {
            inputs = [kept.input]
            preparedCopy = kept.write
        } else {
            preparedCopy = copies ? earlyOwner ?? (try? makeClipboard().prepareWrite(to: .clipboard)) : nil
            inputs = try gatherInputs(settings: settings)
        }
        // A stream's size is unknown until its end, but a start already past the limit is enough
        // to refuse before anything is sent. (RequestBuilder checks every known size.)
        for input in inputs {
            if case .stream(_, let prefix, _) = input.content, let limit = profile.maximumBytes, prefix.count > limit {
                throw StreamTooLarge(service: profile.name, bytesRead: prefix.count, limit: limit)
            }
        }
        let atHotkey = showsWindows(settings: settings)

        // The secret guard: nothing that looks like a key or token leaves without consent.
        if !invocation.isForced {
            for input in inputs {
                // A large -f file is scanned whole from disk; a stream, its in-memory start.
                let findings =
                    if let scanned = input.secretScan {
                        SecretGuard().findings(of: scanned)
                    } else if input.bytes == nil, case .file(let path, _) = input.content {
                        SecretGuard().scan(filePath: path) ?? []
                    } else {
                        SecretGuard().scan(input.inspectable)
                    }
                guard let first = findings.first else { continue }
                if atHotkey, let choice = try confirmSecretUpload(first, profile: profile) {
                    if choice == .uploadPrivately { options.isPrivate = true }
                    continue
                }
                throw GuardError.secretsFound(findings, source: input.fileName)
            }
        }

        if invocation.prompts {
            guard let title = try promptForTitle() else { return .cancelled }
            if !title.isEmpty { options.title = title }
        }

        var requests: [UploadRequest] = []
        for input in inputs {
            var content = input.content
            if case .stream = content, !profile.format.canStream {
                content = try spool(input)
            }
            var request = try builder.build(content: content, options: options)
            request.connection = connection
            requests.append(request)
        }

        if invocation.isDryRun {
            for (index, (request, input)) in zip(requests, inputs).enumerated() {
                StandardStream.output.write(
                    DryRun.describe(
                        request, expansion: builder.expansion, preview: builder.previews[index], label: input.label))
            }
            return .success
        }

        let results = sendAll(
            requests: requests, inputs: inputs, profile: profile, options: options, settings: settings)

        var status = ExitStatus.success
        var copied: String?
        for (result, input) in zip(results, inputs) {
            switch result {
            case .success(let paste):
                if invocation.isJSON {
                    output.result(JSONOutput.object(for: paste, fileName: input.fileName))
                } else {
                    output.result(paste.url)
                }
                if paste.isRepeat {
                    output.note(
                        "the same text went to \(paste.service) moments ago; reusing its URL (--new makes another)")
                }
                copied = paste.url
            case .failure(let error):
                let pasteError = error as? any PasteError
                output.report(pasteError ?? InternalFailure(detail: "\(error)"))
                if status == .success { status = pasteError?.exitStatus ?? .internalError }
                if atHotkey {
                    notifyFailure(pasteError ?? InternalFailure(detail: "\(error)"), settings: settings)
                }
            }
        }
        if let url = copied {
            copyToClipboard(url, settings: settings, prepared: preparedCopy)
            if atHotkey && status == .success {
                notify(success: true, text: url, settings: settings)
            }
        }
        return status
    }

    /// Sends every paste: repeats answered from history, a single one with retries, several on
    /// one libcurl multi handle (connections reused, transfers overlapped), results in order.
    func sendAll(
        requests: [UploadRequest], inputs: [PasteInput], profile: ServiceProfile, options: PasteOptions,
        settings: Settings
    ) -> [Result<PasteResult, any Error>] {
        let history = History(context: context)
        var results = [Result<PasteResult, any Error>?](repeating: nil, count: inputs.count)
        var pending: [Pending] = []
        for index in inputs.indices {
            do {
                switch try prepare(
                    requests[index], inputs[index], profile: profile, options: options, settings: settings,
                    history: history, inputCount: inputs.count)
                {
                case .done(let paste): results[index] = .success(paste)
                case .send(let item): pending.append(Pending(index: index, item: item))
                }
            } catch {
                results[index] = .failure(error)
            }
        }
        let progressBar = makeProgressBar()
        defer { progressBar?.finish() }
        let uploader = Uploader(options: transportOptions(settings, progressBar: progressBar))
        let responses: [Result<UploadResponse, any Error>]
        if pending.count == 1 {
            let item = pending[0].item
            responses = [
                Result {
                    try perform(item.request, uploader: uploader, settings: settings, streamDigest: item.streamDigest)
                }
            ]
        } else {
            let batch = uploader.sendAll(pending.map(\.item.request), maxConcurrent: Self.batchConcurrency)
            // A transfer that never reached the server may go again, alone, with the usual policy.
            responses = zip(pending, batch).map { item, outcome in
                let policy = RetryPolicy(
                    maximumAttempts: settings.retries + 1, maximumDelay: settings.maximumRetryAfter)
                guard case .retry = policy.decide(after: outcome, attempt: 1) else { return outcome.mapError { $0 } }
                return Result { try perform(item.item.request, uploader: uploader, settings: settings) }
            }
        }
        for (item, response) in zip(pending, responses) {
            results[item.index] = Result {
                try finish(item.item, response: response, profile: profile, options: options, history: history)
            }
        }
        return results.map { $0! }
    }

    /// How many uploads of a batch run at once on the multi handle.
    static let batchConcurrency = 6

    /// One upload waiting to go, with what is needed to finish it.
    struct Pending {
        var index: Int
        var item: PreparedUpload
    }

    /// An upload ready to send: the request (teeing a stream to the outbox), its input, and the
    /// lock that makes a concurrent `paste` of the same text wait for this one.
    struct PreparedUpload {
        var request: UploadRequest
        var input: PasteInput
        var digest: String?
        var metadata: OutboxEntry.Metadata
        var writer: OutboxEntryWriter?
        var repeatLock: FileLock?
        /// For a stream: its SHA-256, taken as the bytes go out (see `StreamDigest`).
        var streamDigest: StreamDigest?
    }

    enum Preparation {
        case done(PasteResult)
        case send(PreparedUpload)
    }

    /// Answers a repeat from history, or gets the upload ready to send.
    func prepare(
        _ request: UploadRequest, _ input: PasteInput, profile: ServiceProfile, options: PasteOptions,
        settings: Settings, history: History, inputCount: Int
    ) throws -> Preparation {
        let digest = input.bytes.map { SHA256.hex(SHA256.hash($0)) }
        var repeatLock: FileLock?
        // A paste that burns after reading may be gone already: never hand out its link twice.
        if !invocation.isNew, !options.burnsAfterReading, let digest, settings.repeatWindow > 0 {
            // Another paste of the same text to the same service may be under way (a hotkey
            // pressed twice): wait for it, then its URL is in history. Only a run of one paste
            // waits: a batch would hold several locks of one folder at once (and flock locks of
            // one process on one file exclude each other).
            if inputCount == 1 {
                repeatLock = try? FileLock(
                    path: repeatLockPath(digest: digest, service: profile.name), kind: .exclusive)
            }
            if let earlier = try? history.recent(
                sha256: digest, service: profile.name, within: .milliseconds(Int(settings.repeatWindow * 1000)))
            {
                return .done(
                    PasteResult(
                        url: earlier.url, service: profile.name, byteCount: earlier.byteCount, sha256: digest,
                        title: earlier.title, deletion: earlier.deletionToken ?? earlier.deletionURL, isRepeat: true))
            }
        }
        let metadata = OutboxEntry.Metadata(
            service: profile.name, serviceURL: invocation.url, title: options.title, language: options.language,
            isPrivate: options.isPrivate,
            expiry: options.neverExpires ? PrivateBin.never : options.expirySeconds.map(String.init),
            fileName: input.fileName, created: context.now(),
            burnsAfterReading: options.burnsAfterReading ? true : nil)
        var request = request
        var writer: OutboxEntryWriter?
        if case .stream = input.content {
            // Streamed stdin is teed into the outbox as it goes: nothing is lost if the upload fails.
            writer = try Outbox(context: context).makeEntry(metadata)
            request = request.teeing(to: writer!.contentPath)
        }
        return .send(
            PreparedUpload(
                request: request, input: input, digest: digest, metadata: metadata, writer: writer,
                repeatLock: repeatLock,
                streamDigest: writer == nil ? nil : StreamDigest()))
    }

    /// Reads the URL from the answer and records the paste; on any failure keeps the text in
    /// the outbox (fsynced, before paste exits) and rethrows.
    func finish(
        _ item: PreparedUpload, response: Result<UploadResponse, any Error>, profile: ServiceProfile,
        options: PasteOptions, history: History
    ) throws -> PasteResult {
        defer { withExtendedLifetime(item.repeatLock) {} }
        let input = item.input
        do {
            let response = try response.get()
            let outcome = try ResultExtractor.extract(from: response, request: item.request, profile: profile)
            warnIfPageUnread(response)
            let size =
                input.bytes.map { Int64($0.count) } ?? Self.fileSize(item.writer?.contentPath) ?? input.content
                .knownSize ?? response.bytesSent
            let streamed = item.streamDigest.flatMap { $0.byteCount == size ? $0.finalizeHex() : nil }
            let sha =
                item.digest ?? streamed ?? item.writer.map { Self.digest(ofFile: $0.contentPath) }
                ?? {
                    if case .file(let path, _) = input.content { return Self.digest(ofFile: path) }
                    return ""
                }()
            try? item.writer?.discard()
            let isURLDeletion = outcome.deletion?.hasPrefix("http") == true
            let record = HistoryRecord(
                time: context.now(), service: profile.name, url: outcome.url, byteCount: size, sha256: sha,
                title: options.title, deletionToken: isURLDeletion ? nil : outcome.deletion,
                deletionURL: isURLDeletion ? outcome.deletion : nil,
                preview: input.bytes.flatMap { HistoryRecord.preview(of: $0) })
            do { try history.append(record) } catch {
                output.note("could not record the paste in history: \(error.message)")
            }
            return PasteResult(
                url: outcome.url, service: profile.name, byteCount: size, sha256: sha, title: options.title,
                deletion: outcome.deletion)
        } catch {
            guard keepInOutbox(item, error: error), let pasteError = error as? any PasteError else { throw error }
            throw KeptInOutbox(failure: pasteError)
        }
    }

    /// The one-line warning for a paste whose page, reached by the service's redirect, failed:
    /// the paste was made (its URL is the result), only its page could not be read.
    func warnIfPageUnread(_ response: UploadResponse) {
        guard let page = response.unreadPage else { return }
        output.note("warning: the paste was made, but its page \(Sanitizer.printable(page, limit: 200))")
    }

    /// Puts the text of a failed upload in the outbox; true when it is there.
    @discardableResult
    func keepInOutbox(_ item: PreparedUpload, error: any Error) -> Bool {
        let message = (error as? any PasteError)?.message ?? "\(error)"
        let outbox = Outbox(context: context)
        do {
            if let writer = item.writer {
                try completeStream(item.input, into: writer)
                _ = try writer.commit(failure: message)
            } else if let bytes = item.input.bytes {
                try outbox.store(content: bytes, metadata: item.metadata, failure: message)
            } else if case .file(let path, _) = item.input.content {
                try Self.store(copyOf: path, in: outbox, metadata: item.metadata, failure: message)
            } else {
                return false
            }
            return true
        } catch let storeError {
            output.report((storeError as? any PasteError) ?? InternalFailure(detail: "\(storeError)"))
            return false
        }
    }

    /// Appends to a streamed input's outbox copy what the failed upload never read: the rest of
    /// the start kept in memory, then the descriptor to its end. The tee holds exactly what was
    /// consumed, in order, so the entry ends up byte-exact whatever point the transfer died at.
    func completeStream(_ input: PasteInput, into writer: OutboxEntryWriter) throws {
        guard case .stream(let descriptor, let prefix, _) = input.content else { return }
        let kept = Int(Self.fileSize(writer.contentPath) ?? 0)
        if kept < prefix.count { try writer.append(Array(prefix[kept...])) }
        do {
            try FileDescriptor.withUnowned(descriptor) { try $0.forEachChunk { try writer.append(Array($0)) } }
        } catch let error as Errno {
            throw InputError.unreadable(path: input.label, reason: error.message)
        }
    }

    /// The lock file for uploads of one text to one service.
    ///
    /// Sixteen per service, chosen by the digest's first hex digit: the same text always meets
    /// the same lock, different texts rarely wait for each other, and the folder never fills
    /// with one file per paste.
    func repeatLockPath(digest: String, service: String) -> String {
        let folder = (context.runtimeDirectory.map { $0 + "/paste" }) ?? context.pasteStateDirectory
        try? AtomicFile.createFolder(folder)
        let safeService = String(service.map { $0.isLetter || $0.isNumber ? $0 : "_" })
        return folder + "/sending-\(safeService)-\(digest.prefix(1)).lock"
    }

    /// Runs a request, retrying only what cannot create a duplicate paste.
    func perform(
        _ request: UploadRequest, uploader: Uploader, settings: Settings, streamDigest: StreamDigest? = nil
    ) throws -> UploadResponse {
        let policy = RetryPolicy(maximumAttempts: settings.retries + 1, maximumDelay: settings.maximumRetryAfter)
        var attempt = 1
        while true {
            let outcome: Result<UploadResponse, UploadError>
            do {
                outcome = .success(
                    try uploader.send(request, streamObserver: streamDigest.map { digest in { digest.update($0) } }))
            } catch {
                outcome = .failure(error)
            }
            // A stream cannot be read twice; only in-memory and file bodies are retried.
            guard request.isReplayable, case .retry(let seconds) = policy.decide(after: outcome, attempt: attempt)
            else {
                return try outcome.get()
            }
            output.note(
                "retrying in \(Duration.seconds(seconds).secondsText) (attempt \(attempt + 1) of \(policy.maximumAttempts))"
            )
            Pause.sleep(seconds: seconds)
            attempt += 1
        }
    }

    /// Reads a streamed input whole into memory, for formats that cannot stream (form, json).
    func spool(_ input: PasteInput) throws -> ContentSource {
        guard case .stream(let descriptor, _, _) = input.content else { return input.content }
        var bytes = input.prefix
        do {
            try FileDescriptor.withUnowned(descriptor) { try $0.forEachChunk { bytes += $0 } }
        } catch let error as Errno {
            throw InputError.unreadable(path: input.label, reason: error.message)
        }
        return .bytes(bytes)
    }

    /// Puts the URL on the clipboard through the detached owner; a note when there is no display.
    func copyToClipboard(_ url: String, settings: Settings, prepared: (any PreparedClipboardWrite)? = nil) {
        guard invocation.copies && settings.copy else { return }
        do {
            if let prepared {
                try prepared.complete(with: Array(url.utf8))
            } else {
                try makeClipboard().write(Array(url.utf8), to: .clipboard)
            }
        } catch .noDisplay {
            output.note("no display: the URL was printed but not copied")
        } catch {
            output.note("the URL was not copied: \(ClipboardFailure(error: error).message)")
        }
    }
}

/// A failed upload whose text is safe in the outbox: the failure's message and status, and a
/// hint saying where the text is (every kind of failure, not only the service's own).
struct KeptInOutbox: PasteError {
    var failure: any PasteError
    var message: String { failure.message }
    /// The failure's own hint (how to fix it) first, then where the text is, one per line.
    var hint: String? { failure.hint.map { $0 == Self.hint ? $0 : $0 + "\n" + Self.hint } ?? Self.hint }
    var exitStatus: ExitStatus { failure.exitStatus }

    static let hint = "the text waits in the outbox; 'paste --retry' sends it again"
}

/// A streamed input whose first part alone passes the service's `max-size`.
struct StreamTooLarge: PasteError {
    var service: String
    var bytesRead: Int
    var limit: Int64
    var message: String {
        "the text is more than \(bytesRead) bytes but '\(service)' accepts at most \(limit); nothing was uploaded"
    }
    var exitStatus: ExitStatus { .badInput }
}

/// A bug, reported as exit 70.
struct InternalFailure: PasteError {
    var detail: String
    var message: String { "internal error: \(detail)" }
    var exitStatus: ExitStatus { .internalError }
}

extension Duration {
    var secondsText: String {
        let (seconds, attoseconds) = components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value < 10 ? "\((value * 10).rounded() / 10)s" : "\(Int(value))s"
    }
}
