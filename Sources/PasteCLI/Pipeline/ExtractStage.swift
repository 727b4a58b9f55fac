import PasteCore

/// Extract, after send: the paste's URL (and deletion token or URL) from the server's answer,
/// by the service's `result` rule; every URL validated by `Sanitizer` on the way.
enum ExtractStage {
    /// What was read from an answer, and what recording the paste needs of it.
    struct Answer {
        /// The paste's URL and deletion token.
        var outcome: ResultExtractor.Outcome
        /// How many bytes of the body went out (the size of a paste no other count knows).
        var bytesSent: Int64
    }

    /// The answer to `job`.
    ///
    /// A paste whose page, reached by the service's redirect, failed was still made: it gets a
    /// one-line warning and counts as made.
    ///
    /// - Throws: why there is none: the failure to send, an HTTP error, an answer without a
    ///   usable URL.
    static func extract(
        _ response: Result<UploadResponse, any Error>, for job: PasteJob, output: Output
    ) throws -> Answer {
        let response = try response.get()
        let outcome = try ResultExtractor.extract(from: response, request: job.request, profile: job.service)
        if let page = response.unreadPage {
            output.note("warning: the paste was made, but its page \(Sanitizer.printable(page, limit: 200))")
        }
        return Answer(outcome: outcome, bytesSent: response.bytesSent)
    }
}
