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
        // `--redact` now: the entry keeps that masking was asked for it, so a later `--retry`
        // (cron's, after this one failed) masks it too (`RetryPlan.masksText(of:)`).
        if plan.isMaskingRequested && metadata.isMaskingRequested != true {
            var asked = metadata
            asked.isMaskingRequested = true
            do { try claim.describe(asked) } catch { throw PasteFailure(error) }
        }
        var options = Self.options(of: metadata, guessesLanguage: plan.guessesLanguage)
        // The values that go with it (the title, the language, its service's literal fields)
        // masked before the build carries them, where the run that wrote it would have.
        var values = GuardStage.MaskedValues()
        if let masking = plan.masking(of: metadata), masking.masks(on: service) {
            do { values = try GuardStage.maskValues(&options, service: &service) } catch { throw PasteFailure(error) }
        }
        // An image or a binary file was kept byte-exact with its type: it goes again as a file.
        let type = Self.mediaType(metadata.contentType)
        // Its text, masked where masking was asked for it: sent from a masked copy, the entry
        // keeping its text as it was until the masked paste is made.
        var content = PasteJob.ClaimedEntry(size: size, options: options, contentPath: claim.contentDescriptorPath)
        let isScanned = plan.masksText(of: metadata) && Self.isText(metadata.contentType)
        if isScanned {
            do { content = try masked(claim, content) } catch let error as PasteError {
                throw PasteFailure(error)
            } catch {
                throw PasteFailure(InputError.unreadable(path: Self.name(of: claim), reason: "\(error)"))
            }
        }
        var build = BuildStage(service: service, context: context)
        var request = try build.build(
            outboxContent: content.contentPath, size: content.size, options: options, fileName: metadata.fileName,
            type: type, name: Self.name(of: claim))
        do {
            let (connection, warning) = try PlanResolver.connection(
                for: service, paste: plan.connection, context: context, isInsecure: plan.transfer.isInsecure)
            if let warning { output.warning(warning) }
            request.connection = connection
        } catch {
            throw PasteFailure(error)
        }
        // (A text masked above was verified and scanned already.)
        if !isScanned {
            do { try verify(claim) } catch { throw PasteFailure(error) }
            do { try check(claim) } catch { throw PasteFailure(error) }
        }
        if let line = GuardStage.maskedLine(content.masked, in: Self.name(of: claim)) { output.note(line) }
        if let line = GuardStage.maskedLine(values) { output.note(line) }
        // As a fresh text's: its values are checked for its service (`--force` sends them as
        // they are, as it does a fresh text's).
        if !plan.isForced {
            do { try GuardStage.checkValues(options, services: [service]) } catch { throw PasteFailure(error) }
        }
        content.options = options
        content.masked =
            PasteJob.ClaimedEntry.recordedMasks(of: metadata) + content.masked + values.carried(to: service.name)
        return PasteJob(
            request: request, service: service, title: options.title, fileName: metadata.fileName, type: type,
            source: .outbox(content), optionsKey: options.repeatKey, digest: content.sentDigest ?? metadata.sha256,
            claim: claim, repeatLock: livingLock)
    }

    /// An entry's text with what the guard finds in it masked (`RetryPlan.masksText(of:)`):
    /// verified against its digest, scanned, and when anything is found, `content` made to read
    /// from a masked copy (`GuardStage.maskedCopy`), with its size, its digest and what was
    /// masked (`content.masked`, this text's only). Unchanged when nothing is found.
    ///
    /// - Throws: `ContentChanged` (held); `RedactionError.stillFound` when the copy still holds
    ///   what the guard finds (held, as the guard's refusals are); `InputError` or `StoreError`
    ///   when the copy cannot be made.
    private func masked(_ claim: OutboxClaim, _ content: PasteJob.ClaimedEntry) throws -> PasteJob.ClaimedEntry {
        try verify(claim)
        let findings = SecretGuard().scan(filePath: claim.contentDescriptorPath) ?? []
        guard !findings.isEmpty else { return content }
        let copy = try GuardStage.maskedCopy(
            ofFile: claim.contentDescriptorPath, label: Self.name(of: claim), findings: findings, context: context)
        var masked = content
        masked.contentPath = copy.path
        masked.size = copy.size
        masked.masked = copy.masked
        masked.sentDigest = RecordStage.digest(ofFile: copy.path)
        return masked
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

    /// The request for an entry's content (its text as `job(for:)` sends it: masked there, the
    /// masked copy) to another service (a fallback), as `job(for:)` builds it.
    static func request(
        for claim: OutboxClaim, content: PasteJob.ClaimedEntry, build: inout BuildStage, route: RunPlan.Route,
        options: PasteOptions
    ) throws -> UploadRequest {
        let metadata = claim.entry.metadata
        let type = mediaType(metadata.contentType)
        var request = try build.build(
            outboxContent: content.contentPath, size: content.size, options: options, fileName: metadata.fileName,
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
