import FoundationEssentials
import PasteCore
import Stores

extension UploadPipeline {
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
        // Living pastes' texts older than what their service holds never go (Pipeline/Living).
        if !plan.isDryRun { LivingStage.dropObsolete(outbox: outbox, context: context, output: output) }
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
        var sender = EntrySender(plan: plan, outbox: outbox, context: context, output: output, seams: seams)
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
            // After a pass that sent nothing, a pause before the next look, longer each time
            // (2 ms to a quarter of a second, half a second in all): runs that look at once
            // keep holding each other's entries with their listings; the pauses put them out
            // of step (50 runs at once on two cores, without them, still had two runs say an entry
            // waited, 75, in one of three suite runs: session 23).
            if idlePasses > 0, !seams.sleep(.milliseconds(1 << idlePasses), { sender.interruption.hasArrived }) {
                break
            }
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
        var sender = EntrySender(plan: plan, outbox: outbox, context: context, output: output, seams: seams)
        defer { sender.finish() }
        sender.send(claim)
        if let signal = sender.interruption.signal { return Interruption.exitStatus(for: signal) }
        return sender.deliver.status
    }
}
