import PasteCore

/// `--retry`'s way into the pipeline: each claimed outbox entry becomes a job that enters at
/// send and leaves through extract, record and deliver like a fresh upload's.
///
/// The entry's metadata says where it was going and with which options; its service and how
/// that connects are resolved here, as each entry is sent (an entry whose service is gone fails
/// alone). The content file is statted once; its digest is taken once, by `RecordStage`.
struct RetryStage {
    var plan: RetryPlan
    var context: Context
    var output: Output

    /// The job for a claimed entry.
    ///
    /// - Throws: `ConfigError` when its service is not configured any more or cannot connect,
    ///   `RequestError` or `InputError` when its request cannot be built.
    func job(for claim: OutboxClaim) throws -> PasteJob {
        let entry = claim.entry
        let metadata = entry.metadata
        let service = try metadata.serviceURL.map { ServiceProfile.adHoc(url: $0) } ?? named(metadata.service)
        var options = PasteOptions(
            title: metadata.title, language: metadata.language, isPrivate: metadata.isPrivate,
            expirySeconds: metadata.expiry.flatMap { Int($0) })
        options.neverExpires = metadata.expiry == PrivateBin.never
        options.burnsAfterReading = metadata.burnsAfterReading ?? false
        let size = RecordStage.fileSize(entry.contentPath) ?? 0
        // An image or a binary file was kept byte-exact with its type: it goes again as a file.
        let type = metadata.contentType.map { MediaType(recordedName: $0) } ?? .plainText
        var build = BuildStage(service: service, context: context)
        var request = try build.build(
            outboxContent: entry.contentPath, size: size, options: options, fileName: metadata.fileName, type: type)
        let (connection, warning) = try PlanResolver.connection(
            for: service, paste: plan.connection, context: context, isInsecure: plan.transfer.isInsecure)
        if let warning { output.warning(warning) }
        request.connection = connection
        return PasteJob(
            request: request, service: service, title: metadata.title, fileName: metadata.fileName, type: type,
            source: .outbox(PasteJob.ClaimedEntry(claim: claim, size: size)))
    }

    /// The service by name, or `ConfigError.unknownService`.
    private func named(_ name: String) throws(ConfigError) -> ServiceProfile {
        guard let profile = plan.services.first(where: { $0.name == name }) else {
            throw .unknownService(name: name, known: plan.services.map(\.name))
        }
        return profile
    }
}
