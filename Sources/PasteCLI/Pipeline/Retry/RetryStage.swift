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
/// their type and skip it).
struct RetryStage {
    var plan: RetryPlan
    var context: Context
    var output: Output

    /// The job for a claimed entry, checked by the secret guard when it is text.
    ///
    /// - Throws: why it cannot go: its `--url` credentials were not kept, its service is not
    ///   configured any more or cannot connect (`ConfigError`), its request cannot be built
    ///   (`RequestError`), its content cannot be read (`StoreError`), the guard holds it.
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
        let options = Self.options(of: metadata, guessesLanguage: plan.guessesLanguage)
        // An image or a binary file was kept byte-exact with its type: it goes again as a file.
        let type = Self.mediaType(metadata.contentType)
        var build = BuildStage(service: service, context: context)
        var request = try build.build(
            outboxContent: claim.contentDescriptorPath, size: size, options: options, fileName: metadata.fileName,
            type: type)
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
        return PasteJob(
            request: request, service: service, title: metadata.title, fileName: metadata.fileName, type: type,
            source: .outbox(PasteJob.ClaimedEntry(size: size)), optionsKey: options.repeatKey,
            digest: metadata.sha256, claim: claim, repeatLock: livingLock)
    }

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
            type: type)
        request.connection = route.connection
        return request
    }

    /// The secret guard, again, on a text entry about to be sent (unless `--force`): a text
    /// put in the outbox long ago, or planted there, is looked at like a fresh one.
    ///
    /// - Throws: `GuardError.secretsFound`; the entry is then held.
    func check(_ claim: OutboxClaim) throws(GuardError) {
        guard !plan.isForced, Self.isText(claim.entry.metadata.contentType) else { return }
        let findings = SecretGuard().scan(filePath: claim.contentDescriptorPath) ?? []
        if !findings.isEmpty { throw .secretsFound(findings, source: "outbox entry \(claim.id)") }
    }

    /// Records why a claimed entry was not sent (its service is gone, the guard, a request that
    /// cannot be built) and returns it with where the text is: held or retryable in the outbox.
    static func refusal(_ failure: PasteFailure, of claim: OutboxClaim, output: Output) -> PasteFailure {
        let entry: OutboxEntry
        do {
            entry = try claim.recordFailure(OutboxFailure(failure.cause, describedBy: output))
        } catch {
            return PasteFailure(error)
        }
        return PasteFailure(cause: failure.cause, text: .outbox(id: entry.id, state: entry.metadata.effectiveState))
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
