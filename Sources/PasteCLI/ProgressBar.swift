import PasteCore
import Synchronization
import SystemInterop

/// The upload progress line on stderr: bytes sent, rate, and time left when the size is known.
///
/// Shown only when stderr is a terminal, without `-q` and `--json`, and only once an upload has
/// run for `delay` (a hotkey paste of a few KiB never flashes a bar). Rendering is a pure
/// function of the numbers (`render`), so it is tested without a terminal; `ProgressBar.Driver`
/// decides when to draw and owns the clock.
enum ProgressBar {
    /// How long an upload runs before the bar appears.
    static let delay: Duration = .milliseconds(500)
    /// The least time between two redraws (libcurl calls back far more often).
    static let redrawInterval: Duration = .milliseconds(100)
    /// The width of the bar itself, in cells, when the total is known.
    static let barWidth = 24

    /// One line (no newline) for `sent` of `total` bytes after `elapsed`: a carriage return
    /// first so each draw overwrites the last, then the bar (or, for streams of unknown size,
    /// only the count), the rate and the time left. `colored` adds SGR colour to the bar.
    static func render(sent: Int64, total: Int64?, elapsed: Duration, colored: Bool) -> String {
        let seconds = max(elapsed.timeInterval, 0.001)
        let rate = Double(sent) / seconds
        var parts: [String] = []
        if let total, total > 0 {
            let fraction = min(1, max(0, Double(sent) / Double(total)))
            let filled = Int((fraction * Double(barWidth)).rounded(.down))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled)
            let shownBar = colored ? "\u{1B}[32m" + bar + "\u{1B}[0m" : bar
            parts.append("[\(shownBar)] \(percent(fraction))")
            parts.append("\(byteText(sent)) / \(byteText(total))")
        } else {
            parts.append(byteText(sent))
        }
        parts.append(byteText(Int64(min(rate, Self.largestRate).rounded())) + "/s")
        if let total, total > 0, sent < total, rate > 0 {
            parts.append(clockText(Double(total - sent) / rate) + " left")
        }
        return "\r" + parts.joined(separator: "  ") + "\u{1B}[K"
    }

    /// The largest rate and time left drawn (beyond them the bar says nothing useful, and
    /// converting larger values to integers would trap).
    static let largestRate = 1e15
    static let longestClock = 1e9

    /// What ends the bar: erase the line so the URL prints on a clean one.
    static let clearLine = "\r\u{1B}[K"

    /// `3 %`, `100 %`.
    static func percent(_ fraction: Double) -> String {
        "\(Int((fraction * 100).rounded(.down)))%"
    }

    /// Bytes in binary units with one decimal above 1 KiB: `512 B`, `1.5 KiB`, `1024.0 MiB`.
    static func byteText(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(count) B" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// `0:07`, `12:30`, `1:02:03`.
    static func clockText(_ seconds: Double) -> String {
        // Bounded before the conversion: a crawl over a huge file must not trap.
        let total = Int(min(max(seconds, 0), Self.longestClock).rounded(.up))
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }

    /// Whether this run may draw a bar at all. stderr is looked at last, and only when the
    /// flags allow a bar: a quiet run does not even ask whether stderr is a terminal.
    static func isWanted(stderrIsTerminal: @autoclosure () -> Bool, isQuiet: Bool, isJSON: Bool) -> Bool {
        !isQuiet && !isJSON && stderrIsTerminal()
    }

    /// Draws the bar from libcurl's progress callbacks (on the transfer's thread), after the
    /// delay, at most every `redrawInterval`; erases it when the upload ends.
    final class Driver: Sendable {
        private struct State {
            var lastDraw: ContinuousClock.Instant?
            var isShown = false
        }

        private let start = ContinuousClock.now
        private let colored: Bool
        private let write: @Sendable (String) -> Void
        // libcurl calls back on the transfer's thread only; the Mutex makes that a checked fact.
        private let state = Mutex(State())

        init(colored: Bool, write: @escaping @Sendable (String) -> Void = { StandardStream.error.write($0) }) {
            self.colored = colored
            self.write = write
        }

        /// Whether the bar is on screen (so `finish` must erase it).
        var isShown: Bool { state.withLock { $0.isShown } }

        /// Called with the bytes sent so far and the total when known.
        func update(sent: Int64, total: Int64?) {
            let now = ContinuousClock.now
            guard now - start >= ProgressBar.delay, sent > 0 else { return }
            let draws = state.withLock { state in
                if let last = state.lastDraw, now - last < ProgressBar.redrawInterval { return false }
                state.lastDraw = now
                state.isShown = true
                return true
            }
            if draws { write(ProgressBar.render(sent: sent, total: total, elapsed: now - start, colored: colored)) }
        }

        /// Erases the bar if it was drawn.
        func finish() {
            let wasShown = state.withLock { state in
                defer { state.isShown = false }
                return state.isShown
            }
            if wasShown { write(ProgressBar.clearLine) }
        }
    }
}
