import Foundation
import Testing
import TestSupport

/// A pure Wayland hotkey run (a headless sway, only `WAYLAND_DISPLAY`: no X display, so no
/// window) reports through a notification server on a private session bus: the recording
/// server for the exact call, and mako, a real Wayland one, to prove the call is accepted and
/// its action served after paste has returned (`makoctl invoke`).
@Suite(
    "Pure Wayland hotkey runs report through desktop notifications (sway)", .tags(.wayland), .needsCompositor, .sway,
    .temporaryHome, .mock, .serialized)
struct WaylandNotificationTests: ScopedSuite {
    /// paste's environment: sway's `WAYLAND_DISPLAY` and nothing of X, the bus, and a `PATH`
    /// holding only the stand-in `xdg-open` (no wl-clipboard).
    func environment(bus: SessionBus) throws -> [String: String] {
        let bin = home.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try home.write(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" > \"\(openedFile(in: home).path)\"\n", to: "bin/xdg-open", mode: 0o755)
        var environment = sway.environment(home.environment(["PATH": bin.path, "NO_COLOR": "1"]), withX: false)
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        return environment
    }

    func hotkey(bus: SessionBus) throws -> (result: ProcessResult, url: String) {
        try sway.waylandCopy(Data("hotkey text, no X".utf8))
        let result = try runProcess(
            BuiltProducts.path(of: "paste"), ["--url", mock.url("/pastes/create")], input: .null,
            environment: try environment(bus: bus), timeout: 60)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(result.out == url + "\n")
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("hotkey text, no X".utf8))
        #expect(try sway.waylandClipboard().out == url)
        return (result, url)
    }

    @Test("the recording server gets Copied and the URL, with open and copy")
    func recordingServer() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let (_, url) = try hotkey(bus: bus)
        let notes = server.notifications
        try #require(notes.count == 1, "\(notes)")
        #expect(notes[0]["app_name"] as? String == "paste")
        #expect(notes[0]["summary"] as? String == "Copied")
        #expect(notes[0]["body"] as? String == url)
        #expect(notes[0]["actions"] as? [String] == ["default", "Open", "copy", "Copy link"])
    }

    @Test("mako shows it, and makoctl invoke opens the URL after paste has returned")
    func mako() throws {
        let bus = try SessionBus()
        let mako = try Mako(sway: sway, bus: bus)
        defer { mako.stop() }
        let (_, url) = try hotkey(bus: bus)
        try waitUntil("mako to list the notification", timeout: 20) {
            try mako.list().contains(url)
        }
        #expect(try mako.control(["invoke"]).status == 0)
        let opened = openedFile(in: home)
        try waitUntil("xdg-open to write", timeout: 20) {
            (try? String(contentsOf: opened, encoding: .utf8)) == url + "\n"
        }
    }
}

/// mako, the Wayland notification server, on sway and a private bus; stopped on `stop()`.
final class Mako: @unchecked Sendable {
    // Safe: every stored property is set once in init.
    private let process: SpawnedProcess
    private let environment: [String: String]
    private let config: URL

    /// Starts mako (with a config of its own, no user's) and waits until it owns
    /// `org.freedesktop.Notifications` on `bus`.
    init(sway: Sway, bus: SessionBus) throws {
        config = FileManager.default.temporaryDirectory.appendingPathComponent("mako-\(UUID().uuidString).conf")
        try Data("default-timeout=0\n".utf8).write(to: config)
        var environment = sway.environment(["PATH": "/usr/bin:/bin"], withX: false)
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        self.environment = environment
        process = try SpawnedProcess("/usr/bin/mako", ["--config", config.path], environment: environment)
        let process = process
        do {
            try waitUntil("mako to own org.freedesktop.Notifications", timeout: 20) {
                guard process.isRunning else { throw DesktopError(reason: "mako exited") }
                return try control(["list"]).status == 0
            }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Runs `makoctl ARGUMENTS` (it calls mako over the bus with busctl), with a deadline.
    func control(_ arguments: [String]) throws -> ProcessResult {
        try runProcess("/usr/bin/makoctl", arguments, environment: environment, timeout: 20)
    }

    /// `makoctl list`'s output.
    func list() throws -> String { try control(["list"]).out }

    func stop() {
        if process.isRunning {
            process.send(SIGTERM)
            if process.wait(seconds: 5) == nil {
                process.send(SIGKILL)
                _ = process.wait(seconds: 10)
            }
        }
        try? FileManager.default.removeItem(at: config)
    }
}

extension Mako {
    /// The notifications mako shows (`makoctl list`), each as its fields' values (`id`,
    /// `summary`, `body`, `actions`: key to label).
    func cards() throws -> [[String: Any]] {
        let listed = try control(["list"])
        guard listed.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any],
            let data = object["data"] as? [[[String: Any]]]
        else { throw DesktopError(reason: "makoctl list: \(listed.out) \(listed.err)") }
        return (data.first ?? []).map { fields in fields.compactMapValues { ($0 as? [String: Any])?["data"] } }
    }

    /// Chooses the action labelled `label` of notification `id` the way a person reaches it on a
    /// server that draws no buttons: `makoctl menu -n ID PROGRAM` with a program that picks it.
    func choose(_ label: String, on id: Int) throws {
        let result = try control(["menu", "-n", String(id), "/usr/bin/grep", "-m1", "-x", "-F", label])
        guard result.status == 0 else { throw DesktopError(reason: "makoctl menu: \(result.err)") }
    }
}

/// The same actions on mako, the Wayland server that draws no buttons: its click (`makoctl
/// invoke`) is the card's most useful action, `makoctl menu` reaches the others, and each ends
/// in its outcome in the card (issue 41, items 3 and 4).
@Suite(
    "Actions a person can reach on mako (sway)", .tags(.wayland), .needsCompositor, .sway, .temporaryHome, .mock,
    .serialized)
struct MakoActionTests: ScopedSuite {
    /// paste's environment: sway's (with XWayland's `DISPLAY` when `withX`), the bus, and a
    /// `PATH` holding only the stand-in `xdg-open`.
    func environment(bus: SessionBus, withX: Bool = false) throws -> [String: String] {
        let bin = home.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try home.write(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" > \"\(openedFile(in: home).path)\"\n", to: "bin/xdg-open", mode: 0o755)
        var environment = sway.environment(home.environment(["PATH": bin.path, "NO_COLOR": "1"]), withX: withX)
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        return environment
    }

    func hotkey(_ text: String, bus: SessionBus, config: String, withX: Bool = false) throws -> ProcessResult {
        try home.write(config, to: "config/paste/config")
        try sway.waylandCopy(Data(text.utf8))
        return try runProcess(
            BuiltProducts.path(of: "paste"), [], input: .null, environment: try environment(bus: bus, withX: withX),
            timeout: 60)
    }

    /// The one card mako shows, once it says `summary`.
    func card(_ mako: Mako, saying summary: String) throws -> [String: Any] {
        var found: [String: Any] = [:]
        try waitUntil("mako to show '\(summary)'", timeout: 30) {
            let cards = try mako.cards()
            guard cards.count == 1, cards[0]["summary"] as? String == summary else { return false }
            found = cards[0]
            return true
        }
        return found
    }

    @Test("a failure's click retries: 'Copied' and the URL in the card, the URL on the clipboard")
    func clickRetries() throws {
        let bus = try SessionBus()
        let mako = try Mako(sway: sway, bus: bus)
        defer { mako.stop() }
        try mock.addFault(.status(503), count: 1, path: "/pastes/create")
        let result = try hotkey("retry on mako", bus: bus, config: pastieConfig(mock, isDefault: true))
        #expect(result.status == 75, "stderr: \(result.err)")
        let failure = try card(mako, saying: "Paste failed")
        #expect(failure["actions"] as? [String: String] == ["default": "Retry", "retry": "Retry now"])
        #expect(try mako.control(["invoke"]).status == 0)
        let copied = try card(mako, saying: "Copied")
        let made = try #require(try mock.pastes().first)
        let url = mock.url("/pastes/\(made.id)")
        #expect(copied["body"] as? String == url)
        #expect(try sway.waylandClipboard().out == url)
    }

    @Test("Delete paste through makoctl menu: 'Deleted', and the dead link is off the clipboard")
    func menuDeletes() throws {
        let bus = try SessionBus()
        let mako = try Mako(sway: sway, bus: bus)
        defer { mako.stop() }
        let result = try hotkey(
            "delete on mako", bus: bus, config: HistoryEndToEndTests.config(mock) + "[paste]\nservice = pinn\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(try sway.waylandClipboard().out == url)
        let copied = try card(mako, saying: "Copied")
        try mako.choose("Delete paste", on: try #require(copied["id"] as? Int))
        let deleted = try card(mako, saying: "Deleted")
        #expect(deleted["body"] as? String == url + "\nThe paste is gone, and its link is off the clipboard.")
        #expect(try mock.pastes().isEmpty)
        #expect(try sway.waylandClipboard().out != url)
    }

    @Test("the guard's question, answered through mako, is gone within a second; then 'Copied'")
    func questionCloses() throws {
        let bus = try SessionBus()
        let mako = try Mako(sway: sway, bus: bus)
        defer { mako.stop() }
        try home.write(pastieConfig(mock, isDefault: true), to: "config/paste/config")
        try sway.waylandCopy(Data(DesktopNotificationTests.privateKey.utf8))
        let run = try SpawnedProcess(
            BuiltProducts.path(of: "paste"), [], environment: try environment(bus: bus), standardInput: .null)
        let question = try card(mako, saying: "Upload this text?")
        let id = try #require(question["id"] as? Int)
        #expect(try mako.control(["invoke", "-n", String(id), "upload"]).status == 0)
        let answered = ContinuousClock.now
        try waitUntil("the question to go", timeout: 1) {
            try !mako.cards().contains { $0["summary"] as? String == "Upload this text?" }
        }
        #expect(ContinuousClock.now - answered < .seconds(1))
        #expect(run.wait(seconds: 60) == 0)
        _ = try card(mako, saying: "Copied")
    }

    @Test("with DISPLAY set too (XWayland), notify-style = auto still says it on the desktop")
    func waylandSessionWithX() throws {
        let bus = try SessionBus()
        let mako = try Mako(sway: sway, bus: bus)
        defer { mako.stop() }
        let result = try hotkey(
            "a toast on wayland", bus: bus, config: pastieConfig(mock, isDefault: true), withX: true)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let copied = try card(mako, saying: "Copied")
        #expect(copied["body"] as? String == result.out.trimmingCharacters(in: .newlines))
    }

    @Test("Copy link still works 30 s after a success (real time)", .tags(.slow))
    func copyAfterThirtySeconds() throws {
        let bus = try SessionBus()
        let mako = try Mako(sway: sway, bus: bus)
        defer { mako.stop() }
        let result = try hotkey("copy me later", bus: bus, config: pastieConfig(mock, isDefault: true))
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        let copied = try card(mako, saying: "Copied")
        try sway.waylandCopy(Data("something newer".utf8))
        try holdsThroughout("the success card shown", seconds: 30) { try mako.cards().count == 1 }
        try mako.choose("Copy link", on: try #require(copied["id"] as? Int))
        try waitUntil("the URL on the clipboard again", timeout: 20) {
            (try? sway.waylandClipboard().out) == url
        }
    }
}
