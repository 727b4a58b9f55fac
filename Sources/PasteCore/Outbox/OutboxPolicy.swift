/// How `paste --retry` paces the entries it sends: backoff between runs, and when to give up.
///
/// Pure: the random source is injected, so every delay is testable. After an entry's n-th
/// failed attempt it is due again after an exponential backoff with "equal jitter" (half the
/// step, plus up to the other half at random, so entries that failed together do not come back
/// together): `baseDelay` × 2^(n−1), capped at `maximumDelay`. With the defaults, a cron job every
/// ten minutes tries a failing entry at growing intervals, about every three to six hours in
/// the end; after `maximumAttempts` failures the entry is held.
public struct OutboxPolicy: Sendable {
    /// The most failed attempts before an entry is held (`retry-max-attempts`).
    public var maximumAttempts: Int
    /// The step after the first failure; it doubles with each later one.
    public var baseDelay: Duration
    /// The largest step.
    public var maximumDelay: Duration
    /// A uniform random number in 0..<1 (for jitter).
    public var random: @Sendable () -> Double

    /// `retry-max-attempts` when the config does not set it.
    public static let defaultMaximumAttempts = 20
    /// A minute: a cron job running every ten minutes finds an entry due at its next run.
    public static let defaultBaseDelay = Duration.seconds(60)
    /// Six hours: an entry that keeps failing is still tried a few times a day.
    public static let defaultMaximumDelay = Duration.seconds(6 * 3600)

    /// Makes a policy; by default 20 attempts, a minute doubling to at most six hours.
    public init(
        maximumAttempts: Int = defaultMaximumAttempts, baseDelay: Duration = defaultBaseDelay,
        maximumDelay: Duration = defaultMaximumDelay,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        precondition(maximumAttempts >= 1, "an entry must be tried at least once")
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.random = random
    }

    /// How long to wait after an entry's `attempts`-th failed attempt (1 for the first).
    public func delay(afterAttempt attempts: Int) -> Duration {
        let doublings = min(max(attempts - 1, 0), 30)
        let step = min(maximumDelay, baseDelay * (1 << doublings))
        return step / 2 + step / 2 * min(max(random(), 0), 1)
    }

    /// Whether an entry that failed `attempts` times has used up its attempts.
    public func isExhausted(afterAttempt attempts: Int) -> Bool {
        attempts >= maximumAttempts
    }
}
