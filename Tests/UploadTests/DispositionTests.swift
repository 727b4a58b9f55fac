import PasteCore
import Testing
import Upload

/// What each failure means, as the error that says it decides (`Disposition`): the course every
/// stage reads (retry now, fall back, retry later, hold, drop), and the reason the words use.
@Suite("Dispositions of failures")
struct DispositionTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var error: any PasteError & Sendable
        var course: Disposition.Course
        var reason: Disposition.Reason?
        var testDescription: String { "\(error.message) -> \(course)" }
    }

    static let url = "http://127.0.0.1:9/pastes/create"
    static let rows: [Row] = [
        Row(
            error: UploadError.couldNotConnect(url: url, detail: "connection refused", requestSent: false),
            course: .retryNow, reason: .unreachable),
        Row(
            error: UploadError.timedOut(url: url, phase: .connect, requestSent: false), course: .retryNow,
            reason: .unreachable),
        Row(error: UploadError.timedOut(url: url, phase: .total(seconds: 1), requestSent: false), course: .retryNow),
        Row(error: UploadError.timedOut(url: url, phase: .total(seconds: 1), requestSent: true), course: .hold),
        Row(error: UploadError.tls(url: url, detail: "handshake", requestSent: false), course: .retryLater),
        Row(error: UploadError.unsupportedURL("ftp://x"), course: .drop, reason: .unsendableURL),
        Row(
            error: UploadError.contentRefused(.binary(source: "stdin", offset: 3)), course: .drop),
        Row(
            error: UploadError.contentRefused(.secret(source: "stdin", pattern: .privateKey, offset: 0, line: 1)),
            course: .hold, reason: .heldByGuard),
        Row(error: ServiceError.httpStatus(service: "s", status: 503, excerpt: ""), course: .retryLater),
        Row(
            error: ServiceError.httpStatus(service: "s", status: 403, excerpt: ""), course: .hold,
            reason: .permanentRefusal),
        Row(error: ServiceError.httpStatus(service: "s", status: 500, excerpt: ""), course: .hold),
        Row(error: RefusedBeforeBody(answer: .httpStatus(service: "s", status: 500, excerpt: "")), course: .retryLater),
    ]

    @Test("each failure has the course and reason its error decides", arguments: rows)
    func disposition(_ row: Row) {
        #expect(row.error.disposition.course == row.course)
        #expect(row.error.disposition.reason == row.reason)
        #expect(row.error.disposition.exitStatus == row.error.exitStatus)
    }

    @Test("the stages' questions follow from the course")
    func questions() {
        let unreachable = UploadError.couldNotResolve(host: "nowhere.invalid", requestSent: false).disposition
        #expect(unreachable.isRetriedNow && unreachable.fallsBack && unreachable.outboxVerdict == .retryable)
        let sentBody = UploadError.sendFailed(url: Self.url, detail: "reset").disposition
        #expect(!sentBody.isRetriedNow && !sentBody.fallsBack && sentBody.outboxVerdict == .held)
        let binary = UploadError.contentRefused(.binary(source: "stdin", offset: 0)).disposition
        #expect(!binary.isKeptWhenFresh && binary.outboxVerdict == .held)
    }
}
