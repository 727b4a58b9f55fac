import PasteCore
import SystemInterop
import Testing
@testable import Upload

/// Pure decisions: injected random source (always 0.5) and clock.
@Suite("Retry policy")
struct RetryPolicyTests {
    /// 1994-11-06 08:49:37 UTC, the RFC's example date, minus 10 seconds.
    static let now: Double = 784_111_777 - 10
    let policy = RetryPolicy(
        maximumAttempts: 4, baseDelay: .seconds(2), maximumDelay: .seconds(60), random: { 0.5 },
        now: { RetryPolicyTests.now })

    static func response(_ status: Int, retryAfter: String? = nil) -> Result<UploadResponse, UploadError> {
        .success(
            UploadResponse(
                status: status, headers: retryAfter.map { [(name: "Retry-After", value: $0)] } ?? [],
                effectiveURL: "http://h/"))
    }

    static let cases: [(String, Result<UploadResponse, UploadError>, Int, RetryPolicy.Decision)] = [
        (
            "refused connection, first attempt: backoff 2s half-jittered",
            .failure(.couldNotConnect(url: "http://h/", detail: "refused", requestSent: false)), 1,
            .retry(after: .seconds(1.5))
        ),
        (
            "refused connection, third attempt: 8s step",
            .failure(.couldNotConnect(url: "http://h/", detail: "refused", requestSent: false)), 3,
            .retry(after: .seconds(6))
        ),
        (
            "refused connection, attempts used up",
            .failure(.couldNotConnect(url: "http://h/", detail: "refused", requestSent: false)), 4, .stop
        ),
        (
            "DNS failure before sending", .failure(.couldNotResolve(host: "h", requestSent: false)), 1,
            .retry(after: .seconds(1.5))
        ),
        (
            "connect timeout", .failure(.timedOut(url: "http://h/", phase: .connect, requestSent: false)), 2,
            .retry(after: .seconds(3))
        ),
        (
            "stall after the body went out",
            .failure(.timedOut(url: "http://h/", phase: .stalled(seconds: 30), requestSent: true)), 1, .stop
        ),
        (
            "total timeout after sending",
            .failure(.timedOut(url: "http://h/", phase: .total(seconds: 5), requestSent: true)), 1, .stop
        ),
        (
            "connect failure after a redirect (the first POST landed)",
            .failure(.couldNotConnect(url: "http://h/", detail: "refused", requestSent: true)), 1, .stop
        ),
        ("send failure", .failure(.sendFailed(url: "http://h/", detail: "reset")), 1, .stop),
        ("TLS failure", .failure(.tls(url: "https://h/", detail: "bad cert", requestSent: false)), 1, .stop),
        ("local read failure", .failure(.readFailed(path: "/f", errno: .ioError, requestSent: false)), 1, .stop),
        ("success", response(200), 1, .stop),
        ("500", response(500), 1, .stop),
        ("503 with seconds", response(503, retryAfter: "7"), 1, .retry(after: .seconds(7))),
        ("429 with seconds", response(429, retryAfter: " 0 "), 1, .retry(after: .seconds(0))),
        ("503 asking longer than the cap", response(503, retryAfter: "3600"), 1, .stop),
        (
            "503 with an IMF date 10s ahead", response(503, retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT"), 1,
            .retry(after: .seconds(10))
        ),
        (
            "503 with an RFC 850 date", response(503, retryAfter: "Sunday, 06-Nov-94 08:49:37 GMT"), 1,
            .retry(after: .seconds(10))
        ),
        (
            "503 with an asctime date", response(503, retryAfter: "Sun Nov  6 08:49:37 1994"), 1,
            .retry(after: .seconds(10))
        ),
        (
            "503 with a date in the past", response(503, retryAfter: "Sat, 05 Nov 1994 08:49:37 GMT"), 1,
            .retry(after: .seconds(0))
        ),
        ("503 with garbage falls back to backoff", response(503, retryAfter: "soon"), 1, .retry(after: .seconds(1.5))),
        ("503 without Retry-After", response(503), 2, .retry(after: .seconds(3))),
        ("503 on the last attempt", response(503, retryAfter: "1"), 4, .stop),
    ]

    @Test("decisions", arguments: cases)
    func decision(
        _ name: String, _ outcome: Result<UploadResponse, UploadError>, _ attempt: Int, _ expected: RetryPolicy.Decision
    ) {
        #expect(policy.decide(after: outcome, attempt: attempt) == expected, "\(name)")
    }

    @Test("backoff is capped at the maximum delay")
    func backoffCap() {
        let policy = RetryPolicy(
            maximumAttempts: 100, baseDelay: .seconds(1), maximumDelay: .seconds(60), random: { 0.999 }, now: { 0 })
        #expect(policy.backoff(attempt: 40) <= .seconds(60))
        #expect(policy.backoff(attempt: 40) > .seconds(59))
    }

    @Test(
        "HTTP dates parse to epoch seconds",
        arguments: [
            ("Thu, 01 Jan 1970 00:00:00 GMT", 0.0), ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777),
            ("Tue, 29 Feb 2000 12:00:00 GMT", 951_825_600),
        ])
    func httpDate(_ text: String, _ expected: Double) {
        #expect(HTTPDate.parse(text) == expected)
    }

    @Test(
        "header redaction hides credential values",
        arguments: [
            ("Authorization: Bearer x", "Authorization: [redacted]"), ("cookie: a=b", "cookie: [redacted]"),
            ("Set-Cookie: s=1", "Set-Cookie: [redacted]"), ("PRIVATE-TOKEN: t", "PRIVATE-TOKEN: [redacted]"),
            ("Content-Type: text/plain", "Content-Type: text/plain"),
            ("Trying 127.0.0.1:80...", "Trying 127.0.0.1:80..."),
        ])
    func redaction(_ line: String, _ expected: String) {
        #expect(HeaderRedaction.redact(line) == expected)
    }
}

/// A 5xx answered before the whole body went out (issue 25): retried, where the same status
/// after the body is not.
@Suite("Retry policy: a 5xx before the body was taken")
struct EarlyRefusalPolicyTests {
    let policy = RetryPolicy(
        maximumAttempts: 4, baseDelay: .seconds(2), maximumDelay: .seconds(60), random: { 0.5 }, now: { 0 })

    static func response(_ status: Int, isBodyTaken: Bool) -> Result<UploadResponse, UploadError> {
        .success(UploadResponse(status: status, effectiveURL: "http://h/", isBodyTaken: isBodyTaken))
    }

    @Test("500, 502 and 504 before the body: backoff; after it: stop", arguments: [500, 502, 504])
    func status(_ status: Int) {
        #expect(
            policy.decide(after: Self.response(status, isBodyTaken: false), attempt: 1) == .retry(after: .seconds(1.5)))
        #expect(policy.decide(after: Self.response(status, isBodyTaken: true), attempt: 1) == .stop)
        #expect(policy.decide(after: Self.response(status, isBodyTaken: false), attempt: 4) == .stop)
    }

    @Test("a 4xx before the body is still final; 503 is retried either way")
    func others() {
        #expect(policy.decide(after: Self.response(400, isBodyTaken: false), attempt: 1) == .stop)
        #expect(policy.decide(after: Self.response(503, isBodyTaken: true), attempt: 1) == .retry(after: .seconds(1.5)))
    }

    @Test("the outbox keeps such a text retryable, with its own message and status 75")
    func verdict() {
        let refusal = RefusedBeforeBody(
            answer: .httpStatus(service: "m", status: 500, excerpt: "500 Internal Server Error"))
        #expect(OutboxFailure(refusal).verdict == .retryable)
        #expect(refusal.message == "m answered HTTP 500 before taking the text: 500 Internal Server Error")
        #expect(refusal.exitStatus == .temporaryFailure)
        #expect(OutboxFailure(refusal.answer).verdict == .held)
    }
}
