import Testing

@testable import Clipboard

/// `BridgedWrite`'s check that a reader gets the text: retried within its time, never past it.
@Suite("A bridged copy's reader check")
struct BridgedWriteTests {
    @Test("a reader that first fails, then gives other text, then the text, counts")
    func laterAnswerCounts() {
        var answers: [Result<[UInt8], ClipboardError>] = [
            .failure(.empty(.clipboard)), .success(Array("a bridge's old text".utf8)), .success(Array("url".utf8)),
        ]
        var calls = 0
        let got = BridgedWrite.reads(Array("url".utf8), within: .seconds(5)) { () throws(ClipboardError) in
            calls += 1
            return try answers.removeFirst().get()
        }
        #expect(got)
        #expect(calls == 3)
    }

    @Test("a reader that never gives the text fails once the time is up, after at least one read")
    func wrongAnswerFails() {
        var calls = 0
        let got = BridgedWrite.reads(Array("url".utf8), within: .milliseconds(20)) { () throws(ClipboardError) in
            calls += 1
            return Array("something else".utf8)
        }
        #expect(!got)
        #expect(calls >= 1)
    }
}
