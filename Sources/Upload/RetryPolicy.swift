// FoundationEssentials, not Foundation: full Foundation links ICU and its tens of megabytes of
// data into `paste`, which costs start-up time on every hotkey press (issue 7).
import FoundationEssentials
import PasteCore

/// Decides whether to send a request again after an outcome, and how long to wait first.
///
/// Pure: the random source and the clock are injected, so every decision is testable.
/// It retries only when a retry cannot create a second paste:
/// - a failure whose disposition says so (`Disposition.isRetriedNow`: before any request byte
///   left, resolve, connect, connect timeout), with jittered exponential backoff;
/// - 429 and 503 answers, waiting as `Retry-After` asks (seconds or an HTTP date) when it asks
///   for no more than `maximumDelay`, else by backoff;
/// - any other 5xx answered before the whole body went out (`RefusedBeforeBody`), by backoff.
/// Never after a timeout once the request went out, never on a 500 after the body or any
/// other status.
public struct RetryPolicy: Sendable {
    /// What to do next.
    public enum Decision: Sendable, Equatable {
        /// Send again after this wait.
        case retry(after: Duration)
        /// Do not send again (success, a final failure, or attempts used up).
        case stop
    }

    /// The most attempts in all, the first included.
    public var maximumAttempts: Int
    /// The backoff before the second attempt; it doubles for each later one.
    public var baseDelay: Duration
    /// The longest wait: backoff is capped here, and a `Retry-After` asking more stops retrying.
    public var maximumDelay: Duration
    /// A uniform random number in 0..<1 (for jitter).
    public var random: @Sendable () -> Double
    /// Now, in seconds since 1970 (to read `Retry-After` dates).
    public var now: @Sendable () -> Double

    /// Makes a policy; by default 4 attempts, 1 s doubling backoff capped at 60 s.
    public init(
        maximumAttempts: Int = 4, baseDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(60),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.random = random
        self.now = now
    }

    /// The decision after attempt number `attempt` (1 for the first) ended with `outcome`.
    public func decide(after outcome: Result<UploadResponse, UploadError>, attempt: Int) -> Decision {
        guard attempt < maximumAttempts else { return .stop }
        switch outcome {
        case .failure(let error):
            return error.disposition.isRetriedNow ? .retry(after: backoff(attempt: attempt)) : .stop
        case .success(let response):
            if RefusedBeforeBody.applies(status: response.status, isBodyTaken: response.isBodyTaken),
                !Self.retryableStatuses.contains(response.status)
            {
                return .retry(after: backoff(attempt: attempt))
            }
            guard Self.retryableStatuses.contains(response.status) else { return .stop }
            guard let header = response.header("Retry-After") else {
                return .retry(after: backoff(attempt: attempt))
            }
            guard let wait = retryAfter(header) else {
                return .retry(after: backoff(attempt: attempt))
            }
            return wait <= maximumDelay ? .retry(after: wait) : .stop
        }
    }

    /// 429 Too Many Requests and 503 Service Unavailable: the server asks to come back later.
    static let retryableStatuses: Set<Int> = [429, 503]

    /// How long a 429 or 503 answer asks the client to wait (its `Retry-After`); nil for any
    /// other answer or when it does not say. For the outbox, which waits at least that long
    /// before `paste --retry` sends the text again.
    public func requestedDelay(of response: UploadResponse) -> Duration? {
        guard Self.retryableStatuses.contains(response.status), let header = response.header("Retry-After") else {
            return nil
        }
        return retryAfter(header)
    }

    /// Exponential backoff with "equal jitter": half the step, plus up to the other half at
    /// random, so clients that failed together do not return together.
    func backoff(attempt: Int) -> Duration {
        let step = min(maximumDelay, baseDelay * (1 << min(max(attempt - 1, 0), 30)))
        return step / 2 + (step / 2) * random()
    }

    /// The wait a `Retry-After` value asks for: delay-seconds, or an HTTP date minus now
    /// (RFC 9110 §10.2.3); nil when it is neither.
    func retryAfter(_ value: String) -> Duration? {
        let trimmed = String(
            value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber) {
            return Double(trimmed).map { .seconds($0) }
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        return .seconds(max(0, date - now()))
    }
}

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms a
/// recipient must still accept.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Seconds since 1970 for an HTTP date, or nil when the text is not one.
    ///
    /// `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`, `Sun Nov  6 08:49:37 1994`.
    static func parse(_ text: String) -> Double? {
        let tokens = text.split { $0 == " " || $0 == "," || $0 == "-" }.map(String.init)
        let day: Int?
        let month: Int?
        let year: Int?
        let time: String
        switch tokens.count {
        case 6 where tokens[5] == "GMT":  // IMF-fixdate and RFC 850
            day = Int(tokens[1])
            month = months.firstIndex(of: tokens[2].lowercased()).map { $0 + 1 }
            year = Int(tokens[3]).map { tokens[3].count == 2 ? ($0 < 70 ? 2000 + $0 : 1900 + $0) : $0 }
            time = tokens[4]
        case 5:  // asctime
            month = months.firstIndex(of: tokens[1].lowercased()).map { $0 + 1 }
            day = Int(tokens[2])
            time = tokens[3]
            year = Int(tokens[4])
        default:
            return nil
        }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        // A server's year is bounded before the day arithmetic, which would overflow (and trap)
        // for a year of twenty digits.
        guard let day, let month, let year, (1...9999).contains(year), clock.count == 3, (1...31).contains(day),
            (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2])
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
