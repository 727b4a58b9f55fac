/// The overall bound on one transfer from a selection owner: a deadline per wait (a stall) and
/// a minimum average rate (a trickle).
///
/// A deadline per wait alone lets an owner that sends a little before each deadline (1 KiB
/// every 0.2 s of an INCR transfer that never ends) keep the reader for as long as it lives
/// (issue 29, finding 8). So the transfer as a whole must keep a pace too: once `timeout` has
/// passed since it began, the bytes received must average at least `minimumRate` per second
/// since then. A transfer that keeps that rate is never cut short (a large one from a slow
/// owner takes as long as its size needs), and since every read stops at
/// `ContentPreferences.readLimit`, no read lasts longer than `timeout` plus that limit at that
/// rate.
///
/// The pace is a value with no clock of its own: the reader passes `now`, so it is tested
/// without an owner.
struct ReadPace {
    /// When the transfer began.
    let start: ContinuousClock.Instant
    /// The longest wait for any one step, and the time a transfer gets before its rate counts.
    let timeout: Duration
    /// The lowest average rate, in bytes per second, that a transfer may fall to.
    var minimumRate = Self.defaultMinimumRate

    /// 64 KiB/s: X servers and compositors carry megabytes a second, even over a forwarded
    /// connection, while the trickling owner of the finding sends 5 KiB/s.
    static let defaultMinimumRate = 64 << 10

    /// The latest instant at which a transfer that has received `bytes` is still on pace.
    func deadline(forReceived bytes: Int) -> ContinuousClock.Instant {
        start + max(timeout, .seconds(Double(bytes) / Double(minimumRate)))
    }

    /// How long the next wait may last, after `bytes` have arrived: `timeout`, or less when the
    /// pace runs out first (`isPaceLimit`: a wait that ends then is a trickle, not a stall).
    func nextWait(afterReceiving bytes: Int, now: ContinuousClock.Instant) -> (
        deadline: ContinuousClock.Instant, isPaceLimit: Bool
    ) {
        let stall = now + timeout
        let pace = deadline(forReceived: bytes)
        return pace < stall ? (pace, true) : (stall, false)
    }

    /// The error for a wait from `nextWait` that ended with nothing new, after `bytes` had
    /// arrived: a trickle (`.tooSlow`) when the pace ran out and something had come; else a
    /// stall (`.timedOut`: an owner that sent nothing at all did not answer).
    func expired(_ selection: Selection, received bytes: Int, isPaceLimit: Bool) -> ClipboardError {
        guard isPaceLimit, bytes > 0 else { return .timedOut(selection, seconds: timeout.seconds) }
        let length = deadline(forReceived: bytes) - start
        return .tooSlow(selection, seconds: (length.seconds * 10).rounded() / 10, minimumRate: minimumRate)
    }
}
