import Clipboard
import PasteCore

/// One run of the pipeline: read -> guard -> build -> send -> extract -> record -> deliver.
///
/// Each stage is a small type of its own in this folder and sees only the plan (`RunPlan`,
/// decided once by `PlanResolver`) and what the stage before it made. An upload runs them all,
/// its pastes together at each stage (the files of `-f` are all read, all checked and all built
/// before the first is sent, and sent together on one multi handle).
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
        _ plan: RunPlan, clipboard: Result<any Clipboard, ClipboardError>,
        earlyOwner: (any PreparedClipboardWrite)?
    ) throws -> ExitStatus {
        for warning in plan.warnings { output.warning(warning) }
        let windows = DesktopWindows(plan: plan.windows, output: output)

        let reading = try ReadStage(plan: plan, clipboard: clipboard, earlyOwner: earlyOwner).read()
        let inputs = reading.inputs

        var options = plan.options
        if !plan.isForced {
            try GuardStage(service: plan.service, windows: windows).check(inputs, options: &options)
        }
        if plan.prompts {
            guard let title = try windows.promptForTitle(initialText: options.title ?? "") else { return .cancelled }
            if !title.isEmpty { options.title = title }
        }

        var build = BuildStage(service: plan.service, context: context)
        var requests: [UploadRequest] = []
        for input in inputs { requests.append(try build.build(input, options: options, connection: plan.connection)) }
        if plan.isDryRun {
            output.text(build.describe(requests, inputs: inputs))
            return .success
        }

        let results = sendAndRecord(requests, inputs, plan: plan, options: options)

        var deliver = DeliverStage(
            copy: plan.copy, preparedCopy: reading.copy, clipboard: clipboard, windows: windows, output: output)
        for (result, input) in zip(results, inputs) { deliver.deliver(result, fileName: input.fileName) }
        return deliver.finish()
    }

    /// Send, extract and record for every paste of an upload; the results in input order.
    ///
    /// The jobs (and the repeat locks they hold) end here, once every paste is recorded, before
    /// anything is delivered.
    private func sendAndRecord(
        _ requests: [UploadRequest], _ inputs: [PasteInput], plan: RunPlan, options: PasteOptions
    ) -> [Result<PasteResult, any Error>] {
        let record = RecordStage(context: context, output: output)
        var results = [Result<PasteResult, any Error>?](repeating: nil, count: inputs.count)
        var jobs: [(index: Int, job: PasteJob)] = []
        for index in inputs.indices {
            do {
                switch try SendStage.prepare(
                    requests[index], inputs[index], plan: plan, options: options, history: record.history,
                    inputCount: inputs.count, context: context)
                {
                case .repeated(let paste): results[index] = .success(paste)
                case .send(let job): jobs.append((index, job))
                }
            } catch {
                results[index] = .failure(error)
            }
        }
        let send = SendStage(transfer: plan.transfer, output: output)
        defer { send.finish() }
        let responses = send.send(jobs.map(\.job))
        for ((index, job), response) in zip(jobs, responses) {
            results[index] = record.record(ExtractStage.extract(response, for: job, output: output), of: job)
        }
        return results.map { $0! }
    }
}
