import Foundation
import PasteCore
import Stores
import Testing

@testable import Alerts
@testable import PasteCLI

/// Small truths in the windows (issue 27): the failure window never wraps the command it names,
/// and `--pick` shows a URL once.
@Suite("What the windows say")
struct WindowTextTests {
    struct Refused: PasteCore.PasteError {
        var message: String { "cannot connect to paste.example:443: connection refused" }
        var exitStatus: PasteCore.ExitStatus { .temporaryFailure }
    }

    func windows(named name: String = "paste") -> DesktopWindows {
        var output = Output(environment: [:])
        output.programName = name
        return DesktopWindows(plan: .none, output: output)
    }

    @Test(
        "the failure window's 'paste --retry' is one word to line breaking, at any width",
        arguments: ["paste", "pasteit"])
    func retryNeverWrapped(_ name: String) {
        let failure = PasteFailure(cause: Refused(), text: .outbox(id: "3fa9c01", state: .retryable))
        let text = windows(named: name).failureText(failure)
        #expect(
            text
                == "cannot connect to paste.example:443: connection refused\n"
                + "The text waits in the outbox (3fa9c01): \(name)\u{00A0}--retry sends it.")
        // Any width that holds the command itself (narrower, any word is cut anywhere).
        for width in 16...60 {
            let lines = TextWrapping.lines(text, maxWidth: width, measure: { $0.count })
            #expect(!lines.contains { $0.hasSuffix(name) }, "width \(width): \(lines)")
            #expect(!lines.contains { $0.hasPrefix("--retry") }, "width \(width): \(lines)")
        }
    }

    @Test("a command a message names takes the installed name: at the start, after a quote, a parenthesis or a space")
    func namedCommands() {
        var output = Output(environment: [:])
        output.programName = "pasteup"
        #expect(output.named("paste --retry sends it") == "pasteup --retry sends it")
        #expect(
            output.named("run 'paste -f x' or (paste --pick)\n\u{00A0}paste -n, \"paste -c\"")
                == "run 'pasteup -f x' or (pasteup --pick)\n\u{00A0}pasteup -n, \"pasteup -c\"")
        #expect(output.named("copypaste -n, paste-it -x, paste --") == "copypaste -n, paste-it -x, pasteup --")
        #expect(output.named("no command here: paste") == "no command here: paste")
        #expect(output.named("é paste -n") == "é pasteup -n")
        output.programName = "paste"
        #expect(output.named("paste --retry") == "paste --retry")
    }

    @Test("--pick shows a URL once: not again under a title that is the URL")
    func pickShowsURLOnce() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let url = "https://dpaste.com/ABC"
        let records = [
            HistoryRecord(time: now, service: "dpaste", url: url, byteCount: 3, sha256: "x", title: url),
            HistoryRecord(time: now, service: "dpaste", url: url, byteCount: 3, sha256: "x"),
            HistoryRecord(time: now, service: "dpaste", url: url, byteCount: 3, sha256: "x", title: "notes"),
        ]
        let rows = Runner.pickRows(records, now: now)
        #expect(rows.map(\.primary) == [url, url, "notes"])
        #expect(rows[0].secondary.hasPrefix("dpaste · "))
        #expect(!rows[0].secondary.contains(url))
        #expect(!rows[1].secondary.contains(url))
        #expect(rows[2].secondary.hasSuffix(" · " + url))
    }
}
