import Foundation
import Testing
import TestSupport

@testable import Clipboard

/// The password manager's mark is read on every side paste can see (issue 45, items 1 and 7): on
/// sway, a password manager running under XWayland marks its copy on the X selection, and sway's
/// bridge carries only `text/plain;charset=utf-8` to Wayland. With `DISPLAY` and
/// `WAYLAND_DISPLAY` both set, paste reads through data-control, and asks the X owner's
/// `TARGETS` too: the copy is refused as `clipboard = x11` refuses it. And an owner that offers
/// the mark on Wayland but writes nothing for it is taken at its word.
@Suite(
    "The password manager's mark through XWayland on sway", .tags(.wayland), .needsCompositor, .sway,
    .temporaryHome, .mock, .serialized)
struct XWaylandMarkTests: ScopedSuite {
    static let timeout = Duration.seconds(10)

    /// A password, as KeePassXC under XWayland copies it: text and the mark, on the X side.
    func startPasswordManager(on display: String) throws -> ScriptedOwner {
        try ScriptedOwner(
            displayName: display,
            answers: [
                "UTF8_STRING": .bytes(PasswordHintTests.password, type: "UTF8_STRING"),
                PasswordManagerHint.name: .bytes(Array("secret".utf8), type: PasswordManagerHint.name),
            ])
    }

    /// A copy in a password manager under XWayland: an X window has the focus (the manager's,
    /// clicked), and its owner takes the X clipboard; returns once sway's bridge has carried
    /// the text to the Wayland selection (it does so while an X window has the focus).
    func copyInPasswordManager() throws -> (window: SpawnedProcess, owner: ScriptedOwner) {
        let window = try sway.focusedXWindow()
        do {
            let owner = try startPasswordManager(on: sway.xDisplay)
            try waitUntil("the bridge to carry the X copy to Wayland", timeout: 20) {
                try sway.waylandClipboard().stdout == Data(PasswordHintTests.password)
            }
            return (window, owner)
        } catch {
            window.send(SIGKILL)
            throw error
        }
    }

    /// The MIME types the Wayland selection's offer lists (`wl-paste --list-types`).
    func waylandTypes() throws -> [String] {
        let listed = try runProcess(
            "/usr/bin/wl-paste", ["--list-types"], environment: sway.toolEnvironment, timeout: 10)
        return listed.out.split(whereSeparator: \.isNewline).map(String.init)
    }

    @Test("a password marked on the X side, bridged to Wayland without the mark: 77, --force too, nothing sent")
    func bridgedPasswordRefused() throws {
        try home.write(
            """
            [service "pastie"]
                url = \(mock.url("/pastes/create"))
                content-field = paste[body]
                field = paste[authorization]=burger

            """, to: "config/paste/config")
        let (window, owner) = try copyInPasswordManager()
        defer {
            owner.stop()
            window.send(SIGKILL)
        }
        #expect(try !waylandTypes().contains(PasswordManagerHint.name))
        for force in [false, true] {
            let result = try runProcess(
                BuiltProducts.path(of: "paste"),
                ["-S", "pastie", "-c", "--no-notify"] + (force ? ["--force"] : []), input: .null,
                environment: sway.environment(home.environment(["NO_COLOR": "1"]), withX: true), timeout: 60)
            #expect(result.out == "")
            #expect(result.err == PasswordHintTests.refusal)
            #expect(result.status == 77)
        }
        #expect(try mock.requests().isEmpty)
    }

    @Test("the data-control reader asks the X side's TARGETS and the mark, and never its text")
    func readerAsksXTargets() throws {
        let (window, owner) = try copyInPasswordManager()
        defer {
            owner.stop()
            window.send(SIGKILL)
        }
        let before = owner.requestedTargets.count
        let clipboard = DataControlClipboard(
            socketPath: sway.socketPath, helperExecutable: BuiltProducts.path(of: "paste"),
            environment: ["PATH": "/nonexistent", "DISPLAY": sway.xDisplay])
        #expect(throws: ClipboardError.markedSecret(.clipboard)) {
            try clipboard.read(.clipboard, timeout: Self.timeout)
        }
        #expect(Array(owner.requestedTargets.dropFirst(before)) == ["TARGETS", PasswordManagerHint.name])
    }

    @Test("a Wayland owner that offers the mark and writes nothing for it is taken at its word")
    func emptyWaylandMarkIsSecret() throws {
        // wl-copy offers one type: the mark, with nothing in it.
        let copy = try SpawnedProcess(
            "/usr/bin/wl-copy", ["--type", PasswordManagerHint.name], environment: sway.toolEnvironment,
            standardInput: .null)
        guard let status = copy.wait(seconds: 20), status == 0 else {
            Issue.record("wl-copy failed or hung")
            return
        }
        try waitUntil("wl-copy's offer", timeout: 20) { try waylandTypes() == [PasswordManagerHint.name] }
        let clipboard = DataControlClipboard(
            socketPath: sway.socketPath, helperExecutable: BuiltProducts.path(of: "paste"),
            environment: ["PATH": "/nonexistent"])
        #expect(throws: ClipboardError.markedSecret(.clipboard)) {
            try clipboard.read(.clipboard, timeout: Self.timeout)
        }
    }
}
