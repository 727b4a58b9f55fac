import FoundationEssentials
import PasteCore
import Requests
import Stores
import Upload

/// Living pastes (`paste --update NAME`, issue 43 item 1): the first run makes the paste and
/// remembers NAME (`LivingPastes`, in the state folder beside the history); later runs replace
/// its content in place (`LivingUpdate`) and print the same URL.
///
/// Where it enters the pipeline, each a call from a shared stage:
/// - `PlanResolver`: `service(for:…)` picks NAME's service and refuses one that cannot update,
///   before anything is read;
/// - `UploadPipeline.upload`: `begin` takes NAME's lock for the run and decides: make it, replace
///   it (the run's profile becomes `ServiceProfile.updatingProfile`), or wait (its first text is
///   still in the outbox); no fallback, no repeat answer;
/// - `UploadPipeline.sendAndRecord`: `beforeSend` keeps a waiting text in the outbox unsent, and
///   deletes a `recreate` service's paste just before its text goes again;
/// - `RecordStage`: `LivingRecorder.pasted` writes what the service answered before the outbox
///   lets go of the text (so a run killed in between leaves a record, never a second create);
/// - `--retry`: `dropObsolete` first (pending updates of one name collapse to the newest, and
///   nothing older than what the server holds is sent), then `retryProfile` per entry.
enum LivingStage {
    // MARK: - The plan

    /// The service a run of `--update NAME` sends to: NAME's own once it exists (unless the run
    /// names one: it must be the same), else the run's; refused when it cannot update.
    static func service(
        for name: String, chosen: ServiceProfile, isNamed: Bool, configuration: Configuration, context: Context
    ) throws -> ServiceProfile {
        var service = chosen
        if let record = try LivingPastes(context: context).paste(named: name) {
            if isNamed, record.service != chosen.name {
                throw LivingError.livesElsewhere(name: name, service: record.service, named: chosen.name)
            }
            if !isNamed { service = try configuration.services.named(record.service) }
        }
        guard service.canUpdate else {
            throw RequestError.unsupportedOption(
                service: service.name, option: "--update (it cannot replace a paste in place)")
        }
        return service
    }

    // MARK: - A fresh run

    /// Takes NAME's lock for the run and sets the run's profile: the update profile of a paste
    /// that exists, the create profile of a first text (remembered before anything is sent), or
    /// a waiting one when the first text is still in the outbox.
    ///
    /// - Returns: the lock, held until the run is recorded; nil for a run that is no `--update`.
    static func begin(_ plan: inout RunPlan, context: Context) throws -> FileLock? {
        guard let name = plan.living else { return nil }
        let store = LivingPastes(context: context)
        let lock = try store.lock(name)
        let service = plan.route.service
        let record = try store.paste(named: name)
        var target = LivingTarget(name: name)
        if let record, record.isMade {
            target.id = record.id
            target.url = record.url
            target.recreates = service.updating?.mode == .recreate
        } else if record != nil, let entry = pendingCreate(of: name, outbox: Outbox(context: context)) {
            target.isWaiting = true
            target.waitingFor = entry.id
        } else if !plan.isDryRun {
            try store.save(record ?? LivingPaste(name: name, service: service.name, created: context.now()))
        }
        plan.route.service = service.updatingProfile(target)
        plan.fallbacks = []
        plan.repeatWindow = nil
        return lock
    }

    /// The outbox entry that holds NAME's first text, if one does (dead runs' entries settled).
    static func pendingCreate(of name: String, outbox: Outbox) -> OutboxEntry? {
        let items = (try? outbox.listing(recovering: true).items) ?? []
        return items.first { $0.entry.metadata.living == name && $0.entry.metadata.livingAction == .create }?.entry
    }

    /// Just before a living paste's job is sent: a waiting text goes to the outbox unsent (the
    /// failure returned), and a `recreate` service's paste is deleted first.
    static func beforeSend(
        _ job: PasteJob, record: RecordStage, plan: RunPlan, context: Context, output: Output
    ) -> PasteFailure? {
        guard let living = job.service.living else { return nil }
        if living.isWaiting {
            return record.keep(job, after: LivingError.notMadeYet(name: living.name, createEntry: living.waitingFor))
        }
        if living.recreates {
            deleteForRecreate(
                job.service, living, transfer: plan.transfer, paste: plan.pasteConnection, context: context,
                output: output)
        }
        return nil
    }

    /// Deletes the paste a `recreate` service makes again: a paste already gone (404) is
    /// fine; any other failure is said, and the text is sent anyway (the service refuses it if
    /// the old one is still there, and the text then waits in the outbox).
    static func deleteForRecreate(
        _ service: ServiceProfile, _ living: LivingTarget, transfer: RunPlan.Transfer, paste: ConnectionSettings,
        context: Context, output: Output
    ) {
        guard let id = living.id else { return }
        do {
            let response = try sendDeletion(
                service, id: id, transfer: transfer, paste: paste, context: context, output: output)
            if !(200...299).contains(response.status) && response.status != 404 {
                output.note(
                    "could not delete living paste '\(shown: living.name)' before making it again: "
                        + "\(shown: service.name) answered HTTP \(response.status)")
            }
        } catch {
            output.note(
                "could not delete living paste '\(shown: living.name)' before making it again: "
                    + "\((error as? any PasteError)?.message ?? String(describing: error))")
        }
    }

    /// Sends the service's deletion of the paste `id` (`delete-url`), with the service's headers.
    static func sendDeletion(
        _ service: ServiceProfile, id: String, transfer: RunPlan.Transfer, paste: ConnectionSettings,
        context: Context, output: Output
    ) throws -> UploadResponse {
        guard let updating = service.updating, let template = updating.deleteURL else {
            throw RequestError.unsupportedOption(service: service.name, option: "deleting a living paste")
        }
        var request = UploadRequest(
            url: LivingUpdate.resolve(template, id: id, against: service.url.raw), method: updating.deleteMethod,
            body: .rendered([], contentType: ""), result: .body)
        var expansion = ValueExpansion(context: context)
        for header in service.headers { request.headers.append(try expansion.expand(header)) }
        let (connection, warning) = try PlanResolver.connection(
            for: service, paste: paste, context: context, isInsecure: transfer.isInsecure)
        if let warning { output.warning(warning) }
        request.connection = connection
        return try SendStage(transfer: transfer, output: output).sendOnce(request)
    }

    /// After a fresh run's paste is recorded: a text left in the outbox collapses the older
    /// pending updates of its name; a recreated paste says so.
    static func finish(_ results: [Result<PasteResult, PasteFailure>], plan: RunPlan, context: Context, output: Output)
    {
        guard let living = plan.route.service.living else { return }
        for result in results {
            switch result {
            case .failure(let failure):
                if case .outbox = failure.text {
                    dropObsolete(outbox: Outbox(context: context), context: context, output: output, only: living.name)
                }
            case .success(let paste):
                guard living.recreates else { continue }
                output.note(
                    paste.url == living.url
                        ? "living paste '\(shown: living.name)' was made again at the same URL "
                            + "(\(shown: plan.route.service.name) cannot replace a paste in place)"
                        : "living paste '\(shown: living.name)' was made again; its URL changed")
            }
        }
    }

    // MARK: - The outbox

    /// Drops the living pastes' entries that must never be sent: one whose text is older than
    /// what the service holds, or an update older than another waiting update of its name
    /// (last writer wins). Creates are never merged. Entries a live run holds are left.
    static func dropObsolete(outbox: Outbox, context: Context, output: Output, only name: String? = nil) {
        // A look only: the recovery pass (and what it says) is the run's own listing's, after.
        let items = ((try? outbox.listing(recovering: false).items) ?? []).filter {
            guard let living = $0.entry.metadata.living else { return false }
            return name == nil || living == name
        }
        guard !items.isEmpty else { return }
        let store = LivingPastes(context: context)
        // Entry names sort by creation, to the millisecond (`OutboxEntry.name`).
        var newestUpdate: [String: String] = [:]
        for item in items where item.entry.metadata.livingAction == .update {
            let living = item.entry.metadata.living!
            newestUpdate[living] = max(newestUpdate[living] ?? item.entry.name, item.entry.name)
        }
        for item in items where !item.isBusy {
            let metadata = item.entry.metadata
            let living = metadata.living!
            let record = try? store.paste(named: living)
            let isOlderThanServer =
                record?.isMade == true && record?.contentEntry.map { item.entry.name <= $0 } == true
            let isOlderUpdate =
                metadata.livingAction == .update && (newestUpdate[living].map { item.entry.name < $0 } ?? false)
            guard isOlderThanServer || isOlderUpdate else { continue }
            if (try? outbox.drop(id: item.id)) != nil {
                output.note(
                    "outbox entry \(item.id) of living paste '\(shown: living)' is replaced by a newer text: dropped")
            }
        }
    }

    /// The profile a living paste's outbox entry is sent with (`--retry`, `--outbox send`), and
    /// NAME's lock, held while it is sent.
    static func retryProfile(
        _ service: ServiceProfile, entry: OutboxEntry, plan: RetryPlan, context: Context, output: Output
    ) throws -> (ServiceProfile, FileLock?) {
        guard let name = entry.metadata.living else { return (service, nil) }
        let store = LivingPastes(context: context)
        let lock = try store.lock(name)
        let record = try store.paste(named: name)
        var target = LivingTarget(name: name)
        if let record, record.isMade {
            if let held = record.contentEntry, entry.name <= held { throw LivingError.superseded(name: name) }
            target.id = record.id
            target.url = record.url
            target.recreates = service.updating?.mode == .recreate
            if target.recreates {
                deleteForRecreate(
                    service, target, transfer: plan.transfer, paste: plan.connection, context: context, output: output)
            }
        } else if record != nil, entry.metadata.livingAction == .update {
            throw LivingError.notMadeYet(name: name, createEntry: nil)
        } else if record == nil {
            try store.save(LivingPaste(name: name, service: service.name, created: context.now()))
        }
        return (service.updatingProfile(target), lock)
    }
}

/// What recording a living paste's success wrote (`--json` shows it).
struct LivingRecorded: Sendable {
    var name: String
    /// How many times its content was replaced.
    var updates: Int
    /// Whether this run deleted and made it again.
    var isRecreated: Bool
}

/// Records what the service answered for a living paste, before the outbox lets go of its
/// text: its id, URL and deletion when made (or made again), one more update otherwise, and
/// the time of the text now on the server.
enum LivingRecorder {
    static func pasted(_ job: PasteJob, outcome: ResultExtractor.Outcome, context: Context, output: Output)
        -> LivingRecorded?
    {
        guard let living = job.service.living else { return nil }
        let store = LivingPastes(context: context)
        let contentEntry: String
        switch job.source {
        case .input(let fresh):
            contentEntry = job.claim?.entry.name ?? LivingPaste.entryName(at: fresh.metadata.created)
        case .outbox:
            contentEntry = job.claim?.entry.name ?? LivingPaste.entryName(at: context.now())
        }
        var record =
            (try? store.paste(named: living.name))
            ?? LivingPaste(name: living.name, service: job.service.name, created: context.now())
        if living.isUpdate {
            record.updates += 1
            record.updated = context.now()
            if living.recreates {
                record.id = outcome.id ?? record.id
                record.url = outcome.url
                record.deletion = outcome.deletion ?? record.deletion
            }
        } else {
            record.id = outcome.id ?? LivingUpdate.id(fromURL: outcome.url)
            record.url = outcome.url
            record.deletion = outcome.deletion
            record.service = job.service.name
        }
        record.contentEntry = max(record.contentEntry ?? contentEntry, contentEntry)
        do {
            try store.save(record)
        } catch {
            output.error("living paste '\(shown: living.name)' could not be recorded: \(error.message)")
        }
        return LivingRecorded(name: living.name, updates: record.updates, isRecreated: living.recreates)
    }
}
