import Foundation
import Testing
import TestSupport

/// The built `paste` with a clipboard manager that says yes to SAVE_TARGETS and keeps nothing
/// (wlroots' XWayland window manager does): the URL must stay readable after paste returns and
/// after the manager's yes, on both ways the owner starts (forked from the reader's connection
/// at the hotkey, forked before any connection for piped text).
///
/// Here rather than in PasteCLITests because the fake manager is this target's `TestClipboardManager`.
@Suite(
    "paste's URL is readable after paste returns, whatever a clipboard manager says", .tags(.x11), .needsXServer, .xvfb,
    .temporaryHome,
    .mock, .serialized)
struct HandOffEndToEndTests: ScopedSuite {
    /// Runs the built `paste` on the test's display, with `input` as stdin.
    func runPaste(_ arguments: [String], input: ProcessInput) throws -> ProcessResult {
        try runProcess(
            BuiltProducts.path(of: "paste"), ["--no-notify", "--url", mock.url("/pastes/create")] + arguments,
            input: input,
            environment: home.environment(["DISPLAY": xvfb.display, "WAYLAND_DISPLAY": nil, "NO_COLOR": "1"]),
            timeout: 60)
    }

    /// `xclip -o` with a deadline: an owner that left would leave it waiting.
    func xclipOutput() throws -> String {
        let result = try runProcess(
            "/usr/bin/xclip", ["-o", "-selection", "clipboard"], environment: xvfb.environment, timeout: 10)
        #expect(result.status == 0, "xclip -o: \(result.err)")
        return result.out
    }

    @Test("the hotkey path (clipboard in, URL out) and piped text: the URL is read after the manager's yes")
    func urlOutlivesTheManagersYes() throws {
        let manager = try TestClipboardManager(displayName: xvfb.display, behaviour: .saysYesKeepsNothing)
        defer { manager.stop() }
        try xvfb.putOnClipboard("text copied at the hotkey")
        let hotkey = try runPaste([], input: .null)
        #expect(hotkey.status == 0, "stderr: \(hotkey.err)")
        #expect(hotkey.err == "")
        let first = hotkey.out.trimmingCharacters(in: .newlines)
        try waitUntil("the manager to say it saved the first URL") { manager.answers == 1 }
        #expect(try xclipOutput() == first)

        let piped = try runPaste([], input: .bytes(Data("piped text\n".utf8)))
        #expect(piped.status == 0, "stderr: \(piped.err)")
        let second = piped.out.trimmingCharacters(in: .newlines)
        #expect(second != first)
        try waitUntil("the manager to say it saved the second URL") { manager.answers == 2 }
        #expect(try xclipOutput() == second)
        #expect(try xvfb.clipboardText() == second)
    }

    @Test("a manager that saves: after paste returns, the manager owns the clipboard and serves the URL")
    func honestManagerTakesOver() throws {
        let manager = try TestClipboardManager(displayName: xvfb.display)
        defer { manager.stop() }
        try xvfb.putOnClipboard("text for a manager that keeps it")
        let result = try runPaste([], input: .null)
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        try waitUntil("the manager to own the clipboard") { manager.ownsClipboardNow }
        #expect(manager.savedText == Array(url.utf8))
        #expect(try xclipOutput() == url)
    }
}
