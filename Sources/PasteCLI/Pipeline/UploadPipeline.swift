import Clipboard
import FoundationEssentials
import PasteCore
import Stores
import SystemInterop
import Upload

/// One run of the pipeline: read -> guard -> build -> send -> extract -> record -> deliver.
///
/// Each stage is a small type of its own in this folder and sees only the plan (`RunPlan`,
/// decided once by `PlanResolver`) and what the stage before it made. An upload runs them all,
/// its pastes together at each stage (the files of `-f` are all read, all checked and all built
/// before the first is sent, and sent together on one multi handle). `--retry` and `--outbox
/// send` enter at send with jobs made from outbox entries (`RetryStage`), one entry at a time,
/// and leave through the same extract, record and deliver.
///
/// From the first transfer until every paste is recorded, SIGINT, SIGTERM and SIGHUP stop the
/// run's transfer (`Interruption`); each text is then recorded where it is, said in one line,
/// and the run exits 128 + the signal's number.
struct UploadPipeline {
    var context: Context
    var output: Output

    // MARK: - An upload

    /// Runs an upload: what was read, checked and built is sent, recorded and delivered.
    ///
    /// - Parameters:
    ///   - clipboard: the session's clipboard, made once for the run.
    ///   - earlyOwner: the clipboard owner started before the config was read, if any.
    /// - Throws: what stops the whole run before anything is sent (input, guard, a request that
    ///   cannot be built); a paste that fails after that is delivered as a failure instead.
    func upload(
        _ plan: RunPlan, clipboard: SessionClipboard,
        earlyOwner: (any PreparedClipboardWrite)?
    ) throws -> ExitStatus {
        var windows = DesktopWindows(plan: plan.windows, output: output)
        if plan.windows.isShown { windows.retrying = RetryFeedback(plan: plan.windows, output: output) }

        let reading = try ReadStage.read(plan, clipboard: clipboard, earlyOwner: earlyOwner, context: context)
        // Stdin's text went into the outbox as it was read (`PasteInput.standardInput`).
        var journaled: [Int: Result<OutboxClaim, StoreError>] = [:]
        for (index, input) in reading.inputs.enumerated() { journaled[index] = input.journal }
        // What stops the run before sending keeps nothing: the text is still the caller's.
        func dropJournal() {
            for case .success(let claim) in journaled.values where !claim.isRemoved { try? claim.discard() }
        }
        do {
            return try upload(plan, reading: reading, journaled: journaled, clipboard: clipboard, windows: windows) {
                dropJournal()
            }
        } catch {
            dropJournal()
            throw error
        }
    }

    /// The rest of an upload, once its inputs are read (and stdin's journaled): guard, build,
    /// then send, record and deliver. `stopsEarly` runs when the run ends before sending.
    private func upload(
        _ plan: RunPlan, reading: ReadStage.Reading, journaled: [Int: Result<OutboxClaim, StoreError>],
        clipboard: SessionClipboard, windows: DesktopWindows, stopsEarly: () -> Void
    ) throws -> ExitStatus {
        var windows = windows
        var inputs = reading.inputs
        // Said once per service used, now that what was read chose them.
        for route in reading.routesUsed { if let warning = route.warning { output.warning(warning) } }

        var options = plan.options
        var consented: Set<Int> = []
        if !plan.isForced {
            consented = try GuardStage.check(reading, windows: windows, options: &options)
        }
        if plan.prompts {
            guard let title = try windows.promptForTitle(initialText: options.title ?? "") else {
                stopsEarly()
                return .cancelled
            }
            if !title.isEmpty { options.title = title }
        }
        if !plan.isForced {
            try GuardStage.checkValues(options, services: reading.routesUsed.map(\.service))
        }

        var build = BuildStage(service: plan.route.service, context: context)
        var requests: [UploadRequest] = []
        for index in inputs.indices {
            let route = reading.route(of: inputs[index])
            // A stream for a service that cannot stream it is read whole here (for a dry run
            // too), so the outbox keeps what is sent, all of it, and the guard reads all of it.
            let wasStreamed = inputs[index].bytes == nil
            inputs[index] = try BuildStage.spooledIfNeeded(inputs[index], for: route.service)
            // The secret guard on the rest of a stream: now, when it was read whole; else as it
            // is sent.
            if !plan.isForced && !consented.contains(index) {
                try GuardStage.checkSpooled(inputs[index], wasStreamed: wasStreamed)
            }
            var request = try build.build(inputs[index], route: route, options: options)
            if !plan.isForced && !consented.contains(index) { GuardStage.streamChecks(&request, for: inputs[index]) }
            requests.append(request)
        }
        if plan.isDryRun {
            output.text(build.describe(requests, inputs: inputs))
            return .success
        }

        if let notice = plan.defaultServiceNotice,
            reading.routesUsed.contains(where: { $0.service.name == plan.route.service.name })
        {
            // Said before the request, once: the mark is best effort (a state folder that cannot
            // be written only means it is said again).
            output.notice(notice.line)
            try? AtomicFile.write([], to: notice.markPath, durable: false)
            windows.footnote = notice.windowText
        }

        let (results, signal, detours) = sendAndRecord(
            requests, inputs, reading, journaled: journaled, plan: plan, options: options, retrying: windows.retrying,
            // Text let go with a secret in it (`--force`, or the person's answer) keeps no preview.
            keepsPreviews: !plan.isForced && consented.isEmpty)

        // A text that went to a fallback service says where and why, on stderr and in the window.
        for detour in detours { output.notice(PasteFailure.fallbackLine(detour)) }
        if let detour = detours.first {
            windows.footnote = [PasteFailure.fallbackWindowLine(detour), windows.footnote].compactMap { $0 }
                .joined(separator: "\n")
        }
        // A run told to stop says what became of each text, and copies nothing.
        let copy = signal == nil ? plan.copy : nil
        var deliver = DeliverStage(
            copy: copy, preparedCopy: reading.copy, isCopyExpected: plan.isCopyExpected,
            isVerbose: plan.transfer.isVerbose,
            windows: signal == nil ? windows : DesktopWindows(plan: .none, output: output), output: output)
        for (result, input) in zip(results, inputs) { deliver.deliver(result, fileName: input.fileName, input: input) }
        let status = deliver.finish(clipboard: clipboard)
        // The services that just worked send what waits for them, in the background.
        if signal == nil {
            let worked = results.compactMap { try? $0.get() }.filter { !$0.isRepeat }.map(\.service)
            OutboxFlush.launch(for: Array(Set(worked)).sorted(), configPath: plan.windows.configPath, context: context)
        }
        return signal.map { Interruption.exitStatus(for: $0) } ?? status
    }

    /// Send, extract and record for every paste of an upload; the results in input order, and
    /// the signal that stopped the run, if one did.
    ///
    /// The jobs (and the repeat locks they hold) end here, once every paste is recorded, before
    /// anything is delivered.
    private func sendAndRecord(
        _ requests: [UploadRequest], _ inputs: [PasteInput], _ reading: ReadStage.Reading,
        journaled: [Int: Result<OutboxClaim, StoreError>], plan: RunPlan, options: PasteOptions,
        retrying: RetryFeedback?, keepsPreviews: Bool
    ) -> (results: [Result<PasteResult, PasteFailure>], signal: Signal?, detours: [FallbackStage.Detour]) {
        let interruption = Interruption.begin()
        defer { interruption.end() }
        let outbox = Outbox(context: context)
        var record = RecordStage(context: context, output: output, outbox: outbox, interruption: interruption)
        record.keepsPreviews = keepsPreviews
        var results = [Result<PasteResult, PasteFailure>?](repeating: nil, count: inputs.count)
        // Where each job's result goes (a repeat has its result already): two arrays, not an array of pairs, whose tuple type would be built
        // at run time on the hotkey path.
        var jobs: [PasteJob] = []
        var positions: [Int] = []
        for index in inputs.indices {
            switch SendStage.prepare(
                requests[index], inputs[index], service: reading.route(of: inputs[index]).service, plan: plan,
                options: options, history: record.history, inputCount: inputs.count, outbox: outbox, context: context,
                journaled: journaled[index])
            {
            case .repeated(let paste): results[index] = .success(paste)
            case .send(let job):
                jobs.append(job)
                positions.append(index)
            }
        }
        var send = SendStage(transfer: plan.transfer, output: output, interruption: interruption)
        send.retrying = retrying
        defer { send.finish() }
        // (A fresh text's entry that cannot be marked is dropped, never thrown: see markInFlight.)
        for index in jobs.indices { try? jobs[index].markInFlight() }
        var responses = send.send(jobs)
        // A text whose service is down goes on to its fallback (the run's service only).
        var detours: [FallbackStage.Detour] = []
        if !plan.fallbacks.isEmpty {
            let fallback = FallbackStage(
                chain: plan.fallbacks, pasteConnection: plan.pasteConnection, isInsecure: plan.transfer.isInsecure,
                context: context, output: output)
            for position in jobs.indices
            where !interruption.hasArrived && jobs[position].service.name == plan.route.service.name {
                guard
                    let (job, response, detour) = fallback.resend(
                        jobs[position], response: responses[position], input: inputs[positions[position]],
                        options: options, send: send)
                else { continue }
                jobs[position] = job
                responses[position] = response
                detours.append(detour)
            }
        }
        for position in jobs.indices {
            let nextAttempt = Self.requestedTime(responses[position], plan: plan.transfer, context: context)
            results[positions[position]] = record.record(
                jobs[position], nextAttempt: nextAttempt,
                answer: ExtractStage.extract(responses[position], for: jobs[position], output: output))
        }
        return (results.map { $0! }, interruption.signal, detours)
    }

    /// When a 429 or 503 answer asked to be tried again (`Retry-After`), as a time.
    static func requestedTime(
        _ response: Result<UploadResponse, UploadError>, plan: RunPlan.Transfer, context: Context
    ) -> Date? {
        guard case .success(let answer) = response, let seconds = plan.retryPolicy.requestedDelay(of: answer) else {
            return nil
        }
        return context.now().addingTimeInterval(seconds)
    }

    // MARK: - --retry and --outbox send

    /// How many passes in a row that sent nothing `--retry` makes before it leaves what is still
    /// due and free for the next run.
    static let idlePassLimit = 8

    /// Sends the retryable entries of the outbox, oldest first: each claimed (another `--retry`
    /// holding one skips it, never sending it twice), checked by the secret guard again (text),
    /// marked in flight, sent, recorded and delivered before the next. Held entries wait for
    /// `paste --outbox send ID`.
    ///
    /// Run by a person (`RetryPlan.isAttended`), it sends every retryable entry now; unattended
    /// (cron, a timer), only those whose backoff is over. Each entry is tried once (the outbox's
    /// backoff is the retry), and once a service turned out unreachable, its other entries wait
    /// for the next run (`Disposition.Reason.unreachable`).
    ///
    /// The recovery pass runs first; what it did, and what it could not read, is one stderr
    /// line each.
    ///
    /// - Returns: the status of `paste --retry` (paste(1) documents it): 128 + N when a signal
    ///   stopped it; 75 while anything retryable is left in the outbox (it failed again, or
    ///   its backoff is not over); 69 when an entry sent now may have been made but gave no URL
    ///   and is now held; else 0. An entry whose service is no longer configured is held with
    ///   one line and does not change the status.
    /// - Throws: `StoreError` when the outbox folder cannot be read (74).
    func retry(_ plan: RetryPlan) throws -> ExitStatus {
        var plan = plan
        // One attempt per entry and run: an unattended run comes back on its timer, a person
        // runs it again; neither waits through in-process backoffs for each entry in turn.
        plan.transfer.retryPolicy.maximumAttempts = 1
        let outbox = Outbox(context: context, policy: plan.outboxPolicy)
        let listing = try outbox.listing(recovering: !plan.isDryRun)
        OutboxReport.report(listing, output: output)
        let now = context.now()
        let isAttended = plan.isAttended
        let onlyService = plan.onlyService
        func isWanted(_ item: OutboxListing.Item, at now: Date) -> Bool {
            if let onlyService, item.entry.metadata.serviceURL != nil || item.entry.metadata.service != onlyService {
                return false
            }
            return isAttended ? item.isSendable : item.isDue(at: now)
        }
        let due = listing.items.filter { isWanted($0, at: now) }
        // Said, not waited for: a next attempt written while the clock was far ahead.
        for item in due where !isAttended && item.isScheduledImplausiblyFar(at: now) {
            let next = item.entry.metadata.nextAttempt.map(JSONText.timestamp) ?? ""
            output.note(
                "outbox entry \(item.entry.id) was to wait until \(next), implausibly far ahead (the clock may have "
                    + "been wrong when it was written): it is due now")
        }
        if plan.isDryRun {
            for item in due { output.result("would send " + OutboxReport.dryRunLine(for: item)) }
            if due.isEmpty {
                let waiting = listing.items.filter { $0.isSendable }.count
                output.note(
                    waiting == 0
                        ? "nothing is due in the outbox"
                        : "nothing is due in the outbox: \(waiting) retryable "
                            + "\(waiting == 1 ? "entry waits" : "entries wait") for its backoff; "
                            + "'paste --outbox' says when")
            }
            return .success
        }
        var sender = EntrySender(plan: plan, outbox: outbox, context: context, output: output)
        defer { sender.finish() }
        // The services found unreachable in this run, and the entries of theirs left for the next.
        var unreachable: [String: Int] = [:]
        var unreachableOrder: [String] = []
        var candidates = due
        var tried: Set<String> = []
        // Passes in a row that sent nothing: every entry tried was held by another run.
        var idlePasses = 0
        while !candidates.isEmpty, !sender.interruption.hasArrived {
            var hasSent = false
            for item in candidates {
                if sender.interruption.hasArrived { break }
                let key = Self.serviceKey(of: item.entry)
                if unreachable[key] != nil {
                    if !tried.contains(item.entry.name) {
                        unreachable[key, default: 0] += 1
                        tried.insert(item.entry.name)
                    }
                    continue
                }
                // Another `paste --retry` (cron and a person at once) may hold it, or have sent
                // it; another run's listing may hold it for a moment.
                guard let claim = try? outbox.claimDue(item.entry, ignoringBackoff: isAttended) else { continue }
                tried.insert(item.entry.name)
                guard let result = sender.send(claim) else {
                    // Its service was found down earlier in this run and it has no fallback to
                    // go to: it waits for the next run, untried.
                    if unreachable[key] == nil { unreachableOrder.append(key) }
                    unreachable[key, default: 0] += 1
                    continue
                }
                if case .failure(let failure) = result, failure.disposition.reason == .unreachable,
                    unreachable[key] == nil
                {
                    unreachable[key] = 0
                    unreachableOrder.append(key)
                }
                hasSent = true
            }
            // Once more over what is still due and free (an entry skipped while another run's
            // listing held it), as long as each pass sends something, and a few times more
            // after passes that sent nothing: runs that each found an entry held by another's
            // listing would otherwise all leave it, and say that it waits (75) though it was
            // free a moment later (50 runs at once over 100 entries, under the test suite's
            // load). Each pass lists the outbox once; an entry another run is sending is busy
            // and not tried again.
            idlePasses = hasSent ? 0 : idlePasses + 1
            guard idlePasses <= Self.idlePassLimit else { break }
            let now = context.now()
            candidates = ((try? outbox.listing(recovering: false).items) ?? []).filter {
                isWanted($0, at: now) && !tried.contains($0.entry.name)
            }
        }
        for key in unreachableOrder {
            let count = unreachable[key] ?? 0
            guard count > 0 else { continue }
            output.note(
                "\(count) more outbox \(count == 1 ? "entry" : "entries") for '\(shown: key)' "
                    + "\(count == 1 ? "waits" : "wait") for the next run: the service is unreachable")
        }
        if let signal = sender.interruption.signal { return Interruption.exitStatus(for: signal) }
        // What another run holds is its business: it is being sent right now.
        let left = ((try? outbox.listing(recovering: false).items) ?? []).filter { !$0.isBusy }
        if left.contains(where: { $0.state == .retryable }) { return .temporaryFailure }
        let held = left.filter { $0.state == .held }.count
        if held > 0 {
            output.note(
                "\(held) outbox \(held == 1 ? "entry is" : "entries are") held: 'paste --outbox' lists "
                    + "\(held == 1 ? "it" : "them"); 'paste --outbox send ID' sends one")
        }
        return sender.firstHeldFailure ?? .success
    }

    /// What tells an entry's service apart within one `--retry` run: its `--url`, else its name.
    static func serviceKey(of entry: OutboxEntry) -> String {
        entry.metadata.serviceURL ?? entry.metadata.service
    }

    /// `paste --outbox send ID`: sends one entry, whatever its state (a held one too).
    ///
    /// - Returns: 0 when it was sent, else the failure's status (or 128 + N after a signal).
    /// - Throws: `StoreError`: no such entry (66), an ambiguous id (64), another run holds it
    ///   (75), its content is not whole (74).
    func send(id: String, _ plan: RetryPlan) throws -> ExitStatus {
        let outbox = Outbox(context: context, policy: plan.outboxPolicy)
        let claim = try outbox.claim(id: id)
        var sender = EntrySender(plan: plan, outbox: outbox, context: context, output: output)
        defer { sender.finish() }
        sender.send(claim)
        if let signal = sender.interruption.signal { return Interruption.exitStatus(for: signal) }
        return sender.deliver.status
    }
}

/// Sends claimed outbox entries one at a time, through send, extract, record and deliver: what
/// `--retry` and `--outbox send` share.
private struct EntrySender {
    let interruption = Interruption.begin()
    let stage: RetryStage
    let record: RecordStage
    let send: SendStage
    let plan: RetryPlan
    var deliver: DeliverStage
    /// The status of the first entry that was sent and failed in a way that holds it (the
    /// server may have made it, or its attempts ran out).
    private(set) var firstHeldFailure: ExitStatus?
    /// The services (`UploadPipeline.serviceKey`) found unreachable in this run, with the failure
    /// that said so: a later entry of theirs goes straight to its fallback chain, or waits for the
    /// next run untried (one connect timeout per dead service and run, issue 25).
    private var unreachable: [String: UploadError] = [:]

    init(plan: RetryPlan, outbox: Outbox, context: Context, output: Output) {
        self.plan = plan
        stage = RetryStage(plan: plan, context: context, output: output)
        record = RecordStage(context: context, output: output, outbox: outbox, interruption: interruption)
        send = SendStage(transfer: plan.transfer, output: output, interruption: interruption)
        deliver = DeliverStage(
            copy: nil, preparedCopy: nil, windows: DesktopWindows(plan: .none, output: output), output: output)
    }

    /// Checks, sends, records and delivers one claimed entry; the claim ends with it.
    ///
    /// - Returns: how it went (the failure already delivered); nil when the entry was left as it
    ///   was, untried: its service was found unreachable earlier in this run and it has no
    ///   fallback to go to.
    @discardableResult
    mutating func send(_ claim: OutboxClaim) -> Result<PasteResult, PasteFailure>? {
        let result: Result<PasteResult, PasteFailure>
        var wasSent = false
        let key = UploadPipeline.serviceKey(of: claim.entry)
        do throws(PasteFailure) {
            var job = try stage.job(for: claim)
            let knownDown = unreachable[key]
            if knownDown != nil, stage.fallbacks(of: job).isEmpty || !job.request.isReplayable { return nil }
            do { try job.markInFlight() } catch { throw PasteFailure(error) }
            wasSent = true
            // A service already found down in this run is not asked again: its failure stands
            // for this entry too, and the fallback chain takes it from there.
            var response: Result<UploadResponse, UploadError> =
                knownDown.map { .failure($0) } ?? Result { () throws(UploadError) in try send.perform(job) }
            if knownDown == nil, case .failure(let error) = response, error.disposition.reason == .unreachable {
                unreachable[key] = error
            }
            // Its service down: on to that service's fallback, as a fresh text would go.
            if let (detoured, answer, detour) = fallBack(job, response: response, claim: claim) {
                job = detoured
                response = answer
                stage.output.notice(PasteFailure.fallbackLine(detour))
            }
            let nextAttempt = UploadPipeline.requestedTime(response, plan: plan.transfer, context: stage.context)
            result = record.record(
                job, nextAttempt: nextAttempt, answer: ExtractStage.extract(response, for: job, output: stage.output))
        } catch {
            // Refused before sending: its service is gone, the guard, a request that cannot
            // be built, an entry that cannot be marked in flight.
            result = .failure(RetryStage.refusal(error, of: claim, output: stage.output))
        }
        deliver.deliver(result, fileName: claim.entry.metadata.fileName)
        if wasSent, case .failure(let failure) = result, !claim.isRemoved, claim.state == .held,
            firstHeldFailure == nil
        {
            firstHeldFailure = failure.exitStatus
        }
        return result
    }

    /// Sends a claimed entry's text on along its service's fallback chain when `response` calls
    /// for it (`FallbackStage`: the same guard and rules as a fresh text's); nil when it does not
    /// or no service took it.
    private func fallBack(
        _ job: PasteJob, response: Result<UploadResponse, UploadError>, claim: OutboxClaim
    ) -> (PasteJob, Result<UploadResponse, UploadError>, FallbackStage.Detour)? {
        let chain = stage.fallbacks(of: job)
        guard !chain.isEmpty, !interruption.hasArrived, case .outbox(let entry) = job.source else { return nil }
        let fallback = FallbackStage(
            chain: chain, pasteConnection: plan.connection, isInsecure: plan.transfer.isInsecure,
            context: stage.context, output: stage.output)
        return fallback.resend(
            job, response: response, options: RetryStage.options(of: claim.entry.metadata), send: send
        ) { build, route, options in
            try RetryStage.request(for: claim, size: entry.size, build: &build, route: route, options: options)
        }
    }

    /// Erases the progress bar and gives the signals their default action back.
    func finish() {
        send.finish()
        interruption.end()
    }
}
