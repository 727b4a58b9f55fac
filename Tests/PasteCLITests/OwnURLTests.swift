import Foundation
import Testing
import TestSupport

/// A second press of the hotkey (issue 45, item 5): after the first, the clipboard holds the
/// paste's URL, and paste recognises its own link instead of pasting it.
@Suite(
    "A second press reuses the first URL: paste's own link is not pasted", .tags(.x11), .needsXServer, .xvfb,
    .temporaryHome, .mock, .serialized)
struct OwnURLTests: ScopedSuite {
    @Test("two presses: one POST, the same URL both times, and the second says why")
    func secondPress() throws {
        try xvfb.putOnClipboard("pressed twice\n")
        let arguments = ["-c", "--url", mock.url("/pastes/create"), "--no-notify"]
        let first = try paste.run(arguments, input: .null)
        #expect(first.status == 0, "stderr: \(first.err)")
        #expect(first.err == "")
        let url = first.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix(mock.baseURL + "/pastes/"))
        #expect(try xvfb.clipboardText() == url)
        let second = try paste.run(arguments, input: .null)
        #expect(second.status == 0)
        #expect(second.out == first.out)
        #expect(
            second.err
                == "paste: the clipboard holds the URL of your last paste; reusing it (--new uploads it anyway)\n")
        #expect(try xvfb.clipboardText() == url)
        #expect(try mock.posts().count == 1)
        #expect(try paste.historyLines().count == 1)
    }

    @Test("an earlier paste's URL is recognised too; --new pastes the link anyway")
    func earlierAndNew() throws {
        let arguments = ["-c", "--url", mock.url("/pastes/create"), "--no-notify"]
        try xvfb.putOnClipboard("first text")
        let first = try paste.run(arguments, input: .null)
        try xvfb.putOnClipboard("second text")
        let second = try paste.run(arguments, input: .null)
        #expect(first.status == 0 && second.status == 0)
        try xvfb.putOnClipboard("  " + first.out)
        let again = try paste.run(arguments, input: .null)
        #expect(again.status == 0)
        #expect(again.out == first.out)
        #expect(
            again.err
                == "paste: the clipboard holds the URL of an earlier paste; reusing it (--new uploads it anyway)\n")
        #expect(try mock.posts().count == 2)
        let forced = try paste.run(arguments + ["--new"], input: .null)
        #expect(forced.status == 0 && forced.err == "")
        let body = try mock.posts().last?.field("paste[body]")?.text
        #expect(body == String(first.out.dropLast()), "\(String(describing: body))")
    }
}
