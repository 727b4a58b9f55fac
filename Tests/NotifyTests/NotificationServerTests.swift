import DBusInterop
import Foundation
import Notify
import Testing
import TestSupport

/// The Notify module against a notification server on a private session bus: the recording
/// server of the fixtures (jeepney), which writes down each Notify call and invokes actions when
/// the test asks, through the bus (dbus-send).
@Suite("Desktop notifications on a private session bus")
struct NotificationServerTests {
    /// A generous deadline for one call on a local bus, far above what it takes.
    static let callTime = Duration.seconds(10)
    var deadline: ContinuousClock.Instant { .now + Self.callTime }

    @Test("Notify carries the spec's eight arguments, hints and image included, exactly")
    func notifyArguments() throws {
        let bus = try SessionBus()
        let recorder = try RecordingNotificationServer(on: bus, capabilities: ["actions", "body", "body-markup"])
        let server = try NotificationServer(busAddress: bus.address, before: deadline)
        #expect(try server.capabilities(before: deadline) == ["actions", "body", "body-markup"])
        var note = DesktopNotification(summary: "Copied", body: "http://pastie.example/1")
        note.actions = [.init(key: "default", label: "Open"), .init(key: "copy", label: "Copy again")]
        note.urgency = .low
        note.expiry = .after(.milliseconds(4000))
        note.image = NotificationImage(width: 2, height: 1, hasAlpha: true, pixels: [1, 2, 3, 4, 5, 6, 7, 8])
        let id = try server.show(note, before: deadline)
        #expect(id == 1)
        let recorded = try #require(recorder.notifications.first)
        #expect(recorded["app_name"] as? String == "paste")
        #expect(recorded["replaces_id"] as? Int == 0)
        #expect(recorded["app_icon"] as? String == "")
        #expect(recorded["summary"] as? String == "Copied")
        #expect(recorded["body"] as? String == "http://pastie.example/1")
        #expect(recorded["actions"] as? [String] == ["default", "Open", "copy", "Copy again"])
        #expect(recorded["expire_timeout"] as? Int == 4000)
        let hints = try #require(recorded["hints"] as? [String: Any])
        #expect(hints["urgency"] as? Int == 0)
        #expect(hints["desktop-entry"] as? String == "paste")
        // width, height, row stride, has alpha, bits per sample, channels, bytes of pixels
        #expect(hints["image-data"] as? [Int] == [2, 1, 8, 1, 8, 4, 8])
        #expect(hints.count == 3)
    }

    /// A private bus with the recording server on it, and paste's connection watching the
    /// signals: the fixture of the cases about what comes back.
    struct Watching {
        let bus: SessionBus
        let recorder: RecordingNotificationServer
        let server: NotificationServer
    }

    /// Starts the `Watching` fixture (the recorder sending its signals to paste alone when
    /// `unicast`).
    func watching(unicast: Bool = false) throws -> Watching {
        let bus = try SessionBus()
        let recorder = try RecordingNotificationServer(on: bus, unicast: unicast)
        let server = try NotificationServer(busAddress: bus.address, before: deadline)
        try server.watchSignals(before: deadline)
        return Watching(bus: bus, recorder: recorder, server: server)
    }

    @Test("an action invoked through the bus comes back, then the closing", arguments: [false, true])
    func actionInvoked(unicast: Bool) throws {
        let fixture = try watching(unicast: unicast)
        let (recorder, server) = (fixture.recorder, fixture.server)
        let first = try server.show(.init(summary: "one", body: ""), before: deadline)
        let second = try server.show(.init(summary: "two", body: ""), before: deadline)
        try recorder.invoke("copy", on: Int(first))
        try recorder.invoke("default", on: Int(second))
        #expect(try server.nextEvent(of: second, before: deadline) == .actionInvoked("default"))
        #expect(try server.nextEvent(of: second, before: deadline) == .closed(.dismissed))
        try server.close(second, before: deadline)
        #expect(try server.nextEvent(of: second, before: deadline) == .closed(.closedByCall))
    }

    // MARK: - Who answers for the person (issue 45, item 2)

    static let path = "/org/freedesktop/Notifications"

    @Test("a forged ActionInvoked or NotificationClosed from another client, sent to paste alone, is passed over")
    func forgedSignalsIgnored() throws {
        let fixture = try watching()
        let (bus, recorder, server) = (fixture.bus, fixture.recorder, fixture.server)
        let id = try server.show(.init(summary: "question", body: ""), before: deadline)
        let ours = try #require(recorder.notifications.first?["sender"] as? String)
        // Unicast to paste's unique name: it passes every match rule.
        try bus.emit(
            "org.freedesktop.Notifications.ActionInvoked", path: Self.path, destination: ours,
            ["uint32:\(id)", "string:upload"])
        try bus.emit(
            "org.freedesktop.Notifications.NotificationClosed", path: Self.path, destination: ours,
            ["uint32:\(id)", "uint32:2"])
        // And broadcast, as a server would send them.
        try bus.emit("org.freedesktop.Notifications.ActionInvoked", path: Self.path, ["uint32:\(id)", "string:upload"])
        try recorder.invoke("cancel", on: Int(id))
        #expect(try server.nextEvent(of: id, before: deadline) == .actionInvoked("cancel"))
        #expect(try server.nextEvent(of: id, before: deadline) == .closed(.dismissed))
    }

    @Test("a server started again answers for nothing the first one showed")
    func restartedServerIgnored() throws {
        let fixture = try watching()
        let (bus, first, server) = (fixture.bus, fixture.recorder, fixture.server)
        let id = try server.show(.init(summary: "one", body: ""), before: deadline)
        first.stop()
        // It owns the name now, and numbers its notifications from 1 again.
        let second = try RecordingNotificationServer(on: bus)
        try second.invoke("default", on: Int(id))
        #expect(try server.nextEvent(of: id, before: .now + .milliseconds(500)) == nil)
        // What it shows itself is its own to answer.
        let next = try server.show(.init(summary: "two", body: ""), before: deadline)
        try second.invoke("copy", on: Int(next))
        #expect(try server.nextEvent(of: next, before: deadline) == .actionInvoked("copy"))
    }

    /// What the recording server does to a notification, in order.
    enum ServerStep: Sendable {
        /// `repeatAction`: the key `count` times over, no closing.
        case repeatAction(String, count: Int)
        /// `invoke`: the key, then the closing (dismissed), as a click.
        case invoke(String)
        /// `close`, dismissed.
        case dismiss
    }

    /// A case of `actionsOnce`: what the server does, which keys paste takes as repeatable, and
    /// every event paste reads, up to the closing.
    struct RepeatCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var steps: [ServerStep]
        var repeatable: Set<String> = []
        var events: [NotificationEvent]
    }

    static let repeatCases = [
        RepeatCase(
            testDescription: "an action invoked 50 times over is reported once; another key still is",
            steps: [.repeatAction("default", count: 50), .invoke("copy")],
            events: [.actionInvoked("default"), .actionInvoked("copy"), .closed(.dismissed)]),
        RepeatCase(
            testDescription: "a repeatable key is reported each time the server sends it; the others still once",
            steps: [.repeatAction("copy", count: 3), .repeatAction("default", count: 3), .dismiss],
            repeatable: ["copy"],
            events: [
                .actionInvoked("copy"), .actionInvoked("copy"), .actionInvoked("copy"), .actionInvoked("default"),
                .closed(.dismissed),
            ]),
    ]

    @Test("each action the server sends is reported once, a repeatable key each time", arguments: repeatCases)
    func actionsOnce(_ row: RepeatCase) throws {
        let fixture = try watching()
        let (recorder, server) = (fixture.recorder, fixture.server)
        let id = try server.show(.init(summary: "again", body: ""), before: deadline)
        for step in row.steps {
            switch step {
            case .repeatAction(let key, let count): try recorder.repeatAction(key, on: Int(id), count: count)
            case .invoke(let key): try recorder.invoke(key, on: Int(id))
            case .dismiss: try recorder.close(Int(id), reason: 2)
            }
        }
        var events: [NotificationEvent] = []
        while let event = try server.nextEvent(of: id, repeatable: row.repeatable, before: deadline) {
            events.append(event)
            if case .closed = event { break }
        }
        #expect(events == row.events)
    }

    @Test("shown again in place of one (replaces_id), what the server said of the old one before is passed over")
    func replacedDropsStaleSignals() throws {
        let fixture = try watching()
        let (recorder, server) = (fixture.recorder, fixture.server)
        let id = try server.show(.init(summary: "first", body: ""), before: deadline)
        // A click: the action, then the closing, both sent before the replacement is asked for.
        try recorder.invoke("retry", on: Int(id))
        #expect(try server.nextEvent(of: id, before: deadline) == .actionInvoked("retry"))
        var next = DesktopNotification(summary: "outcome", body: "")
        next.replacesID = id
        let shown = try server.show(next, before: deadline)
        #expect(shown == id)
        #expect(recorder.notifications.last?["replaces_id"] as? Int == Int(id))
        // The closing of the first is gone; the next event is about the outcome.
        #expect(try server.nextEvent(of: shown, before: .now + .milliseconds(200)) == nil)
        try recorder.close(Int(shown), reason: 1)
        #expect(try server.nextEvent(of: shown, before: deadline) == .closed(.expired))
    }

    @Test("no event before the deadline is nil, and waits no longer than it")
    func eventDeadline() throws {
        let fixture = try watching()
        let (recorder, server) = (fixture.recorder, fixture.server)
        let id = try server.show(.init(summary: "quiet", body: ""), before: deadline)
        let started = ContinuousClock.now
        #expect(try server.nextEvent(of: id, before: .now + .milliseconds(200)) == nil)
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(200) && waited < .seconds(5))
        #expect(recorder.notifications.count == 1)
    }

    @Test("a bus with no notification server says so at once")
    func noServer() throws {
        let bus = try SessionBus()
        let server = try NotificationServer(busAddress: bus.address, before: deadline)
        let started = ContinuousClock.now
        #expect(throws: NotifyError.self) { try server.capabilities(before: .now + .milliseconds(300)) }
        do {
            _ = try server.capabilities(before: .now + .milliseconds(300))
        } catch {
            #expect(error.description == "no notification server on the session bus")
        }
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test("no bus at the address is an error naming it")
    func noBus() throws {
        let address = "unix:path=/nonexistent/paste-test-bus"
        #expect {
            _ = try NotificationServer(busAddress: address, before: .now + .milliseconds(300))
        } throws: { error in
            guard case .bus(.cannotConnect(address, _, _)) = error as? NotifyError else { return false }
            return true
        }
        #expect(throws: NotifyError.bus(.noAddress)) {
            _ = try NotificationServer(busAddress: "", before: .now + .milliseconds(300))
        }
    }

    @Test("an image decodes as it was encoded; one whose pixels do not fill it is refused")
    func imageCoding() throws {
        let image = NotificationImage(width: 2, height: 1, hasAlpha: true, pixels: [1, 2, 3, 4, 5, 6, 7, 8])
        let data = try JSONEncoder().encode(image)
        #expect(try JSONDecoder().decode(NotificationImage.self, from: data) == image)
        let short = Data(#"{"width":2,"height":1,"hasAlpha":true,"pixels":[1,2,3]}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NotificationImage.self, from: short) }
    }
}
