import Foundation
import Testing
import TestSupport

/// `paste` as a hotkey runs it: no terminal, the clipboard as input, windows for the person.
/// Driven with xdotool under a private Xvfb.
@Suite(
    "At the hotkey: windows driven by xdotool", .tags(.x11), .needsXServer, .xvfb, .temporaryHome, .mock, .serialized)
struct HotkeyTests: ScopedSuite {
    init() throws {
        // A short toast keeps the tests quick; the default is 4 s.
        try paste.writeConfig("[paste]\nnotify-timeout = 1\n")
    }

    // MARK: - Helpers

    func tool(_ name: String, _ arguments: [String]) throws -> ProcessResult {
        try runProcess("/usr/bin/env", [name] + arguments, environment: xvfb.environment, timeout: 20)
    }

    func xdotool(_ arguments: String...) throws {
        let result = try tool("xdotool", arguments)
        #expect(result.status == 0, "xdotool \(arguments): \(result.err)")
    }

    func pasteWindows() -> [String] {
        let result = try? tool("xdotool", ["search", "--onlyvisible", "--classname", "^paste$"])
        return (result?.out ?? "").split(whereSeparator: \.isNewline).map(String.init)
    }

    func waitForFocusedWindow() throws {
        try waitUntil("a focused paste window", timeout: 20) {
            let windows = pasteWindows()
            guard
                let focus = try? tool("xdotool", ["getwindowfocus"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
            else { return false }
            return windows.contains(focus)
        }
    }

    /// Starts `paste` as a launcher would: stdin /dev/null, stdout and stderr not a terminal.
    func launch(_ arguments: [String]) throws -> Launched {
        try Launched(BuiltProducts.path(of: "paste"), arguments, environment: paste.environment)
    }

    // MARK: - Tests

    @Test("after an upload with no terminal a notification appears, then goes by itself")
    func notification() throws {
        try xvfb.putOnClipboard("hotkey text")
        let run = try launch(["--url", mock.url("/pastes/create")])
        try waitUntil("the notification", timeout: 20) { !pasteWindows().isEmpty }
        let result = try run.wait(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(pasteWindows().isEmpty)
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(try xvfb.clipboardText() == url)
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("hotkey text".utf8))
    }

    @Test("a failure at the hotkey is shown in a window too: an empty clipboard, an unreachable service")
    func failureWindow() throws {
        let empty = try launch(["-P", "--url", mock.url("/pastes/create")])
        try waitUntil("the failure notification", timeout: 20) { !pasteWindows().isEmpty }
        let emptyResult = try empty.wait(timeout: 30)
        #expect(emptyResult.status == 66)
        #expect(emptyResult.err == "paste: the primary selection is empty\n")

        try xvfb.putOnClipboard("kept at the hotkey")
        try paste.writeConfig("[paste]\nnotify-timeout = 1\nretries = 0\n")
        let refused = try launch(["--url", "http://127.0.0.1:9/pastes/create"])
        try waitUntil("the failure notification", timeout: 20) { !pasteWindows().isEmpty }
        let refusedResult = try refused.wait(timeout: 30)
        #expect(refusedResult.status == 75)
        #expect(try xvfb.clipboardText() == "kept at the hotkey")
        #expect(pasteWindows().isEmpty)
    }

    @Test("--prompt sends the typed title; Escape cancels with 130 and sends nothing")
    func prompt() throws {
        try xvfb.putOnClipboard("titled text")
        let typed = try launch(["-c", "--prompt", "--no-notify", "--url", mock.url("/pastes/create")])
        try waitForFocusedWindow()
        try xdotool("type", "--delay", "20", "Crash log ünïcode")
        try xdotool("key", "Return")
        let result = try typed.wait(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.posts().last?.field("paste[title]")?.text == "Crash log ünïcode")

        try mock.clearRequests()
        let cancelled = try launch(["-c", "--prompt", "--no-notify", "--url", mock.url("/pastes/create")])
        try waitForFocusedWindow()
        try xdotool("key", "Escape")
        let escaped = try cancelled.wait(timeout: 30)
        #expect(escaped.status == 130)
        #expect(try mock.posts().isEmpty)
    }

    @Test("--pick: Down, Down, Enter puts the third newest URL on the clipboard; Escape is 130")
    func pick() throws {
        var urls: [String] = []
        for number in 1...4 {
            let result = try paste.run(
                ["--url", mock.url("/pastes/create"), "--no-copy", "-t", "paste \(number)"], stdin: "text \(number)\n")
            #expect(result.status == 0, "stderr: \(result.err)")
            urls.append(result.out.trimmingCharacters(in: .newlines))
        }
        let picking = try launch(["--pick"])
        try waitForFocusedWindow()
        try xdotool("key", "Down", "Down", "Return")
        let result = try picking.wait(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.err)")
        // Newest first: urls[3], urls[2], urls[1] — two steps down is the third newest.
        #expect(result.out == urls[1] + "\n")
        #expect(try xvfb.clipboardText() == urls[1])

        let cancelled = try launch(["--pick"])
        try waitForFocusedWindow()
        try xdotool("key", "Escape")
        #expect(try cancelled.wait(timeout: 30).status == 130)
    }

    @Test("--pick follows the config: copy = false leaves the clipboard; a config error is shown in a window")
    func pickFollowsConfig() throws {
        let pasted = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy"], stdin: "picked text\n")
        #expect(pasted.status == 0, "stderr: \(pasted.err)")
        let url = pasted.out.trimmingCharacters(in: .newlines)
        try paste.writeConfig("[paste]\nnotify-timeout = 1\ncopy = false\n")
        try xvfb.putOnClipboard("left alone")
        let picking = try launch(["--pick"])
        try waitForFocusedWindow()
        try xdotool("key", "Return")
        let picked = try picking.wait(timeout: 30)
        #expect(picked.status == 0, "stderr: \(picked.err)")
        #expect(picked.out == url + "\n")
        #expect(try xvfb.clipboardText() == "left alone")

        // A broken config stops --pick before its picker, and the person is told in a toast.
        try paste.writeConfig("[paste]\nnotify = sometimes\n")
        let broken = try launch(["--pick"])
        try waitUntil("the failure notification", timeout: 20) { !pasteWindows().isEmpty }
        let refused = try broken.wait(timeout: 30)
        #expect(refused.status == 78)
        #expect(refused.err.contains("notify"))
        #expect(pasteWindows().isEmpty)
    }

    @Test("the secret guard's dialog blocks the upload until answered; Cancel is the default")
    func secretGuardDialog() throws {
        let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"
        try xvfb.putOnClipboard("deploy with token \(token)\n")
        let refused = try launch(["-c", "--notify", "--url", mock.url("/pastes/create")])
        try waitForFocusedWindow()
        #expect(try mock.posts().isEmpty)
        try xdotool("key", "Return")
        let cancelled = try refused.wait(timeout: 30)
        #expect(cancelled.status == 130)
        #expect(try mock.posts().isEmpty)
        #expect(try xvfb.clipboardText().hasPrefix("deploy with token"))

        let allowed = try launch(["-c", "--notify", "--url", mock.url("/pastes/create")])
        try waitForFocusedWindow()
        #expect(try mock.posts().isEmpty)
        // Buttons top to bottom: Upload anyway, Upload as private, Cancel (focused).
        try xdotool("key", "Up", "Up", "Return")
        let result = try allowed.wait(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.posts().count == 1)
    }
}

/// A child started in the background, waited for with a deadline.
final class Launched {
    let process = Process()
    let output: URL
    let errors: URL
    let done = DispatchSemaphore(value: 0)

    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)")
        errors = FileManager.default.temporaryDirectory.appendingPathComponent("err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        let done = done
        process.terminationHandler = { _ in done.signal() }
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: output)
        try? FileManager.default.removeItem(at: errors)
    }

    func wait(timeout: Double) throws -> ProcessResult {
        if done.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            throw ProcessTimedOut(command: process.arguments ?? [], seconds: timeout)
        }
        return ProcessResult(
            status: process.terminationStatus, stdout: (try? Data(contentsOf: output)) ?? Data(),
            stderr: (try? Data(contentsOf: errors)) ?? Data())
    }
}
