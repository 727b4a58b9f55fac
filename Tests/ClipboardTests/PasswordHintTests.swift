import Foundation
import Testing
import TestSupport

@testable import Clipboard

/// Content a password manager marks (`x-kde-passwordManagerHint` = `secret`, as KeePassXC and
/// KDE applications offer it) is never read for upload (issue 26, item 1): an X11 owner of our
/// own (`ScriptedOwner`, on its own connection: a real owner, not xclip) offers a password and
/// the mark; the reader refuses it without reading the text, and the built `paste` refuses it
/// with one line and 77, `--force` or not, at a terminal and at a hotkey, sending nothing.
@Suite(
    "The password manager's mark: refused at a terminal and at a hotkey", .tags(.x11), .needsXServer, .xvfb,
    .temporaryHome, .mock, .serialized)
struct PasswordHintTests: ScopedSuite {
    static let password = Array("correct horse battery staple".utf8)
    static let refusal =
        "paste: the clipboard holds a password (the program it was copied from marks it secret), "
        + "so it is never uploaded, not even with --force\n"

    /// An owner offering the password as text, with the mark's value `value`.
    func startOwner(value: String = "secret") throws -> ScriptedOwner {
        try ScriptedOwner(
            on: xvfb,
            answers: [
                "UTF8_STRING": .bytes(Self.password, type: "UTF8_STRING"),
                PasswordManagerHint.name: .bytes(Array(value.utf8), type: PasswordManagerHint.name),
            ])
    }

    func writeConfig(_ extra: String = "") throws {
        try home.write(
            """
            [paste]
            \(extra)
            [service "pastie"]
                url = \(mock.url("/pastes/create"))
                content-field = paste[body]

            """, to: "config/paste/config")
    }

    func runPaste(_ arguments: [String], environment extra: [String: String?] = [:]) throws -> ProcessResult {
        var environment: [String: String?] = ["DISPLAY": xvfb.display, "WAYLAND_DISPLAY": nil, "NO_COLOR": "1"]
        for (key, value) in extra { environment[key] = value }
        return try runProcess(
            BuiltProducts.path(of: "paste"), ["-S", "pastie"] + arguments, input: .null,
            environment: home.environment(environment), timeout: 60)
    }

    @Test("the reader refuses a marked password without asking for its text")
    func readerRefuses() throws {
        let owner = try startOwner()
        defer { owner.stop() }
        let error = #expect(throws: ClipboardError.markedSecret(.clipboard)) {
            try Selections.clipboard(xvfb).read(.clipboard)
        }
        #expect(error?.kind == .refused)
        // TARGETS and UTF8_STRING share a round trip; the mark's value is asked, the text never read.
        #expect(owner.requestedTargets == ["TARGETS", "UTF8_STRING", PasswordManagerHint.name])
    }

    @Test(
        "an owner that cannot say what its mark means is taken at its word: zero bytes, or INCR (issue 45, item 7)",
        arguments: ["zero bytes", "INCR"])
    func unsaidMarkIsSecret(answer: String) throws {
        // Past ScriptedOwner.chunkSize the owner answers by INCR: "secret" and new lines.
        let value = answer == "INCR" ? Array("secret".utf8) + [UInt8](repeating: 0x0A, count: 100_000) : []
        let owner = try ScriptedOwner(
            on: xvfb,
            answers: [
                "UTF8_STRING": .bytes(Self.password, type: "UTF8_STRING"),
                PasswordManagerHint.name: .bytes(value, type: PasswordManagerHint.name),
            ])
        defer { owner.stop() }
        #expect(throws: ClipboardError.markedSecret(.clipboard)) { try Selections.clipboard(xvfb).read(.clipboard) }
    }

    @Test("a mark whose value is not secret is no refusal")
    func otherValue() throws {
        let owner = try startOwner(value: "public")
        defer { owner.stop() }
        #expect(try Selections.clipboard(xvfb).read(.clipboard) == Self.password)
    }

    @Test("at a terminal: one line naming the mark, 77, with --force too, nothing sent", arguments: [false, true])
    func terminal(force: Bool) throws {
        try writeConfig()
        let owner = try startOwner()
        defer { owner.stop() }
        let result = try runPaste(["-c", "--no-notify"] + (force ? ["--force"] : []))
        #expect(result.out == "")
        #expect(result.err == Self.refusal)
        #expect(result.status == 77)
        #expect(try mock.posts().isEmpty)
        #expect(try xvfb.clipboardText() == String(decoding: Self.password, as: UTF8.self))
    }

    @Test("at a hotkey: the desktop notification says the same, 77, nothing sent")
    func hotkey() throws {
        try writeConfig("    notify-style = desktop\n")
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let owner = try startOwner()
        defer { owner.stop() }
        let result = try runPaste(["--notify"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(result.out == "")
        #expect(result.err == Self.refusal)
        #expect(result.status == 77)
        let note = try #require(server.notifications.first)
        #expect(note["summary"] as? String == "Not uploaded")
        let body = try #require(note["body"] as? String)
        #expect(
            body.hasPrefix("The clipboard holds a password") || body.hasPrefix("the clipboard holds a password"),
            "\(body)")
        // In words for people: the mark's internal name is not shown.
        #expect(body.contains("marks it secret") && !body.contains("x-kde"), "\(body)")
        #expect(try mock.posts().isEmpty)
    }
}
