import Foundation
import Testing
import TestSupport

/// Repeats: the same text to the same service within `repeat-window` reuses the URL.
@Suite("Repeats: one paste for the same text, unless --new", .temporaryHome, .mock)
struct RepeatEndToEndTests: ScopedSuite {
    @Test("the same text twice within the window gives the same URL and one POST")
    func sameTextTwice() throws {
        let first = try paste.run(["--url", mock.url("/pastes/create")], stdin: "same text\n")
        let second = try paste.run(["--url", mock.url("/pastes/create")], stdin: "same text\n")
        #expect(first.status == 0 && second.status == 0)
        #expect(first.out == second.out)
        #expect(second.err.contains("reusing its URL"))
        #expect(try mock.posts().count == 1)
    }

    @Test("--new forces a second paste")
    func newForcesAnother() throws {
        let first = try paste.run(["--url", mock.url("/pastes/create"), "-q"], stdin: "same text\n")
        let second = try paste.run(["--url", mock.url("/pastes/create"), "-q", "--new"], stdin: "same text\n")
        #expect(first.status == 0 && second.status == 0)
        #expect(first.out != second.out)
        #expect(try mock.posts().count == 2)
    }

    @Test("repeat-window = 0 turns reuse off")
    func windowZero() throws {
        try paste.writeConfig("[paste]\nrepeat-window = 0\n")
        _ = try paste.run(["--url", mock.url("/pastes/create"), "-q"], stdin: "same text\n")
        _ = try paste.run(["--url", mock.url("/pastes/create"), "-q"], stdin: "same text\n")
        #expect(try mock.posts().count == 2)
    }

    @Test("two paste runs of the same text at once give the same URL and one POST")
    func concurrentSameText() throws {
        // The first upload takes a while, so the second starts while it is under way.
        try mock.addFault(.delay(seconds: 1), count: 0, path: "/pastes/create")
        let one = try RunningPaste(paste, ["--url", mock.url("/pastes/create"), "-q"], stdin: "pressed twice\n")
        let two = try RunningPaste(paste, ["--url", mock.url("/pastes/create"), "-q"], stdin: "pressed twice\n")
        let first = try one.finish()
        let second = try two.finish()
        #expect(first.status == 0, "stderr: \(one.err)")
        #expect(second.status == 0, "stderr: \(two.err)")
        #expect(!first.out.isEmpty && first.out == second.out)
        #expect(try mock.posts().count == 1)
    }
}
