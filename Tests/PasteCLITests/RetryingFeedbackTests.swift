import Foundation
import Testing
import TestSupport

/// "Retrying…", then the final word in the same place (issue 25, item 5): at a hotkey, a first
/// attempt that fails and is retried puts "Retrying…" on screen at once (before the retry: the
/// first window paste shows says so), and the run's outcome then shows in that same window (its
/// X id kept, its title changed), or replaces that same desktop notification (`replaces_id`),
/// never in a second one. How soon after the press is measured by `scripts/bench`'s first-window
/// case (within 1.5 s), never timed here.
@Suite(
    "At the hotkey: Retrying…, then the final word in the same window", .tags(.x11), .needsXServer, .xvfb,
    .temporaryHome, .mock, .serialized)
struct RetryingWindowTests: ScopedSuite {
    /// The visible windows of paste, each with its title.
    func pasteWindows() -> [(id: String, title: String)] {
        let ids =
            (try? runProcess(
                "/usr/bin/env", ["xdotool", "search", "--onlyvisible", "--classname", "^paste$"],
                environment: xvfb.environment, timeout: 20))?.out.split(whereSeparator: \.isNewline).map(String.init)
            ?? []
        return ids.compactMap { id in
            guard
                let name = try? runProcess(
                    "/usr/bin/env", ["xdotool", "getwindowname", id], environment: xvfb.environment, timeout: 20),
                name.status == 0
            else { return nil }
            return (id, name.out.trimmingCharacters(in: .newlines))
        }
    }

    /// Launches paste at "the hotkey" for `url`; its first window's id and title, every (id,
    /// title) seen until it ended, and how it ended.
    func watch(url: String) throws -> (first: (id: String, title: String), seen: [String], result: ProcessResult) {
        try xvfb.putOnClipboard("pressed at the hotkey")
        let run = try Launched(BuiltProducts.path(of: "paste"), ["--url", url], environment: paste.environment)
        var first: (id: String, title: String)?
        try waitUntil("the first window", timeout: 30) {
            first = pasteWindows().first
            return first != nil
        }
        var seen: [String] = []
        try waitUntil("paste to end", timeout: 60) {
            for window in pasteWindows() where seen.last != "\(window.id) \(window.title)" {
                seen.append("\(window.id) \(window.title)")
            }
            return !run.process.isRunning
        }
        return (try #require(first), seen, try run.wait(timeout: 30))
    }

    @Test("a 503 once: Retrying… at the first failure, then Copied in the same window")
    func retriedThenCopied() throws {
        try paste.writeConfig("[paste]\nnotify-timeout = 1\n")
        try mock.addFault(.status(503, retryAfter: 1), path: "/pastes/create")
        let watched = try watch(url: mock.url("/pastes/create"))
        #expect(watched.result.status == 0, "stderr: \(watched.result.err)")
        #expect(watched.result.out == mock.url("/pastes/1") + "\n")
        #expect(watched.result.err == "paste: retrying in 1.0s (attempt 2 of 4)\n")
        #expect(watched.first.title == "Retrying…")
        let id = watched.first.id
        #expect(watched.seen.filter { !$0.hasPrefix(id + " ") }.isEmpty, "windows: \(watched.seen)")
        #expect(watched.seen.contains("\(id) Copied"), "windows: \(watched.seen)")
    }

    @Test("a refused connection, retries = 1: Retrying… at the first failure, then Paste failed in the same window")
    func retriedThenFailed() throws {
        try paste.writeConfig("[paste]\nnotify-timeout = 1\nretries = 1\n")
        let port = try FaultRetryTests.freePort()
        let watched = try watch(url: "http://127.0.0.1:\(port)/pastes/create")
        let id = try #require(try paste.outboxIDs().first)
        #expect(watched.result.status == 75)
        let delays = retryDelays(watched.result.err)
        #expect(delays.count == 1)
        #expect(
            watched.result.err
                == "paste: retrying in \(String(format: "%.1f", delays.first ?? 0))s (attempt 2 of 2)\n"
                + "paste: cannot connect to 127.0.0.1:\(port): connection refused\n" + keptLine(id: id, isHeld: false)
                + "\n")
        #expect(watched.first.title == "Retrying…")
        let window = watched.first.id
        #expect(watched.seen.filter { !$0.hasPrefix(window + " ") }.isEmpty, "windows: \(watched.seen)")
        #expect(watched.seen.contains("\(window) Paste failed"), "windows: \(watched.seen)")
    }
}

/// The same at a hotkey whose `notify-style` is desktop: "Retrying…" as a notification, then the
/// final one sent with its id as `replaces_id`.
@Suite("Desktop notifications: Retrying…, then the final word replaces it", .temporaryHome, .mock)
struct RetryingNotificationTests: ScopedSuite {
    @Test("a 503 once: Retrying… then Pasted, with replaces_id the Retrying… notification's id")
    func replaces() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try desktopRunner(home: home, bus: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true).replacing("retries = 0", with: "retries = 1"))
        try mock.addFault(.status(503, retryAfter: 1), path: "/pastes/create")
        let result = try paste.run(["--notify", "--no-copy"], stdin: "retried on the desktop\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "paste: retrying in 1.0s (attempt 2 of 2)\n")
        let url = result.out.trimmingCharacters(in: .newlines)
        let notes = server.notifications
        try #require(notes.count == 2, "notifications: \(notes)")
        #expect(notes[0]["summary"] as? String == "Retrying…")
        #expect(notes[0]["body"] as? String == "The service answered HTTP 503.\nTrying again (attempt 2 of 2).")
        #expect(notes[0]["replaces_id"] as? Int == 0)
        #expect(notes[0]["actions"] as? [String] == [])
        let first = try #require(notes[0]["id"] as? Int)
        #expect(notes[1]["summary"] as? String == "Pasted")
        #expect(notes[1]["body"] as? String == url)
        #expect(notes[1]["replaces_id"] as? Int == first)
    }

    @Test("two retries: the Retrying… notification follows stderr's attempt numbers in the same place")
    func followsAttempts() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try desktopRunner(home: home, bus: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true).replacing("retries = 0", with: "retries = 2"))
        try mock.addFault(.status(503, retryAfter: 1), count: 2, path: "/pastes/create")
        let result = try paste.run(["--notify", "--no-copy"], stdin: "retried twice\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(
            result.err == "paste: retrying in 1.0s (attempt 2 of 3)\npaste: retrying in 1.0s (attempt 3 of 3)\n")
        let notes = server.notifications
        try #require(notes.count == 3, "notifications: \(notes)")
        #expect(notes.map { $0["summary"] as? String } == ["Retrying…", "Retrying…", "Pasted"])
        #expect(notes[0]["body"] as? String == "The service answered HTTP 503.\nTrying again (attempt 2 of 3).")
        #expect(notes[1]["body"] as? String == "The service answered HTTP 503.\nTrying again (attempt 3 of 3).")
        let first = try #require(notes[0]["id"] as? Int)
        #expect(notes[1]["replaces_id"] as? Int == first)
        #expect(notes[2]["replaces_id"] as? Int == notes[1]["id"] as? Int)
    }
}
