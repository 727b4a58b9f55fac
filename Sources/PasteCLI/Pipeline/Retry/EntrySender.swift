import PasteCore
import Stores
import SystemInterop
import Upload

/// Sends claimed outbox entries one at a time, through send, extract, record and deliver: what
/// `--retry` and `--outbox send` share.
struct EntrySender {
    let interruption: Interruption
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

    init(plan: RetryPlan, outbox: Outbox, context: Context, output: Output, seams: Seams = .live) {
        self.plan = plan
        interruption = Interruption.begin(simulated: seams.signals)
        stage = RetryStage(plan: plan, context: context, output: output)
        record = RecordStage(context: context, output: output, outbox: outbox, interruption: interruption)
        send = SendStage(transfer: plan.transfer, output: output, interruption: interruption, seams: seams)
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
            result = record.record(job, response: response, transfer: plan.transfer)
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
        // Its values masked or checked for the fallback as a fresh text's are: masked where the
        // run that wrote it would have, unchecked under `--force`.
        let fallback = FallbackStage(
            chain: chain, pasteConnection: plan.connection, isInsecure: plan.transfer.isInsecure,
            context: stage.context, output: stage.output, masking: plan.masking(of: claim.entry.metadata),
            checksValues: !plan.isForced)
        return fallback.resend(job, response: response, options: entry.options, send: send) { build, route, options in
            try RetryStage.request(for: claim, content: entry, build: &build, route: route, options: options)
        }
    }

    /// Erases the progress bar and gives the signals their default action back.
    func finish() {
        send.finish()
        interruption.end()
    }
}
