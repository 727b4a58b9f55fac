/// A `Duration` in the units the system's calls and the clock take: what every module used to
/// take apart by hand from `components` (seconds and attoseconds).
extension Duration {
    /// Attoseconds in a millisecond.
    static let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
    /// Attoseconds in a nanosecond.
    static let attosecondsPerNanosecond: Int64 = 1_000_000_000

    /// The duration in seconds, as `Date` and `TimeInterval` count them.
    public var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Whole milliseconds, rounded up (a wait of this long never ends just before its
    /// deadline and spins), as `poll` takes them.
    public var millisecondsRoundedUp: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + (attoseconds + Self.attosecondsPerMillisecond - 1) / Self.attosecondsPerMillisecond
    }

    /// Whole milliseconds, the rest dropped.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / Self.attosecondsPerMillisecond
    }

    /// Whole seconds and the nanoseconds past them, as `timespec` takes them.
    public var secondsAndNanoseconds: (seconds: Int64, nanoseconds: Int64) {
        let (seconds, attoseconds) = components
        return (seconds, attoseconds / Self.attosecondsPerNanosecond)
    }
}
