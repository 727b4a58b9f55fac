import PasteCore
import Testing
import Upload

/// What each upload failure means for the text in the outbox: held when the server may have
/// taken the body, retryable when nothing reached it (OutboxFailure's table).
@Suite("Upload failures in the outbox")
struct OutboxVerdictTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var error: UploadError
        var verdict: OutboxFailure.Verdict
        var testDescription: String { "\(error.message) -> \(verdict)" }
    }

    static let url = "http://127.0.0.1:9/pastes/create"
    static let rows: [Row] = [
        Row(error: .couldNotResolve(host: "nowhere.invalid", requestSent: false), verdict: .retryable),
        Row(error: .couldNotResolve(host: "page.invalid", requestSent: true), verdict: .held),
        Row(error: .couldNotConnect(url: url, detail: "connection refused", requestSent: false), verdict: .retryable),
        Row(error: .timedOut(url: url, phase: .connect, requestSent: false), verdict: .retryable),
        Row(error: .timedOut(url: url, phase: .total(seconds: 1), requestSent: true), verdict: .held),
        Row(error: .timedOut(url: url, phase: .stalled(seconds: 30), requestSent: true), verdict: .held),
        Row(error: .tls(url: url, detail: "handshake", requestSent: false), verdict: .retryable),
        Row(error: .certificateNotTrusted(url: url, detail: "unknown CA"), verdict: .retryable),
        Row(error: .clientCertificateRequired(url: url, detail: "alert"), verdict: .retryable),
        Row(error: .sendFailed(url: url, detail: "reset"), verdict: .held),
        Row(error: .receiveFailed(url: url, detail: "Empty reply from server"), verdict: .held),
        Row(error: .badAnswer(url: url, detail: "HTTP/0.9"), verdict: .held),
        Row(error: .redirectRefused(url: "file:///etc/passwd"), verdict: .held),
        Row(error: .tooManyRedirects(10), verdict: .held),
        Row(error: .bodyRedirectRefused(url: url, status: 307), verdict: .held),
        Row(error: .proxyUnreachable(proxy: "127.0.0.1:1", detail: "refused", requestSent: false), verdict: .retryable),
        Row(error: .proxyRefused(proxy: "127.0.0.1:1", status: 407, requestSent: false), verdict: .retryable),
        Row(error: .proxyTLS(proxy: "127.0.0.1:1", detail: "unknown CA"), verdict: .retryable),
        Row(error: .unsupportedURL("ftp://x"), verdict: .held),
        Row(error: .readFailed(path: "/x", errno: .ioError, requestSent: false), verdict: .retryable),
        Row(error: .teeFailed(path: "/x", errno: .noSpace, requestSent: true), verdict: .held),
    ]

    @Test("each upload failure is retryable or held as the table says", arguments: rows)
    func verdict(_ row: Row) {
        #expect(OutboxFailure.verdict(for: row.error) == row.verdict)
        // (An unsupported URL can never be sent as it is: held though nothing reached a server.)
        if case .unsupportedURL = row.error { return }
        #expect(row.error.outboxVerdict == (row.error.mayHaveReachedServer ? .held : .retryable))
    }
}
