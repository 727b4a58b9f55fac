import Foundation
import Testing
import TestSupport

/// The fixture of the notification card suites (NotificationOutcomeTests, ForgedAnswerTests and
/// their neighbours): a private session bus, the recording notification server on it, and a
/// `paste` in the test's home whose cards go to that server (`desktopRunner`, its stand-in
/// `xdg-open` included), its config written. What the cases do with the cards is theirs.
struct NotificationCards {
    /// The object path the specification's signals come from.
    static let path = "/org/freedesktop/Notifications"

    let bus: SessionBus
    let server: RecordingNotificationServer
    let paste: PasteRunner
    let mock: MockServer

    /// Starts the bus and the server, and makes the runner.
    ///
    /// - Parameters:
    ///   - display: the X display paste runs on (nil: none).
    ///   - config: paste's config file, written before any run.
    init(home: TemporaryHome, mock: MockServer, display: String? = nil, config: String) throws {
        bus = try SessionBus()
        server = try RecordingNotificationServer(on: bus)
        paste = try desktopRunner(home: home, bus: bus, display: display)
        self.mock = mock
        try paste.writeConfig(config)
    }

    /// Starts paste with a private key on stdin and waits until the guard asks what to do: the
    /// running paste and the question.
    func guardQuestion(_ arguments: [String] = ["--notify", "--no-copy"]) throws -> (RunningPaste, [String: Any]) {
        let run = try RunningPaste(paste, arguments, stdin: DesktopNotificationTests.privateKey)
        try waitUntil("the guard's question", timeout: 30) { server.notifications.count == 1 }
        return (run, server.notifications[0])
    }

    /// A failed run whose text waits in the outbox (a 503), checked to exit 75 with a card that
    /// offers Retry now: that card.
    func failedRun(_ arguments: [String], stdin: String) throws -> [String: Any] {
        try mock.addFault(.status(503), count: 1, path: "/pastes/create")
        let result = try paste.run(arguments, stdin: stdin)
        #expect(result.status == 75, "stderr: \(result.err)")
        let note = try #require(server.notifications.first)
        #expect(note["actions"] as? [String] == ["default", "Retry", "retry", "Retry now"])
        return note
    }

    /// The record of the Notify that replaced notification `id`, once it came.
    func replacement(of id: Int) throws -> [String: Any] {
        try waitUntil("the card to be replaced", timeout: 60) {
            server.notifications.contains { $0["replaces_id"] as? Int == id }
        }
        return try #require(server.notifications.last { $0["replaces_id"] as? Int == id })
    }

    /// A forged `ActionInvoked` of `key` for notification `note`, sent by `dbus-send` (a client
    /// that is not the server) to the connection that asked for it.
    func forge(_ key: String, for note: [String: Any]) throws {
        let sender = try #require(note["sender"] as? String)
        let id = try #require(note["id"] as? Int)
        try bus.emit(
            "org.freedesktop.Notifications.ActionInvoked", path: Self.path, destination: sender,
            ["uint32:\(id)", "string:\(key)"])
    }

    /// Waits until the notifier that showed `note` has left the bus (its connection closed).
    func waitForNotifierToLeave(_ note: [String: Any]) throws {
        let sender = try #require(note["sender"] as? String)
        try waitUntil("the notifier to leave the bus", timeout: 30) { try !bus.hasOwner(sender) }
    }
}
