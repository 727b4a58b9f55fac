import PasteCore
import SecretGuard

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

    /// The job for a claimed entry.
    ///
    /// - Throws: `ConfigError` when its service is not configured any more or cannot connect,
    ///   `RequestError` when its request cannot be built, `StoreError` when its content cannot
    ///   be read.
    func job(for claim: OutboxClaim) throws -> PasteJob {
        let metadata = claim.entry.metadata
        // A literal credential in `--url` was masked when the entry was stored.
        if let url = metadata.serviceURL, url.contains(Redaction.mask) { throw CredentialsNotKept(url: url) }
        let service = try metadata.serviceURL.map { ServiceProfile.adHoc(url: $0) } ?? named(metadata.service)
        var options = PasteOptions(
            title: metadata.title, language: metadata.language, isPrivate: metadata.isPrivate,
            expirySeconds: metadata.expiry.flatMap { Int($0) })
        options.neverExpires = metadata.expiry == PrivateBin.never
        options.burnsAfterReading = metadata.burnsAfterReading ?? false
        let size = try claim.contentSize()
        // An image or a binary file was kept byte-exact with its type: it goes again as a file.
        let type = metadata.contentType.map { MediaType(recordedName: $0) } ?? .plainText
        var build = BuildStage(service: service, context: context)
        var request = try build.build(
            outboxContent: claim.contentDescriptorPath, size: size, options: options, fileName: metadata.fileName,
            type: type)
        let (connection, warning) = try PlanResolver.connection(
            for: service, paste: plan.connection, context: context, isInsecure: plan.transfer.isInsecure)
        if let warning { output.warning(warning) }
        request.connection = connection
        return PasteJob(
            request: request, service: service, title: metadata.title, fileName: metadata.fileName, type: type,
            source: .outbox(PasteJob.ClaimedEntry(size: size)), optionsKey: options.repeatKey,
            digest: metadata.sha256, claim: claim)
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

    /// Whether content of this MIME type is text the guard reads (no type: text).
    static func isText(_ type: String?) -> Bool {
        guard let type = type?.lowercased() else { return true }
        return type.hasPrefix("text/")
    }

    /// Records why a claimed entry was not sent (its service is gone, the guard, a request that
    /// cannot be built) and returns what to report: one line for a vanished service, else the
    /// failure with where the text is.
    static func refusal(_ error: any Error, of claim: OutboxClaim, output: Output) -> any Error {
        let entry: OutboxEntry
        do {
            entry = try claim.recordFailure(OutboxFailure(error, describedBy: output))
        } catch {
            return error
        }
        if case ConfigError.unknownService(let name, _, _, _) = error {
            return ServiceGone(id: entry.id, service: name)
        }
        let failure = (error as? any PasteError) ?? InternalFailure(detail: "\(error)")
        return KeptInOutbox(failure: failure, id: entry.id, isHeld: entry.metadata.state == .held)
    }

    /// The service by name, or `ConfigError.unknownService`.
    private func named(_ name: String) throws(ConfigError) -> ServiceProfile {
        guard let profile = plan.services.first(where: { $0.name == name }) else {
            throw .unknownService(name: name, known: plan.services.map(\.name))
        }
        return profile
    }
}
