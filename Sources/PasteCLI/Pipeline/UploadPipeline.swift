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
/// send` enter at send with jobs made from outbox entries (`RetryStage`), one entry at a time
/// (their room: Pipeline/Retry, `UploadPipeline+Retry.swift` and `EntrySender`), and leave
/// through the same tail: extract and record (`RecordStage.record(_:response:transfer:)`), then
/// deliver.
///
/// From the first transfer until every paste is recorded, SIGINT, SIGTERM and SIGHUP stop the
/// run's transfer (`Interruption`); each text is then recorded where it is, said in one line,
/// and the run exits 128 + the signal's number.
struct UploadPipeline {
    var context: Context
    var output: Output
    /// The transport, the backoff's wait and the background flush (`Seams.live` but in tests).
    var seams = Seams.live

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
        // `--update NAME`: its lock held for the run, its profile decided (Pipeline/Living).
        var plan = plan
        let livingLock = try LivingStage.begin(&plan, context: context)
        defer { withExtendedLifetime(livingLock) {} }
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
            return try upload(plan, reading: reading, clipboard: clipboard, windows: windows) {
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
        _ plan: RunPlan, reading: ReadStage.Reading,
        clipboard: SessionClipboard, windows: DesktopWindows, stopsEarly: () -> Void
    ) throws -> ExitStatus {
        var windows = windows
        var plan = plan
        var reading = reading
        var inputs = reading.inputs
        if plan.living != nil && inputs.count > 1 { throw LivingError.severalInputs }

        var options = plan.options
        var consented: Set<Int> = []
        if !plan.isForced {
            consented = try GuardStage.check(
                &reading, windows: windows, options: &options, plan: plan, context: context)
            // What was masked is the text from here on (`GuardStage.mask`).
            inputs = reading.inputs
            for input in inputs { if let line = GuardStage.maskedLine(input) { output.note(line) } }
        }
        if plan.prompts {
            guard let title = try windows.promptForTitle(initialText: options.title ?? "") else {
                stopsEarly()
                return .cancelled
            }
            if !title.isEmpty { options.title = title }
        }
        /// The values that go with the text, masked where the plan masks, checked everywhere.
        func maskAndCheckValues() throws {
            let masked = try GuardStage.maskValues(&options, reading: &reading, plan: &plan)
            if !masked.isEmpty {
                for index in inputs.indices {
                    inputs[index].masked += masked.carried(to: reading.route(of: inputs[index]).service.name)
                }
                reading.inputs = inputs
                if let line = GuardStage.maskedLine(masked) { output.note(line) }
            }
            try GuardStage.checkValues(options, services: reading.routesUsed.map(\.service))
        }
        if !plan.isForced { try maskAndCheckValues() }

        var build = BuildStage(service: plan.route.service, context: context)
        /// The requests of every input for the services `reading` routes them to.
        func buildRequests() throws -> [UploadRequest] {
            var requests: [UploadRequest] = []
            for index in inputs.indices {
                let route = reading.route(of: inputs[index])
                // A stream for a service that cannot stream it is read whole here (for a dry run
                // too), so the outbox keeps what is sent, all of it, and the guard reads all of it.
                let wasStreamed = inputs[index].bytes == nil
                inputs[index] = try BuildStage.spooledIfNeeded(inputs[index], for: route.service)
                // The secret guard on the rest of a stream: now, when it was read whole; else as
                // it is sent.
                if !plan.isForced && !consented.contains(index) {
                    try GuardStage.checkSpooled(inputs[index], wasStreamed: wasStreamed)
                }
                var request = try build.build(inputs[index], route: route, options: options)
                if !plan.isForced && !consented.contains(index) {
                    GuardStage.streamChecks(&request, for: inputs[index])
                }
                requests.append(request)
            }
            return requests
        }
        var requests = try buildRequests()
        // Nothing goes to a public service nobody chose before the person says so: asked once
        // the text is known to be one the service takes (what the build refuses, such as text
        // that is not UTF-8 for a form, is refused without a question). Another service chosen
        // in the answer gets its own requests, its values checked by the guard first.
        let asked = plan.route.service.name
        try ConsentStage(output: output, context: context).ask(plan: &plan, reading: &reading, windows: windows)
        if plan.route.service.name != asked {
            if !plan.isForced { try maskAndCheckValues() }
            build = BuildStage(service: plan.route.service, context: context)
            requests = try buildRequests()
        }
        // Said once per service used, now that what was read, and the answer, chose them.
        for route in reading.routesUsed { if let warning = route.warning { output.warning(warning) } }
        if plan.isDryRun {
            output.text(build.describe(requests, inputs: inputs))
            // (Stdin a masking plan held in the outbox to scan it: `ReadStage`.)
            stopsEarly()
            return .success
        }

        let (results, signal, detours) = sendAndRecord(
            requests, inputs, reading, plan: plan, options: options, retrying: windows.retrying,
            // Text let go with a secret in it (`--force`, or the person's answer) keeps no preview.
            keepsPreviews: !plan.isForced && consented.isEmpty)

        LivingStage.finish(results, plan: plan, context: context, output: output)
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
        // The services that just worked send what waits for them, in the background. Looked for
        // before the copy (one `lstat` when there is no outbox folder), so that a run whose owner
        // is forked has nothing left to do but leave (`DeliverStage.leave`; docs/outbox.md).
        if signal == nil {
            let worked = results.compactMap { try? $0.get() }.filter { !$0.isRepeat }.map(\.service)
            seams.launchFlush(Array(Set(worked)).sorted(), plan.windows.configPath, context)
        }
        deliver.leave = seams.leave
        let status = deliver.finish(clipboard: clipboard)
        return signal.map { Interruption.exitStatus(for: $0) } ?? status
    }

    /// Send, extract and record for every paste of an upload; the results in input order, and
    /// the signal that stopped the run, if one did.
    ///
    /// The jobs (and the repeat locks they hold) end here, once every paste is recorded, before
    /// anything is delivered.
    private func sendAndRecord(
        _ requests: [UploadRequest], _ inputs: [PasteInput], _ reading: ReadStage.Reading,
        plan: RunPlan, options: PasteOptions,
        retrying: RetryFeedback?, keepsPreviews: Bool
    ) -> (results: [Result<PasteResult, PasteFailure>], signal: Signal?, detours: [FallbackStage.Detour]) {
        let interruption = Interruption.begin(simulated: seams.signals)
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
                journaled: inputs[index].journal)
            {
            case .repeated(let paste): results[index] = .success(paste)
            case .send(let job):
                if let waiting = LivingStage.beforeSend(
                    job, record: record, plan: plan, context: context, output: output)
                {
                    results[index] = .failure(waiting)
                    continue
                }
                jobs.append(job)
                positions.append(index)
            }
        }
        var send = SendStage(transfer: plan.transfer, output: output, interruption: interruption, seams: seams)
        if !plan.fallbacks.isEmpty { send.handsOver = [plan.route.service.name] }
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
                context: context, output: output, masking: plan.fallbackMasking, checksValues: !plan.isForced)
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
            results[positions[position]] = record.record(
                jobs[position], response: responses[position], transfer: plan.transfer)
        }
        return (results.map { $0! }, interruption.signal, detours)
    }
}
