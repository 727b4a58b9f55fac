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

    /// Captures window `id` with `xwd | convert` into `.build/screenshots/NAME.png`; returns the path.
    func screenshot(window id: String, name: String) throws -> String {
        let folder = SourceTree.root.appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("\(name).png").path
        // Arguments go positionally: the shell sees no value of ours in its script.
        let result = try tool("sh", ["-c", "xwd -silent -id \"$1\" | convert xwd:- \"png:$2\"", "sh", id, path])
        #expect(result.status == 0, "xwd | convert: \(result.err)")
        return path
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

    @Test("an image at the hotkey: uploaded, its URL copied, and the notification shows its thumbnail")
    func imageThumbnail() throws {
        // A long toast, so the screenshot is taken while it is up; a click then closes it.
        try paste.writeConfig(
            """
            [paste]
                notify-timeout = 60
                image-service = 0x0
            [service "0x0"]
                url = \(mock.url("/0x0/"))

            """)
        // 160 × 160: the left half red, the right half blue; shrunk to 80 × 80 beside the URL.
        let red: [UInt8] = [200, 20, 40]
        let blue: [UInt8] = [30, 60, 200]
        let png = try TestImages.make(
            ["-size", "160x160", "xc:rgb(200,20,40)", "-fill", "rgb(30,60,200)", "-draw", "rectangle 80,0 159,159"],
            as: "png")
        try xvfb.startXclip(Data(png), type: "image/png")
        let run = try launch(["--notify"])
        var window = ""
        try waitUntil("the notification", timeout: 20) {
            window = pasteWindows().first ?? ""
            return !window.isEmpty
        }
        let path = try screenshot(window: window, name: "hotkey-image-thumbnail")
        print("screenshot of the hotkey's notification with the image's thumbnail: \(path)")
        try xdotool("mousemove", "--window", window, "200", "5", "click", "1")
        let result = try run.wait(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(try xvfb.clipboardText() == url)
        #expect(try mock.fetch(url: url).body == Data(png))

        // The thumbnail sits left of the text, inside the accent stripe and the padding: its
        // left half red, its right half blue, none of it the window's surface.
        let shot = try RGBAFile(path: path)
        let surface: [UInt8] = [0xFA, 0xFA, 0xFB]
        let left = (x: 26, y: 20, width: 32, height: 72)
        let right = (x: 66, y: 20, width: 32, height: 72)
        #expect(shot.share(x: left.x, y: left.y, width: left.width, height: left.height, near: red) > 0.95)
        #expect(shot.share(x: right.x, y: right.y, width: right.width, height: right.height, near: blue) > 0.95)
        #expect(shot.share(x: 22, y: 16, width: 80, height: 80, near: surface) < 0.05, "the thumbnail is drawn")
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
        // "Copied" once the URL is on the clipboard, as after an upload.
        try waitUntil("the Copied notification", timeout: 20) {
            let found = try? tool("xdotool", ["search", "--onlyvisible", "--name", "^Copied$"])
            return !(found?.out ?? "").isEmpty
        }
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

    @Test("no service chosen: a window asks before the first public upload; nothing is sent before 'Upload once'")
    func consentWindow() throws {
        try paste.writeConfig("[paste]\nnotify-timeout = 1\n[service \"dpaste\"]\nurl = \(mock.url("/api/v2/"))\n")
        try xvfb.putOnClipboard("hotkey consent")
        let asked = try launch(["-c", "--notify"])
        try waitForFocusedWindow()
        #expect(try mock.requests().isEmpty)
        // Buttons top to bottom: Upload once, Always use dpaste, Choose another…, Cancel (focused).
        try xdotool("key", "Up", "Up", "Up", "Return")
        let result = try asked.wait(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.pastes().map(\.data) == [Data("hotkey consent".utf8)])

        // "Once" chose nothing: the next press asks again, and Escape sends nothing.
        try xvfb.putOnClipboard("not this one")
        let again = try launch(["-c", "--notify"])
        try waitForFocusedWindow()
        try xdotool("key", "Escape")
        let cancelled = try again.wait(timeout: 30)
        #expect(cancelled.status == 130)
        #expect(cancelled.err == "paste: cancelled; nothing was uploaded\n")
        #expect(try mock.pastes().count == 1)
        #expect(try xvfb.clipboardText() == "not this one")
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
        // Buttons top to bottom: Upload with secrets masked, Upload anyway, Upload as private,
        // Cancel (focused).
        try xdotool("key", "Up", "Up", "Return")
        let result = try allowed.wait(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.posts().count == 1)
        // Let go with a secret in it: the history keeps no preview of it (issue 16).
        let history = try paste.historyLines()
        #expect(history.count == 1)
        #expect(history.allSatisfy { !$0.contains("\"preview\"") && !$0.contains("ghp_") }, "\(history)")
    }

    @Test("the dialog's first button on a public service uploads the text with its secrets masked")
    func secretGuardDialogMasks() throws {
        let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"
        try xvfb.putOnClipboard("deploy with token \(token)\n")
        let masked = try launch(["-c", "--notify", "--url", mock.url("/pastes/create")])
        try waitForFocusedWindow()
        #expect(try mock.posts().isEmpty)
        // Buttons top to bottom: Upload with secrets masked (first), Upload anyway, Upload as
        // private, Cancel (focused).
        try xdotool("key", "Up", "Up", "Up", "Return")
        let result = try masked.wait(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.pastes().map(\.data) == [Data("deploy with token [redacted: github-token]\n".utf8)])
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(try xvfb.clipboardText() == url)
        let history = try paste.historyLines()
        #expect(history.count == 1)
        #expect(history.allSatisfy { !$0.contains("ghp_") && $0.contains("\"redacted\"") }, "\(history)")
    }
}

/// A child started in the background, waited for with a deadline.
final class Launched {
    let process: SpawnedProcess
    let command: [String]
    let output: URL
    let errors: URL

    init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)")
        errors = FileManager.default.temporaryDirectory.appendingPathComponent("err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        command = [executable] + arguments
        let out = try FileHandle(forWritingTo: output)
        let err = try FileHandle(forWritingTo: errors)
        process = try SpawnedProcess(
            executable, arguments, environment: environment, standardOutput: .handle(out), standardError: .handle(err))
        try? out.close()
        try? err.close()
    }

    deinit {
        process.send(SIGKILL)
        try? FileManager.default.removeItem(at: output)
        try? FileManager.default.removeItem(at: errors)
    }

    func wait(timeout: Double) throws -> ProcessResult {
        guard let status = process.wait(seconds: timeout) else {
            process.send(SIGKILL)
            throw ProcessTimedOut(command: command, seconds: timeout)
        }
        return ProcessResult(
            status: status, stdout: (try? Data(contentsOf: output)) ?? Data(),
            stderr: (try? Data(contentsOf: errors)) ?? Data())
    }
}

/// A screenshot's pixels as 8-bit RGBA, read with ImageMagick.
struct RGBAFile {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    init(path: String) throws {
        let size = try runProcess("/usr/bin/env", ["identify", "-format", "%w %h", path], timeout: 20)
        let numbers = size.out.split(separator: " ").compactMap { Int($0) }
        try #require(numbers.count == 2, "identify: \(size.out) \(size.err)")
        (width, height) = (numbers[0], numbers[1])
        let rgba = try runProcess("/usr/bin/env", ["convert", path, "-depth", "8", "rgba:-"], timeout: 20)
        try #require(rgba.status == 0 && rgba.stdout.count == width * height * 4, "convert: \(rgba.err)")
        pixels = [UInt8](rgba.stdout)
    }

    /// The share of the pixels in the rectangle whose red, green and blue are each within
    /// `tolerance` of `colour`.
    func share(x: Int, y: Int, width: Int, height: Int, near colour: [UInt8], tolerance: Int = 8) -> Double {
        var matching = 0
        for row in y..<min(y + height, self.height) {
            for column in x..<min(x + width, self.width) {
                let base = (row * self.width + column) * 4
                if (0..<3).allSatisfy({ abs(Int(pixels[base + $0]) - Int(colour[$0])) <= tolerance }) { matching += 1 }
            }
        }
        return Double(matching) / Double(width * height)
    }
}
