import PasteCore
import SecretGuard
import Stores

/// `--retry`'s way into the pipeline (and `--outbox send`'s): each claimed outbox entry becomes
/// a job that enters at send and leaves through extract, record and deliver like a fresh
/// upload's.
///
/// The entry's metadata says where it was going and with which options; its service and how
/// that connects are resolved here, as each entry is sent (an entry whose service is gone is
/// held alone, the others still go). Its content is read only through the claim's descriptor
/// (`OutboxClaim.contentDescriptorPath`): a file swapped or linked in its place is never sent.
/// A text entry passes the secret guard again before it goes (binary and image entries carry
/// their type and skip it), and so do the values that go with any entry (the title, the
/// language, its service's literal fields: `GuardStage.checkValues`), masked first where the
/// run that wrote it would have masked them (`RetryPlan.masking(of:)`); `--force` skips both,
/// as it does for a fresh text.
struct RetryStage {
    var plan: RetryPlan
    var context: Context
    var output: Output

    /// The job for a claimed entry, checked by the secret guard when it is text, its values
    /// masked or checked as a fresh text's are.
    ///
    /// - Throws: why it cannot go: its `--url` credentials were not kept, its service is not
    ///   configured any more or cannot connect (`ConfigError`), its request cannot be built
    ///   (`RequestError`), its content cannot be read (`StoreError`), the guard holds it (in
    ///   its text or its values: `GuardError`, `RedactionError`).
    func job(for claim: OutboxClaim) throws(PasteFailure) -> PasteJob {
        let metadata = claim.entry.metadata
        // A literal credential in `--url` was masked when the entry was stored.
        if let url = metadata.serviceURL, url.contains(Redaction.mask) {
            throw PasteFailure(CredentialsNotKept(url: url))
        }
        var service: ServiceProfile
        let size: Int64
        if let url = metadata.serviceURL {
            service = ServiceProfile.adHoc(url: url)
        } else {
            do { service = try plan.services.named(metadata.service) } catch { throw PasteFailure(error) }
        }
        // A living paste's entry: made or replaced as NAME stands now, under NAME's lock.
        var livingLock: FileLock?
        do {
            (service, livingLock) = try LivingStage.retryProfile(
                service, entry: claim.entry, plan: plan, context: context, output: output)
        } catch let error as PasteError {
            throw PasteFailure(error)
        } catch {
            throw PasteFailure(LivingError.notMadeYet(name: metadata.living ?? "", createEntry: nil))
        }
        do { size = try claim.contentSize() } catch { throw PasteFailure(error) }
        var options = Self.options(of: metadata, guessesLanguage: plan.guessesLanguage)
        // The values that go with it (the title, the language, its service's literal fields)
        // masked before the build carries them, where the run that wrote it would have.
        var values = GuardStage.MaskedValues()
        if let masking = plan.masking(of: metadata), masking.masks(on: service) {
            do { values = try GuardStage.maskValues(&options, service: &service) } catch { throw PasteFailure(error) }
        }
        // An image or a binary file was kept byte-exact with its type: it goes again as a file.
        let type = Self.mediaType(metadata.contentType)
        var build = BuildStage(service: service, context: context)
        var request = try build.build(
            outboxContent: claim.contentDescriptorPath, size: size, options: options, fileName: metadata.fileName,
            type: type, name: Self.name(of: claim))
        do {
            let (connection, warning) = try PlanResolver.connection(
                for: service, paste: plan.connection, context: context, isInsecure: plan.transfer.isInsecure)
            if let warning { output.warning(warning) }
            request.connection = connection
        } catch {
            throw PasteFailure(error)
        }
        do { try verify(claim) } catch { throw PasteFailure(error) }
        do { try check(claim) } catch { throw PasteFailure(error) }
        if let line = GuardStage.maskedLine(values) { output.note(line) }
        // As a fresh text's: its values are checked for its service (`--force` sends them as
        // they are, as it does a fresh text's).
        if !plan.isForced {
            do { try GuardStage.checkValues(options, services: [service]) } catch { throw PasteFailure(error) }
        }
        let masked = PasteJob.ClaimedEntry.recordedMasks(of: metadata) + values.carried(to: service.name)
        return PasteJob(
            request: request, service: service, title: options.title, fileName: metadata.fileName, type: type,
            source: .outbox(PasteJob.ClaimedEntry(size: size, options: options, masked: masked)),
            optionsKey: options.repeatKey, digest: metadata.sha256, claim: claim, repeatLock: livingLock)
    }

    /// How what the run says names an entry's text (`ContentChecks.contentName`): as its other
    /// messages do, `outbox entry ID`, never the descriptor it is read through
    /// (`/proc/self/fd/N`).
    static func name(of claim: OutboxClaim) -> String { "outbox entry \(claim.id)" }

    /// The options an entry was to be pasted with, from its metadata; a language is guessed
    /// for it only where `guess-language` allows (`RetryPlan.guessesLanguage`).
    static func options(of metadata: OutboxEntry.Metadata, guessesLanguage: Bool) -> PasteOptions {
        var options = PasteOptions(
            title: metadata.title, language: metadata.language, isPrivate: metadata.isPrivate,
            expirySeconds: metadata.expiry.flatMap { Int($0) })
        options.guessesLanguage = guessesLanguage
        options.neverExpires = metadata.expiry == PrivateBin.never
        options.burnsAfterReading = metadata.burnsAfterReading ?? false
        return options
    }

    /// The fallback chain of an entry's service (none for a `--url` entry, or a `fallback`
    /// that names no service: the entry then waits for its own).
    func fallbacks(of job: PasteJob) -> [ServiceProfile] {
        guard job.claim?.entry.metadata.serviceURL == nil else { return [] }
        return (try? FallbackStage.chain(from: job.service, among: plan.services)) ?? []
    }

    /// The request for an entry's content to another service (a fallback), as `job(for:)` builds it.
    static func request(
        for claim: OutboxClaim, size: Int64, build: inout BuildStage, route: RunPlan.Route, options: PasteOptions
    ) throws -> UploadRequest {
        let metadata = claim.entry.metadata
        let type = mediaType(metadata.contentType)
        var request = try build.build(
            outboxContent: claim.contentDescriptorPath, size: size, options: options, fileName: metadata.fileName,
            type: type, name: name(of: claim))
        request.connection = route.connection
        return request
    }

    /// The secret guard, again, on a text entry about to be sent (unless `--force`): a text
    /// put in the outbox long ago, or planted there, is looked at like a fresh one.
    ///
    /// - Throws: `EntryHeldByGuard` (the guard's refusal, naming the entry); the entry is then
    ///   held.
    func check(_ claim: OutboxClaim) throws(EntryHeldByGuard) {
        guard !plan.isForced, Self.isText(claim.entry.metadata.contentType) else { return }
        let findings = SecretGuard().scan(filePath: claim.contentDescriptorPath) ?? []
        if !findings.isEmpty { throw EntryHeldByGuard(findings: findings, id: claim.id) }
    }

    /// Records why a claimed entry was not sent (its service is gone, the guard, a request that
    /// cannot be built) and returns it with where the text is: held or retryable in the outbox
    /// (held, its words say nothing of it was sent, unless it was held already).
    static func refusal(_ failure: PasteFailure, of claim: OutboxClaim, output: Output) -> PasteFailure {
        // Not sent now; an entry held before (an earlier attempt may have made the paste) keeps
        // the words that say so.
        let wasHeld = claim.entry.metadata.effectiveState == .held
        let entry: OutboxEntry
        do {
            entry = try claim.recordFailure(OutboxFailure(failure.cause, describedBy: output))
        } catch {
            return PasteFailure(error)
        }
        var refusal = PasteFailure(
            cause: failure.cause, text: .outbox(id: entry.id, state: entry.metadata.effectiveState))
        refusal.isRefusedBeforeSending = !wasHeld
        return refusal
    }

    /// Checks that an entry's content is the one it recorded (its SHA-256), before it is sent:
    /// a content edited in place, even to the same length, is never sent as the original.
    ///
    /// - Throws: `ContentChanged`; the entry is then held.
    func verify(_ claim: OutboxClaim) throws(ContentChanged) {
        guard let recorded = claim.entry.metadata.sha256 else { return }
        if RecordStage.digest(ofFile: claim.contentDescriptorPath) != recorded { throw ContentChanged(id: claim.id) }
    }

    /// The type an entry recorded (no type: plain text, as entries were before types).
    static func mediaType(_ recorded: String?) -> MediaType {
        recorded.map { MediaType(recordedName: $0) } ?? .plainText
    }

    /// Whether content of this recorded MIME type is text the guard reads (no type: text).
    static func isText(_ type: String?) -> Bool {
        mediaType(type).category == .text
    }
}
