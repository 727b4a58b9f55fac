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
