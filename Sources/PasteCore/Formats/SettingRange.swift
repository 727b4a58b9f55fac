/// The values a numeric setting may take, from argv or the config, and how an error says so.
///
/// argv and the config check against the same ranges, so both refuse a value stating the same
/// bounds (`--timeout 1e308` exits 64, `timeout = 1e308` in the config 78). Every bound is far
/// inside what the later conversions hold (`Duration`, `Int` milliseconds, libcurl's `long`),
/// so no accepted value can trap: `1e16` seconds once died with SIGILL ("Not enough bits")
/// converting to milliseconds, losing the text.
public enum SettingRange {
    /// A duration in seconds: `30`, `2.5s`, `10m`, `1h`, `7d`, `2w`.
    public struct Seconds: Sendable, Equatable, CustomStringConvertible {
        /// The shortest accepted, in seconds.
        public var lowest: Double
        /// The longest accepted, in seconds.
        public var highest: Double

        /// The value in range, in seconds; nil for anything else (not a number, not finite,
        /// negative, out of range). `-0` reads as 0.
        public func parse(_ text: String) -> Double? {
            guard let value = Duration.parseSeconds(text), value.isFinite, value >= lowest, value <= highest else {
                return nil
            }
            return value == 0 ? 0 : value
        }

        /// `a duration from 0.001s to 7d`.
        public var description: String {
            "a duration from \(SettingRange.durationText(lowest)) to \(SettingRange.durationText(highest))"
        }
    }

    /// A whole number.
    public struct Count: Sendable, Equatable, CustomStringConvertible {
        /// The range accepted.
        public var range: ClosedRange<Int>

        /// The value in range, or nil.
        public func parse(_ text: String) -> Int? {
            guard let value = Int(text), range.contains(value) else { return nil }
            return value
        }

        /// `a whole number from 0 to 10`.
        public var description: String { "a whole number from \(range.lowerBound) to \(range.upperBound)" }
    }

    /// A size in bytes: `512`, `64K`, `10M`, `1G` (binary multiples).
    public struct Bytes: Sendable, Equatable, CustomStringConvertible {
        /// The range accepted.
        public var range: ClosedRange<Int64>

        /// The value in range, or nil (an overflowing product is out of range, not a trap).
        public func parse(_ text: String) -> Int64? {
            guard let value = ByteCount.parse(text), range.contains(value) else { return nil }
            return value
        }

        /// `a size from 1 to 1024G`.
        public var description: String {
            "a size from \(ByteCount.text(range.lowerBound)) to \(ByteCount.text(range.upperBound))"
        }
    }

    /// The shortest timeout: libcurl counts milliseconds, and 0 would mean "no limit" to it.
    static let millisecond = 0.001
    static let hour = 3_600.0
    static let day = 86_400.0

    /// `timeout`, `--timeout`: the whole upload.
    public static let timeout = Seconds(lowest: millisecond, highest: 7 * day)
    /// `response-timeout`: the answer, once the text is sent.
    public static let responseTimeout = Seconds(lowest: millisecond, highest: 7 * day)
    /// `connect-timeout`.
    public static let connectTimeout = Seconds(lowest: millisecond, highest: hour)
    /// `stall-timeout`: libcurl counts it in whole seconds.
    public static let stallTimeout = Seconds(lowest: 1, highest: day)
    /// `max-retry-after`: the longest wait a server's Retry-After may ask for.
    public static let maximumRetryAfter = Seconds(lowest: millisecond, highest: day)
    /// `repeat-window` (0 turns repeat detection off).
    public static let repeatWindow = Seconds(lowest: 0, highest: 365 * day)
    /// `clipboard-timeout`.
    public static let clipboardTimeout = Seconds(lowest: millisecond, highest: hour)
    /// `notify-timeout`.
    public static let notifyTimeout = Seconds(lowest: millisecond, highest: hour)
    /// `-e`/`--expiry` and the durations of `expiry-unit = choices …`: up to a hundred years.
    public static let expiry = Seconds(lowest: 1, highest: 36_500 * day)
    /// `retries`.
    public static let retries = Count(range: 0...10)
    /// `max-size`.
    public static let maximumSize = Bytes(range: 1...(1 << 40))
    /// `max-clipboard`: the most read from a selection.
    public static let maximumClipboard = Bytes(range: (1 << 10)...(64 << 30))

    /// `0.001s`, `90s`, `1h`, `7d` (the largest unit that divides it).
    static func durationText(_ seconds: Double) -> String {
        for (unit, size) in [("d", day), ("h", hour), ("m", 60.0)]
        where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
            return "\(Int(seconds / size))\(unit)"
        }
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }
}
