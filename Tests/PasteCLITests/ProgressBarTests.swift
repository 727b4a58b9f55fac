import Testing
import TestSupport

@testable import PasteCLI

@Suite("The progress bar: rendering as a pure function")
struct ProgressBarTests {
    @Test("a known total shows the bar, percent, bytes, rate and time left")
    func knownTotal() {
        let line = ProgressBar.render(sent: 256 << 20, total: 1 << 30, elapsed: .seconds(2), colored: false)
        #expect(line == "\r[######------------------] 25%  256.0 MiB / 1.0 GiB  128.0 MiB/s  0:06 left\u{1B}[K")
    }

    @Test("a stream of unknown size shows the count and rate, no bar and no time left")
    func unknownTotal() {
        let line = ProgressBar.render(sent: 3 << 20, total: nil, elapsed: .seconds(1), colored: false)
        #expect(line == "\r3.0 MiB  3.0 MiB/s\u{1B}[K")
    }

    @Test("colour wraps only the bar in SGR green, and only when asked")
    func colour() {
        let colored = ProgressBar.render(sent: 50, total: 100, elapsed: .seconds(1), colored: true)
        #expect(colored.contains("[\u{1B}[32m############------------\u{1B}[0m] 50%"))
        let plain = ProgressBar.render(sent: 50, total: 100, elapsed: .seconds(1), colored: false)
        #expect(!plain.contains("\u{1B}[32m"))
    }

    @Test("a finished upload shows a full bar and no time left")
    func finished() {
        let line = ProgressBar.render(sent: 2048, total: 2048, elapsed: .milliseconds(800), colored: false)
        #expect(line.hasPrefix("\r[########################] 100%  2.0 KiB / 2.0 KiB"))
        #expect(!line.contains("left"))
    }

    @Test(
        "byte counts and clocks read naturally",
        arguments: [
            (Int64(0), "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (1536, "1.5 KiB"), (5 << 30, "5.0 GiB"),
        ])
    func bytes(_ count: Int64, _ text: String) {
        #expect(ProgressBar.byteText(count) == text)
    }

    @Test("time left", arguments: [(0.2, "0:01"), (59.0, "0:59"), (750.0, "12:30"), (3723.0, "1:02:03")])
    func clock(_ seconds: Double, _ text: String) {
        #expect(ProgressBar.clockText(seconds) == text)
    }

    @Test("never in a pipeline, with -q, or with --json")
    func whenWanted() {
        #expect(ProgressBar.isWanted(stderrIsTerminal: true, isQuiet: false, isJSON: false))
        #expect(!ProgressBar.isWanted(stderrIsTerminal: false, isQuiet: false, isJSON: false))
        #expect(!ProgressBar.isWanted(stderrIsTerminal: true, isQuiet: true, isJSON: false))
        #expect(!ProgressBar.isWanted(stderrIsTerminal: true, isQuiet: false, isJSON: true))
    }

    @Test("the driver draws nothing before half a second, and erases only what it drew")
    func driverDelay() {
        let lines = Recorder<String>()
        let driver = ProgressBar.Driver(colored: false, write: { lines.append($0) })
        driver.update(sent: 10, total: 100)
        driver.finish()
        #expect(lines.all.isEmpty)
    }
}
