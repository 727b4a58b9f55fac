import Testing

@testable import Clipboard

/// The overall bound of a transfer (`ReadPace`), without an owner: a stall and a trickle are
/// told apart, and a transfer that keeps the rate is never cut short.
@Suite("Read pace")
struct ReadPaceTests {
    let start = ContinuousClock.now
    var pace: ReadPace { ReadPace(start: start, timeout: .seconds(2)) }

    @Test("within the first timeout every wait is a stall of at most the timeout")
    func firstTimeout() {
        let wait = pace.nextWait(afterReceiving: 0, now: start + .milliseconds(500))
        #expect(wait.deadline == start + .seconds(2))
        #expect(wait.isPaceLimit)
        #expect(pace.expired(.clipboard, received: 0, isPaceLimit: true) == .timedOut(.clipboard, seconds: 2))
        let early = pace.nextWait(afterReceiving: 10, now: start)
        #expect(early.deadline == start + .seconds(2))
    }

    @Test("a trickle: 1 KiB every 0.2 s runs out of pace at the timeout, whatever it sends")
    func trickle() {
        // After 1.8 s of 5 KiB/s: 9 KiB, worth 0.14 s at 64 KiB/s; the pace ends at 2 s.
        let wait = pace.nextWait(afterReceiving: 9 << 10, now: start + .milliseconds(1800))
        #expect(wait.deadline == start + .seconds(2))
        #expect(wait.isPaceLimit)
        #expect(
            pace.expired(.clipboard, received: 9 << 10, isPaceLimit: true)
                == .tooSlow(.clipboard, seconds: 2, minimumRate: 64 << 10))
    }

    @Test("a transfer at the rate is given the time its size needs")
    func steadyTransfer() {
        // 1 MiB after 10 s: 16 s at 64 KiB/s, so the next wait is a stall of the whole timeout.
        let wait = pace.nextWait(afterReceiving: 1 << 20, now: start + .seconds(10))
        #expect(wait.deadline == start + .seconds(12))
        #expect(!wait.isPaceLimit)
        #expect(pace.expired(.clipboard, received: 1 << 20, isPaceLimit: false) == .timedOut(.clipboard, seconds: 2))
        // Near the end of what 1 MiB buys, the pace comes first.
        let late = pace.nextWait(afterReceiving: 1 << 20, now: start + .seconds(15))
        #expect(late.deadline == start + .seconds(16))
        #expect(late.isPaceLimit)
        #expect(
            pace.expired(.primary, received: 1 << 20, isPaceLimit: true)
                == .tooSlow(.primary, seconds: 16, minimumRate: 64 << 10))
    }

    @Test("the message says what the owner did")
    func message() {
        #expect(
            ClipboardError.tooSlow(.clipboard, seconds: 2, minimumRate: 64 << 10).message
                == "the program holding the clipboard sent it too slowly (under 64 KiB/s after 2 s); reading stopped")
    }
}
