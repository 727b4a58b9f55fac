/// A 5xx answer that came before the service took the whole text: the server refused before
/// reading it (issue 25, item 2).
///
/// libcurl stops sending a body once an error status arrives, so the request never reached its
/// end and no server can have made a paste of it: unlike the same status after the body
/// (`ServiceError.httpStatus`, held, since the paste may have been made), the text is
/// retryable, and the run exits 75. Where the whole body had gone out before the answer came
/// (`UploadResponse.isBodyTaken`), it stays an `httpStatus`.
public struct RefusedBeforeBody: PasteError, Equatable {
    /// The service's answer, as it would read after the body.
    public var answer: ServiceError

    /// Wraps the answer of a request whose body was cut short by it.
    public init(answer: ServiceError) {
        self.answer = answer
    }

    /// `SERVICE answered HTTP 500 before taking the text: EXCERPT`.
    public var message: String {
        guard case .httpStatus(let service, let status, let excerpt) = answer else { return answer.message }
        return "\(shown: service, limit: Sanitizer.shownPathLength) answered HTTP \(status) before taking the text"
            + (excerpt.isEmpty ? "" : ": \(excerpt)")
    }

    public var hint: String? { nil }

    /// 75: nothing was made, and the text waits to be sent again.
    public var exitStatus: ExitStatus { .temporaryFailure }

    /// Retryable: the server never got the whole request.
    public var disposition: Disposition { Disposition(.retryLater, exitStatus: exitStatus) }

    /// Whether an answer of `status` to a request whose whole body did not go out
    /// (`UploadResponse.isBodyTaken` false) is such a refusal: any 5xx.
    public static func applies(status: Int, isBodyTaken: Bool) -> Bool {
        !isBodyTaken && (500...599).contains(status)
    }
}
