import Foundation
import PasteCore
import SecretGuard
import Stores
import Testing

/// What a failure means for the text in the outbox, and how --retry paces entries: pure functions.
@Suite("Outbox failures and pacing")
struct OutboxFailureTests {
    /// One row of the table in `OutboxFailure`'s documentation.
    struct Row: Sendable, CustomTestStringConvertible {
        var error: any Error & Sendable
        var verdict: OutboxFailure.Verdict
        var testDescription: String { "\(error) -> \(verdict)" }
    }

    static let rows: [Row] = [
        Row(error: ServiceError.httpStatus(service: "s", status: 429, excerpt: ""), verdict: .retryable),
        Row(error: ServiceError.httpStatus(service: "s", status: 503, excerpt: ""), verdict: .retryable),
        Row(error: ServiceError.httpStatus(service: "s", status: 408, excerpt: ""), verdict: .retryable),
        Row(error: ServiceError.httpStatus(service: "s", status: 425, excerpt: ""), verdict: .retryable),
        Row(error: ServiceError.httpStatus(service: "s", status: 400, excerpt: ""), verdict: .held),
        Row(error: ServiceError.httpStatus(service: "s", status: 401, excerpt: ""), verdict: .held),
        Row(error: ServiceError.httpStatus(service: "s", status: 403, excerpt: ""), verdict: .held),
        Row(error: ServiceError.httpStatus(service: "s", status: 404, excerpt: ""), verdict: .held),
        Row(error: ServiceError.httpStatus(service: "s", status: 413, excerpt: ""), verdict: .held),
        Row(error: ServiceError.httpStatus(service: "s", status: 500, excerpt: ""), verdict: .held),
        Row(error: ServiceError.httpStatus(service: "s", status: 502, excerpt: ""), verdict: .held),
        Row(error: ServiceError.httpStatus(service: "s", status: 504, excerpt: ""), verdict: .held),
        Row(error: ServiceError.httpStatus(service: "s", status: 302, excerpt: ""), verdict: .held),
        Row(error: ServiceError.httpStatus(service: "s", status: 200, excerpt: ""), verdict: .held),
        Row(error: ServiceError.noURL(service: "s", status: 200, excerpt: "Error"), verdict: .held),
        Row(error: ServiceError.unsafeURL(service: "s", problem: .controlCharacters), verdict: .held),
        Row(error: ServiceError.notAPaste(service: "s", url: "http://h/"), verdict: .held),
        Row(error: ServiceError.partial(service: "s"), verdict: .held),
        Row(error: ServiceError.refused(service: "s", message: "too big"), verdict: .retryable),
        Row(error: ConfigError.unknownService(name: "gone", known: ["a"]), verdict: .held),
        Row(error: ConfigError.missingEnvironment(path: "/c", line: 3, name: "TOKEN"), verdict: .retryable),
        Row(error: RequestError.tooLarge(service: "s", bytes: 10, limit: 5), verdict: .held),
        Row(error: InspectionRefusal.notUTF8(source: "the text", offset: 3, format: .form), verdict: .held),
        Row(error: InspectionRefusal.binary(source: "stdin", offset: 9), verdict: .held),
        Row(error: RequestError.unreadable(path: "/x", reason: "gone"), verdict: .retryable),
        Row(error: GuardError.secretsFound([], source: nil), verdict: .held),
        Row(error: StoreError.cannotWrite(path: "/x", errno: .noSpace), verdict: .retryable),
        Row(error: CancellationError(), verdict: .held),
    ]

    @Test("each failure is retryable or held as the table says", arguments: rows)
    func verdicts(_ row: Row) {
        #expect(OutboxFailure.verdict(for: row.error) == row.verdict)
        #expect(OutboxFailure(row.error).verdict == row.verdict)
    }

    @Test("last_error is the message on one line, escapes and control characters gone, bounded")
    func describe() {
        let error = ServiceError.noURL(service: "s", status: 200, excerpt: "\u{1b}]0;title\u{7}bad\r\nthing")
        let text = OutboxFailure.describe(error)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(text.hasPrefix("s gave no paste URL (HTTP 200): "))
        let long = OutboxFailure(verdict: .held, message: String(repeating: "x", count: 5000))
        #expect(long.message == String(repeating: "x", count: OutboxFailure.maximumMessageLength) + "…")
    }

    @Test("backoff doubles from a minute, is jittered down by up to half, and stops at six hours")
    func backoff() {
        let low = OutboxPolicy(random: { 0 })
        let high = OutboxPolicy(random: { 0.999_999 })
        #expect(low.delay(afterAttempt: 1) == .seconds(30))
        #expect(high.delay(afterAttempt: 1) <= .seconds(60) && high.delay(afterAttempt: 1) > .seconds(59))
        #expect(low.delay(afterAttempt: 2) == .seconds(60))
        #expect(low.delay(afterAttempt: 5) == .seconds(480))
        #expect(low.delay(afterAttempt: 10) == .seconds(3 * 3600))
        #expect(low.delay(afterAttempt: 1000) == .seconds(3 * 3600))
        #expect(high.delay(afterAttempt: 1000) <= .seconds(6 * 3600))
        #expect(OutboxPolicy().maximumAttempts == 20)
        #expect(!OutboxPolicy().isExhausted(afterAttempt: 19) && OutboxPolicy().isExhausted(afterAttempt: 20))
    }

    @Test("the repeat key changes with every option that changes the paste, and only with those")
    func repeatKey() {
        let plain = PasteOptions()
        var variants: [PasteOptions] = []
        variants.append(PasteOptions(isPrivate: true))
        variants.append(PasteOptions(expirySeconds: 3600))
        variants.append(PasteOptions(expirySeconds: 604_800))
        variants.append(PasteOptions(title: "t"))
        variants.append(PasteOptions(language: "swift"))
        var never = PasteOptions()
        never.neverExpires = true
        variants.append(never)
        var burn = PasteOptions()
        burn.burnsAfterReading = true
        variants.append(burn)
        // A title that spells out another field is still only a title.
        variants.append(PasteOptions(title: "\" lang=\"swift"))
        let keys = [plain.repeatKey] + variants.map(\.repeatKey)
        #expect(Set(keys).count == keys.count)
        #expect(keys.allSatisfy { $0.count == 16 && $0.allSatisfy(\.isHexDigit) })
        #expect(PasteOptions(title: "t").repeatKey == PasteOptions(title: "t").repeatKey)
    }
}
