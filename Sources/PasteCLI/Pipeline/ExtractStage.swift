import PasteCore
import Requests
import Upload

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
    /// - Returns: the answer, or why there is none: the failure to send, an HTTP error, an
    ///   answer without a usable URL (the text still where it was: record says where it goes).
    static func extract(
        _ sent: Result<UploadResponse, UploadError>, for job: PasteJob, output: Output
    ) -> Result<Answer, PasteFailure> {
        let response: UploadResponse
        switch sent {
        case .success(let answer): response = answer
        case .failure(let error): return .failure(PasteFailure(error))
        }
        let outcome: ResultExtractor.Outcome
        do {
            outcome = try ResultExtractor.extract(from: response, request: job.request, profile: job.service)
        } catch {
            // A 5xx that cut the body short: the server refused before reading it (retryable).
            if case .httpStatus(_, let status, _) = error,
                RefusedBeforeBody.applies(status: status, isBodyTaken: response.isBodyTaken)
            {
                return .failure(PasteFailure(RefusedBeforeBody(answer: error)))
            }
            return .failure(PasteFailure(error))
        }
        if let page = response.unreadPage {
            output.note("warning: the paste was made, but its page \(Sanitizer.printable(page, limit: 200))")
        }
        return .success(Answer(outcome: outcome, bytesSent: response.bytesSent))
    }
}
