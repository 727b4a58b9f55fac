import Foundation
import Testing
import TestSupport

/// paste's own card (the X window shown where no notification server answers) offers the same
/// actions as a desktop notification (issue 41, item 3): a click on it opens the URL, its
/// buttons copy the link again, delete the paste or retry, each ending in its outcome in the
/// same window. Clicked with xdotool under Xvfb (96 DPI: the card is 400 pixels wide, its
/// buttons share a row 33 pixels above its bottom edge).
@Suite(
    "paste's own card: a click opens, Copy link, Delete paste and Retry now within reach", .tags(.x11), .needsXServer,
    .xvfb, .temporaryHome, .mock, .serialized)
struct WindowCardActionTests: ScopedSuite {
    func tool(_ name: String, _ arguments: [String]) throws -> ProcessResult {
        try runProcess("/usr/bin/env", [name] + arguments, environment: xvfb.environment, timeout: 20)
    }

    /// The one visible window named exactly `name`, once it is there.
    func window(named name: String) throws -> String {
        var found: [String] = []
        try waitUntil("the '\(name)' card", timeout: 60) {
            let result = try? tool("xdotool", ["search", "--onlyvisible", "--name", "^\(name)$"])
            found = (result?.out ?? "").split(whereSeparator: \.isNewline).map(String.init)
            return found.count == 1
        }
        return found[0]
    }

    /// Clicks button `index` of `count` on the card `window`.
    func clickButton(_ index: Int, of count: Int, on window: String) throws {
        let geometry = try tool("xdotool", ["getwindowgeometry", "--shell", window]).out
        let height = try #require(
            geometry.split(separator: "\n").first { $0.hasPrefix("HEIGHT=") }.flatMap { Int($0.dropFirst(7)) })
        // accent 6 + padding 16 on the left, padding 16 on the right, gaps of 8.
        let left = 22
        let width = (400 - left - 16 - (count - 1) * 8) / count
        let x = left + index * (width + 8) + width / 2
        let click = try tool("xdotool", ["mousemove", "--window", window, "\(x)", "\(height - 33)", "click", "1"])
        #expect(click.status == 0, "xdotool: \(click.err)")
    }

    func launch(_ arguments: [String], config: String) throws -> (Launched, PasteRunner) {
        var paste = PasteRunner(home: home, display: xvfb.display)
        let bin = home.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try home.write(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" > \"\(openedFile(in: home).path)\"\n", to: "bin/xdg-open", mode: 0o755)
        paste.extraEnvironment["PATH"] = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
        // A long card: it stays until the test is done with it.
        try paste.writeConfig(config + "[paste]\nnotify-timeout = 60\n")
        let run = try Launched(BuiltProducts.path(of: "paste"), arguments, environment: paste.environment)
        return (run, paste)
    }

    @Test("a click on the card opens the URL, and closes it")
    func clickOpens() throws {
        try xvfb.putOnClipboard("open me from the card")
        let (run, _) = try launch(["--url", mock.url("/pastes/create")], config: "")
        let card = try window(named: "Copied")
        #expect(try tool("xdotool", ["mousemove", "--window", card, "30", "15", "click", "1"]).status == 0)
        let result = try run.wait(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        try waitUntil("xdg-open to write", timeout: 20) {
            (try? String(contentsOf: openedFile(in: home), encoding: .utf8)) == url + "\n"
        }
    }

    @Test("Copy link puts the URL back; Delete paste says 'Deleted' and takes the dead link off the clipboard")
    func copyThenDelete() throws {
        try xvfb.putOnClipboard("delete me from the card")
        let (run, paste) = try launch(["-S", "pinn"], config: HistoryEndToEndTests.config(mock))
        let card = try window(named: "Copied")
        let url = try #require(try mock.pastes().first.map { mock.url("/pastes/\($0.id)") })
        try waitUntil("the URL on the clipboard", timeout: 20) { (try? xvfb.clipboardText()) == url }
        try xvfb.putOnClipboard("something else")
        try clickButton(0, of: 2, on: card)
        try waitUntil("Copy link to copy it again", timeout: 20) { (try? xvfb.clipboardText()) == url }
        try clickButton(1, of: 2, on: card)
        #expect(try window(named: "Deleted") == card)
        try waitUntil("the paste to be deleted", timeout: 30) { (try? mock.pastes().isEmpty) == true }
        #expect(try xvfb.clipboardText() == "")
        #expect(try paste.historyLines().isEmpty)
        #expect(try tool("xdotool", ["mousemove", "--window", card, "30", "15", "click", "1"]).status == 0)
        let result = try run.wait(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.out == url + "\n")
    }

    @Test("Retry now on a failure's card: 'Copied' in the same window, the URL on the clipboard")
    func retryNow() throws {
        try xvfb.putOnClipboard("retry me from the card")
        try mock.addFault(.status(503), count: 1, path: "/pastes/create")
        let (run, paste) = try launch(["--url", mock.url("/pastes/create")], config: "[paste]\nretries = 0\n")
        let card = try window(named: "Paste failed")
        #expect(try paste.outboxIDs().count == 1)
        try clickButton(0, of: 1, on: card)
        #expect(try window(named: "Copied") == card)
        let made = try #require(try mock.pastes().first)
        let url = mock.url("/pastes/\(made.id)")
        try waitUntil("the URL on the clipboard", timeout: 20) { (try? xvfb.clipboardText()) == url }
        #expect(try paste.outboxIDs().isEmpty)
        #expect(try tool("xdotool", ["mousemove", "--window", card, "30", "15", "click", "3"]).status == 0)
        let result = try run.wait(timeout: 30)
        #expect(result.status == 75, "stderr: \(result.err)")
    }
}
