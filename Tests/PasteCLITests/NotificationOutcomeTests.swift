import Foundation
import Testing
import TestSupport

@testable import PasteCLI

/// Actions a person can reach (issue 41, item 3; issue 45, item 9): every action ends in its
/// outcome in the same card (`replaces_id`), the card stays while it is useful, Copy link may be
/// asked for again (from the server that showed it only), and an answered question closes at
/// once. On the recording server under Xvfb (the clipboard checked with xclip).
@Suite(
    "Notification outcomes in the same card: Retry now, Delete paste, Copy link again", .tags(.x11), .needsXServer,
    .xvfb, .temporaryHome, .mock, .serialized)
struct NotificationOutcomeTests: ScopedSuite {
    /// The cards' fixture on the X display, cards as desktop notifications, `extra` added to
    /// the config.
    func cards(_ config: String, extra: String = "") throws -> NotificationCards {
        try NotificationCards(
            home: home, mock: mock, display: xvfb.display, config: config + "[paste]\nnotify-style = desktop\n" + extra)
    }

    @Test("Retry now: a 'Copied' card replaces the failure, with the URL, which is on the clipboard")
    func retryCopies() throws {
        let cards = try cards(pastieConfig(mock, isDefault: true))
        let (server, paste) = (cards.server, cards.paste)
        try xvfb.putOnClipboard("before the retry")
        let failure = try cards.failedRun(["--notify"], stdin: "retry me\n")
        #expect(failure["summary"] as? String == "Paste failed")
        // It stays until dismissed or sent (the notifier's bound aside).
        #expect(failure["expire_timeout"] as? Int == 0)
        let id = try #require(failure["id"] as? Int)
        // A click on the card itself (all a server without buttons offers) retries.
        try server.invoke("default", on: id)
        let copied = try cards.replacement(of: id)
        let paste1 = try #require(try mock.pastes().first)
        let url = mock.url("/pastes/\(paste1.id)")
        #expect(paste1.data == Data("retry me\n".utf8))
        #expect(copied["summary"] as? String == "Copied")
        #expect(copied["body"] as? String == url)
        #expect(copied["actions"] as? [String] == ["default", "Open", "copy", "Copy link"])
        #expect(copied["expire_timeout"] as? Int == Int(DesktopNotice.actionTime.components.seconds) * 1000)
        #expect(try xvfb.clipboardText() == url)
        // The closing that followed the click was about the failure: the new card is served.
        try xvfb.putOnClipboard("something else")
        try server.repeatAction("copy", on: copied["id"] as? Int ?? 0, count: 1)
        try waitUntil("the URL on the clipboard again", timeout: 20) { (try? xvfb.clipboardText()) == url }
        #expect(try paste.outboxIDs().isEmpty)
        // The click on the card that replaced it is its own: it opens the URL now.
        try server.repeatAction("default", on: copied["id"] as? Int ?? 0, count: 1)
        try waitUntil("xdg-open to write", timeout: 20) {
            (try? String(contentsOf: openedFile(in: home), encoding: .utf8)) == url + "\n"
        }
    }

    @Test("Delete paste: a 'Deleted' card replaces it, and the dead link is off the clipboard")
    func deleteSaysDeleted() throws {
        let cards = try cards(HistoryEndToEndTests.config(mock))
        let (server, paste) = (cards.server, cards.paste)
        let result = try paste.run(["--notify", "-S", "pinn"], stdin: "delete me\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(try xvfb.clipboardText() == url)
        let note = try #require(server.notifications.first)
        #expect(note["actions"] as? [String] == ["default", "Open", "copy", "Copy link", "delete", "Delete paste"])
        let id = try #require(note["id"] as? Int)
        try server.invoke("delete", on: id)
        let deleted = try cards.replacement(of: id)
        #expect(deleted["summary"] as? String == "Deleted")
        #expect(deleted["body"] as? String == url + "\nThe paste is gone, and its link is off the clipboard.")
        #expect(deleted["actions"] as? [String] == [])
        #expect(try mock.pastes().isEmpty)
        #expect(try paste.historyLines().isEmpty)
        #expect(try xvfb.clipboardText() == "")
        // Nothing left to act on: the notifier has gone.
        try cards.waitForNotifierToLeave(note)
    }

    @Test("Delete paste that fails says why in the card, keeps Copy link, and leaves the clipboard alone")
    func deleteFailureSaysWhy() throws {
        let cards = try cards(HistoryEndToEndTests.config(mock))
        let (server, paste) = (cards.server, cards.paste)
        let result = try paste.run(["--notify", "-S", "pinn"], stdin: "keep me\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        let note = try #require(server.notifications.first)
        let id = try #require(note["id"] as? Int)
        try mock.addFault(.status(500), count: 1)
        try server.invoke("delete", on: id)
        let refused = try cards.replacement(of: id)
        #expect(refused["summary"] as? String == "Not deleted")
        let body = try #require(refused["body"] as? String)
        #expect(body.hasPrefix(url + "\n") && body.contains("500"), "\(body)")
        #expect(refused["actions"] as? [String] == ["default", "Open", "copy", "Copy link"])
        #expect(try mock.pastes().count == 1)
        #expect(try xvfb.clipboardText() == url)
    }

    @Test("Copy link lasts: the card stays a minute, and copy works again and again, from the server only")
    func copyAgainAndAgain() throws {
        let cards = try cards(pastieConfig(mock, isDefault: true))
        let (server, paste) = (cards.server, cards.paste)
        let result = try paste.run(["--notify"], stdin: "copy me often\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        let note = try #require(server.notifications.first)
        #expect(note["expire_timeout"] as? Int == 60000)
        let id = try #require(note["id"] as? Int)
        for round in 1...3 {
            try xvfb.putOnClipboard("other text \(round)")
            try server.repeatAction("copy", on: id, count: 1)
            try waitUntil("the URL on the clipboard (round \(round))", timeout: 20) {
                (try? xvfb.clipboardText()) == url
            }
            try waitUntil("the card to say so (round \(round))", timeout: 20) {
                server.notifications.filter { $0["replaces_id"] as? Int == id }.count == round
            }
        }
        let again = try #require(server.notifications.last)
        #expect(again["summary"] as? String == "Copied")
        #expect(again["body"] as? String == url)
        #expect(again["actions"] as? [String] == ["default", "Open", "copy", "Copy link"])
        // A forged copy (another client on the bus) does nothing; the server's closing ends it.
        try xvfb.putOnClipboard("forged round")
        try cards.forge("copy", for: note)
        try server.close(id, reason: 2)
        try cards.waitForNotifierToLeave(note)
        #expect(try xvfb.clipboardText() == "forged round")
        #expect(server.notifications.count == 4)
    }

    @Test("notify-timeout set in the config rules a card with actions too")
    func explicitTimeoutRules() throws {
        let cards = try cards(pastieConfig(mock, isDefault: true), extra: "notify-timeout = 7\n")
        let (server, paste) = (cards.server, cards.paste)
        try mock.addFault(.status(503), count: 1, path: "/pastes/create")
        _ = try paste.run(["--notify"], stdin: "failing\n")
        _ = try paste.run(["--notify"], stdin: "working\n")
        #expect(server.notifications.map { $0["expire_timeout"] as? Int } == [7000, 7000])
    }
}

/// The guard's question closes as soon as it is answered (a server such as mako keeps a
/// notification after an action: it stayed up to a minute beside "Copied").
@Suite("An answered question closes at once", .temporaryHome, .mock)
struct AnsweredQuestionTests: ScopedSuite {
    @Test("upload, sent by a server that keeps the notification, closes the question within a second")
    func closesAtOnce() throws {
        let cards = try NotificationCards(home: home, mock: mock, config: pastieConfig(mock, isDefault: true))
        let server = cards.server
        let (run, question) = try cards.guardQuestion()
        let id = try #require(question["id"] as? Int)
        #expect(server.closedByCall.isEmpty)
        // ActionInvoked alone, no NotificationClosed: the question is paste's to close.
        try server.repeatAction("upload", on: id, count: 1)
        let answered = ContinuousClock.now
        try waitUntil("the question to be closed", timeout: 1) { server.closedByCall == [id] }
        #expect(ContinuousClock.now - answered < .seconds(1))
        let result = try run.finish()
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        #expect(try mock.pastes().first?.data == Data(DesktopNotificationTests.privateKey.utf8))
    }
}

/// With no notification server and no X display, the outcome is kept for the next run whose
/// stderr is a terminal (issue 41, item 4).
@Suite("An outcome nobody could see is said by the next run in a terminal", .temporaryHome, .mock)
struct UnseenOutcomeTests: ScopedSuite {
    @Test("no server, no X: the next terminal run says 'Pasted' and the URL once")
    func saidNextTime() throws {
        let bus = try SessionBus()
        let paste = try desktopRunner(home: home, bus: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        let result = try paste.run(["--notify", "--no-copy"], stdin: "nobody sees me\n")
        #expect(result.status == 0)
        #expect(result.err == "paste: no desktop notification: no notification server on the session bus\n")
        let url = result.out.trimmingCharacters(in: .newlines)
        let store = home.root.appendingPathComponent("state/paste/unseen")
        let kept = try String(contentsOf: store, encoding: .utf8)
        #expect(kept.hasSuffix("\tPasted: \(url)\n"), "\(kept)")
        let command = "'\(BuiltProducts.path(of: "paste"))' --outbox"
        let terminal = try paste.runOnTerminal(command)
        #expect(terminal.status == 0, "\(terminal.out)")
        let lines = terminal.out.split(separator: "\r\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        let said = try #require(lines.first)
        #expect(said.hasPrefix("paste: while nobody could see it ("), "\(said)")
        #expect(said.hasSuffix("): Pasted: \(url)"), "\(said)")
        #expect(lines.last == "paste: the outbox is empty")
        #expect(!FileManager.default.fileExists(atPath: store.path))
        let again = try paste.runOnTerminal(command)
        #expect(again.out == "paste: the outbox is empty\r\n")
    }
}

/// A failure's card stays until it is dismissed or its text is sent: sent another way (`paste
/// --retry`), the card goes (issue 41, item 3).
@Suite("A failure's card goes once its text is sent another way", .temporaryHome, .mock)
struct FailureCardTests: ScopedSuite {
    @Test("paste --retry sends the text: the notifier closes the card with Retry now, and leaves")
    func sentElsewhere() throws {
        let cards = try NotificationCards(home: home, mock: mock, config: pastieConfig(mock, isDefault: true))
        let (server, paste) = (cards.server, cards.paste)
        let card = try cards.failedRun(["--notify", "--no-copy"], stdin: "sent another way\n")
        let id = try #require(card["id"] as? Int)
        #expect(server.closedByCall.isEmpty)
        let retried = try paste.run(["--retry"])
        #expect(retried.status == 0, "stderr: \(retried.err)")
        #expect(try mock.pastes().count == 1)
        try waitUntil("the card to be closed", timeout: 30) { server.closedByCall == [id] }
        try cards.waitForNotifierToLeave(card)
        #expect(server.notifications.count == 1)
    }
}
