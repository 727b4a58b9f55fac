import Foundation
import Testing
import TestSupport

/// Issue 44, item 3: the history line is written by the run itself, in one `O_APPEND` write,
/// before the URL is printed or copied; nothing of the record is left to the clipboard's owner.
/// So a killed owner loses no deletion token, and a run started the moment the first returns
/// finds the first's record (its own URL on the clipboard, the same text again).
@Suite(
    "A hotkey run's record is in history when it returns, whatever becomes of its owner", .tags(.x11),
    .needsXServer, .xvfb, .temporaryHome, .mock, .serialized)
struct HistoryBeforeOwnerTests: ScopedSuite {
    /// The `paste` processes serving this suite's display (after a run: its clipboard owner).
    func ownerIDs() -> [Int32] { xvfb.pasteProcesses() }

    @Test("the owner killed with kill -9 as the run returns: the deletion token is kept, and --delete uses it")
    func ownerKilledAtOnce() throws {
        try paste.writeConfig(HistoryEndToEndTests.config(mock))
        try xvfb.putOnClipboard("a paste to take back\n")
        let made = try paste.run(["-c", "-S", "null", "--no-notify"], input: .null)
        // At once, before looking at anything the run did: its owner goes the hard way.
        let owners = ownerIDs()
        for owner in owners { kill(owner, SIGKILL) }
        #expect(owners.count == 1)
        #expect(made.status == 0, "stderr: \(made.err)")
        #expect(made.err == "")
        let url = made.out.trimmingCharacters(in: .newlines)
        try waitUntil("the killed owner to be gone") { ownerIDs().isEmpty }
        let json = try paste.run(["--history", "--json"])
        #expect(json.status == 0)
        let lines = json.out.split(separator: "\n")
        #expect(lines.count == 1)
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        #expect(record["url"] as? String == url)
        #expect((record["deletion_token"] as? String)?.isEmpty == false, "\(json.out)")
        let deleted = try paste.run(["--delete", url])
        #expect(deleted.status == 0, "stderr: \(deleted.err)")
        #expect(deleted.err == "paste: deleted \(url)\n")
        #expect(try mock.pastes().isEmpty)
        #expect(try paste.historyLines().isEmpty)
    }

    @Test("a run started the moment the first returns finds its record: its URL on the clipboard, its text again")
    func nextRunAtOnce() throws {
        let arguments = ["-c", "--url", mock.url("/pastes/create"), "--no-notify"]
        try xvfb.putOnClipboard("pressed again at once\n")
        let first = try paste.run(arguments, input: .null)
        let second = try paste.run(arguments, input: .null)
        #expect(first.status == 0 && first.err == "", "stderr: \(first.err)")
        #expect(second.status == 0)
        #expect(second.out == first.out)
        #expect(
            second.err
                == "paste: the clipboard holds the URL of your last paste; reusing it (--new uploads it anyway)\n")
        try xvfb.putOnClipboard("pressed again at once\n")
        let third = try paste.run(arguments, input: .null)
        #expect(third.status == 0)
        #expect(third.out == first.out)
        #expect(
            third.err
                == "paste: the same text went to 127.0.0.1:\(mock.port) moments ago; reusing its URL (--new makes another)\n"
        )
        #expect(try mock.posts().count == 1)
        #expect(try paste.historyLines().count == 1)
    }
}
