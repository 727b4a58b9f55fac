import Clipboard
import PasteCore

/// One run of the pipeline: read -> guard -> build -> send -> extract -> record -> deliver.
///
/// Each stage is a small type of its own in this folder and sees only the plan (`RunPlan`,
/// decided once by `PlanResolver`) and what the stage before it made. An upload runs them all,
/// its pastes together at each stage (the files of `-f` are all read, all checked and all built
/// before the first is sent, and sent together on one multi handle). `--retry` enters at send
/// with jobs made from outbox entries (`RetryStage`), one entry at a time, and leaves through
/// the same extract, record and deliver.
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
        let windows = DesktopWindows(plan: plan.windows, output: output)

        let reading = try ReadStage.read(plan, clipboard: clipboard, earlyOwner: earlyOwner, context: context)
        let inputs = reading.inputs
        // Said once per service used, now that what was read chose them.
        for route in reading.routesUsed { if let warning = route.warning { output.warning(warning) } }

        var options = plan.options
        if !plan.isForced {
            try GuardStage.check(reading, windows: windows, options: &options)
        }
        if plan.prompts {
            guard let title = try windows.promptForTitle(initialText: options.title ?? "") else { return .cancelled }
            if !title.isEmpty { options.title = title }
        }

        var build = BuildStage(service: plan.route.service, context: context)
        var requests: [UploadRequest] = []
        for input in inputs {
            requests.append(try build.build(input, route: reading.route(of: input), options: options))
        }
        if plan.isDryRun {
            output.text(build.describe(requests, inputs: inputs))
            return .success
        }

        let results = sendAndRecord(requests, reading, plan: plan, options: options)

        var deliver = DeliverStage(copy: plan.copy, preparedCopy: reading.copy, windows: windows, output: output)
        for (result, input) in zip(results, inputs) { deliver.deliver(result, fileName: input.fileName, input: input) }
        return deliver.finish(clipboard: clipboard)
    }

    /// Send, extract and record for every paste of an upload; the results in input order.
    ///
    /// The jobs (and the repeat locks they hold) end here, once every paste is recorded, before
    /// anything is delivered.
    private func sendAndRecord(
        _ requests: [UploadRequest], _ reading: ReadStage.Reading, plan: RunPlan, options: PasteOptions
    ) -> [Result<PasteResult, any Error>] {
        let inputs = reading.inputs
        let record = RecordStage(context: context, output: output)
        var results = [Result<PasteResult, any Error>?](repeating: nil, count: inputs.count)
        // Where each job's result goes (a repeat, or a job that could not be prepared, has its
        // result already): two arrays, not an array of pairs, whose tuple type would be built
        // at run time on the hotkey path.
        var jobs: [PasteJob] = []
        var positions: [Int] = []
        for index in inputs.indices {
            do {
                switch try SendStage.prepare(
                    requests[index], inputs[index], service: reading.route(of: inputs[index]).service, plan: plan,
                    options: options, history: record.history, inputCount: inputs.count, context: context)
                {
                case .repeated(let paste): results[index] = .success(paste)
                case .send(let job):
                    jobs.append(job)
                    positions.append(index)
                }
            } catch {
                results[index] = .failure(error)
            }
        }
        let send = SendStage(transfer: plan.transfer, output: output)
        defer { send.finish() }
        let responses = send.send(jobs)
        for position in jobs.indices {
            results[positions[position]] = record.record(jobs[position]) {
                try ExtractStage.extract(responses[position], for: jobs[position], output: output)
            }
        }
        return results.map { $0! }
    }

    // MARK: - --retry

    /// Sends what waits in the outbox, oldest first: each entry claimed (another `--retry`
    /// holding one skips it, never sending it twice), sent, recorded and delivered before the next.
    func retry(_ plan: RetryPlan) throws -> ExitStatus {
        let outbox = Outbox(context: context)
        let record = RecordStage(context: context, output: output)
        let entries = try outbox.entries()
        guard !entries.isEmpty else { return .success }
        let send = SendStage(transfer: plan.transfer, output: output)
        let source = RetryStage(plan: plan, context: context, output: output)
        var deliver = DeliverStage(
            copy: nil, preparedCopy: nil, windows: DesktopWindows(plan: .none, output: output), output: output)
        for entry in entries {
            // Another `paste --retry` (cron and a person at once) may hold it: skip, never send twice.
            guard let claim = try outbox.claim(entry) else { continue }
            withExtendedLifetime(claim) {
                let result: Result<PasteResult, any Error>
                do {
                    let job = try source.job(for: claim)
                    let response = Result { try send.perform(job.request) }
                    result = record.record(job) { try ExtractStage.extract(response, for: job, output: output) }
                } catch {
                    result = .failure(record.keep(claim, after: error))
                }
                deliver.deliver(result, fileName: claim.entry.metadata.fileName)
            }
        }
        return deliver.status
    }
}
