import Foundation
import Testing
import TestSupport

@testable import PasteCLI

/// Only the notification server answers for the person (issue 45, item 2): another client on the
/// session bus sends `ActionInvoked` to paste's unique name (a unicast signal passes every match
/// rule) for the guard's question, for `delete` and for `default`, and nothing happens; the
/// server's own answers still count, each action once however often it is sent (Copy link
/// excepted: it may be asked for again, from the server only; NotificationOutcomeTests).
@Suite("Forged and repeated answers on the session bus", .temporaryHome, .mock)
struct ForgedAnswerTests: ScopedSuite {
    /// The cards' fixture, paste's config written.
    func cards(config: String? = nil) throws -> NotificationCards {
        try NotificationCards(home: home, mock: mock, config: config ?? pastieConfig(mock, isDefault: true))
    }

    /// Waits until no stand-in opener of this test runs: once the notifier has left, every one it
    /// started has been started (a spawn returns after the exec), so then each has written.
    func waitForOpeners() throws {
        let opener = home.root.appendingPathComponent("bin/xdg-open").path
        try waitUntil("the openers to finish", timeout: 30) {
            !NotifierSecretTests.commandLines().contains { $0.contains(opener) }
        }
    }

    @Test("a forged 'upload' to the guard's question sends nothing; the server's 'cancel' then cancels (130)")
    func forgedUpload() throws {
        let cards = try cards()
        let server = cards.server
        let (run, question) = try cards.guardQuestion()
        #expect(
            question["actions"] as? [String]
                == ["redact", "Upload with secrets masked", "upload", "Upload anyway", "cancel", "Cancel"])
        try cards.forge("upload", for: question)
        try server.invoke("cancel", on: question["id"] as? Int ?? 0)
        let result = try run.finish()
        #expect(result.out == "")
        #expect(result.err == "paste: cancelled; nothing was uploaded\n")
        #expect(result.status == 130)
        #expect(try mock.requests().isEmpty)
        #expect(server.notifications.count == 1)
    }

    @Test("a forged 'delete' deletes nothing: the paste and its record stay")
    func forgedDelete() throws {
        let cards = try cards(config: HistoryEndToEndTests.config(mock))
        let (server, paste) = (cards.server, cards.paste)
        let result = try paste.run(["--notify", "--no-copy", "-S", "pinn"], stdin: "keep me\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let note = try #require(server.notifications.first)
        #expect((note["actions"] as? [String])?.contains("delete") == true)
        try cards.forge("delete", for: note)
        // The server closes it: the notifier has read the forged signal by then, and leaves.
        try server.close(note["id"] as? Int ?? 0, reason: 2)
        try cards.waitForNotifierToLeave(note)
        #expect(try mock.requests().map(\.method) == ["POST"])
        #expect(try mock.pastes().count == 1)
        #expect(try paste.historyLines().count == 1)
    }

    @Test("a forged 'default' starts no opener")
    func forgedOpen() throws {
        let cards = try cards()
        let (server, paste) = (cards.server, cards.paste)
        let result = try paste.run(["--notify", "--no-copy"], stdin: "open me\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let note = try #require(server.notifications.first)
        #expect((note["actions"] as? [String])?.first == "default")
        try cards.forge("default", for: note)
        try server.close(note["id"] as? Int ?? 0, reason: 2)
        try cards.waitForNotifierToLeave(note)
        try waitForOpeners()
        #expect(!FileManager.default.fileExists(atPath: openedFile(in: home).path))
    }

    @Test("the server's 'default' 50 times over runs the opener once")
    func repeatedOpenOnce() throws {
        let cards = try cards()
        let (server, paste) = (cards.server, cards.paste)
        // An opener that appends a line per run (the fixture's overwrites).
        try home.write(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" >> \"\(openedFile(in: home).path)\"\n", to: "bin/xdg-open", mode: 0o755)
        let result = try paste.run(["--notify", "--no-copy"], stdin: "open me once\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        let note = try #require(server.notifications.first)
        try server.repeatAction("default", on: note["id"] as? Int ?? 0, count: 50)
        try server.close(note["id"] as? Int ?? 0, reason: 2)
        try cards.waitForNotifierToLeave(note)
        try waitForOpeners()
        #expect(try String(contentsOf: openedFile(in: home), encoding: .utf8) == url + "\n")
    }

    /// A failed run whose text waits in the outbox (a 503), and its notification.
    func failedRun(_ cards: NotificationCards) throws -> [String: Any] {
        try cards.failedRun(["--notify", "--no-copy"], stdin: "send me once\n")
    }

    @Test("a forged 'retry' sends nothing: the text stays in the outbox")
    func forgedRetry() throws {
        let cards = try cards()
        let (server, paste) = (cards.server, cards.paste)
        let note = try failedRun(cards)
        try cards.forge("retry", for: note)
        try cards.forge("default", for: note)
        try server.close(note["id"] as? Int ?? 0, reason: 2)
        try cards.waitForNotifierToLeave(note)
        #expect(try mock.pastes().isEmpty)
        #expect(try paste.outboxIDs().count == 1)
        #expect(server.notifications.count == 1)
    }

    @Test("the server's 'default' and 'retry', 20 times each, send the text once (one effect, two keys)")
    func repeatedRetryOnce() throws {
        let cards = try cards()
        let (server, paste) = (cards.server, cards.paste)
        let note = try failedRun(cards)
        let id = try #require(note["id"] as? Int)
        try server.repeatAction("default", on: id, count: 20)
        try server.repeatAction("retry", on: id, count: 20)
        _ = try cards.replacement(of: id)
        try server.close(id, reason: 2)
        try cards.waitForNotifierToLeave(note)
        #expect(try mock.requests().filter { $0.method == "POST" }.count == 2)
        #expect(try mock.pastes().count == 1)
        #expect(try paste.outboxIDs().isEmpty)
        // The one outcome: the paste made (not copied: no display here), in the failure's place.
        let outcomes = server.notifications.filter { $0["replaces_id"] as? Int == id }
        #expect(outcomes.count == 1)
        #expect(outcomes.first?["summary"] as? String == "Pasted")
    }
}
