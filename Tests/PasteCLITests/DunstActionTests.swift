import Foundation
import Testing
import TestSupport

/// dunst, a real notification server, on a private bus under Xvfb; stopped on `stop()`.
///
/// Its context menu (`dunstctl context`) runs the `dmenu` of its config: here a script that
/// picks the line of the label written by `choose` (dunst lists each action as
/// `#LABEL (SUMMARY) [ID,KEY]`), the way a person reaches the actions of a card.
final class Dunst: @unchecked Sendable {
    // Safe: every stored property is set once in init.
    private let process: SpawnedProcess
    let environment: [String: String]
    private let choice: URL

    /// Starts dunst with a config of its own and waits until it owns
    /// `org.freedesktop.Notifications` on `bus`.
    init(xvfb: Xvfb, bus: SessionBus, home: TemporaryHome) throws {
        choice = home.root.appendingPathComponent("dunst-choice")
        let picker = try home.write(
            "#!/bin/sh\nexec /usr/bin/grep -m1 -F -- \"$(cat '\(choice.path)')\"\n", to: "dunst-pick", mode: 0o755)
        let config = try home.write("[global]\n    dmenu = \(picker)\n", to: "dunstrc")
        var environment = xvfb.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        self.environment = environment
        process = try SpawnedProcess("/usr/bin/dunst", ["-config", config], environment: environment)
        let process = process
        do {
            try waitUntil("dunst to own org.freedesktop.Notifications", timeout: 20) {
                guard process.isRunning else { throw DesktopError(reason: "dunst exited") }
                return
                    (try? bus.send(
                        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                        method: "org.freedesktop.DBus.GetNameOwner", ["string:org.freedesktop.Notifications"])) != nil
            }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    func stop() {
        if process.isRunning {
            process.send(SIGKILL)
            _ = process.wait(seconds: 10)
        }
    }

    /// Runs `dunstctl ARGUMENTS` with a deadline.
    func control(_ arguments: [String]) throws -> ProcessResult {
        try runProcess("/usr/bin/dunstctl", arguments, environment: environment, timeout: 20)
    }

    /// How many notifications dunst shows now.
    func displayed() throws -> Int {
        Int(try control(["count", "displayed"]).out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The notifications dunst has closed, newest first, each as its fields' values.
    func history() throws -> [[String: Any]] {
        let listed = try control(["history"])
        guard let object = try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any],
            let data = object["data"] as? [[[String: Any]]]
        else { throw DesktopError(reason: "dunstctl history: \(listed.out)") }
        return (data.first ?? []).map { fields in fields.compactMapValues { ($0 as? [String: Any])?["data"] } }
    }

    /// Chooses the action labelled `label` through dunst's context menu.
    func choose(_ label: String) throws {
        try Data("#\(label) (".utf8).write(to: choice)
        #expect(try control(["context"]).status == 0)
    }

    /// Closes what it shows and returns the newest closed notification: what the card said last.
    func closeAndReadLast() throws -> [String: Any] {
        #expect(try control(["close-all"]).status == 0)
        try waitUntil("dunst to close it", timeout: 20) { try self.displayed() == 0 }
        return try #require(try history().first)
    }
}

/// The actions of issue 41, item 3, on dunst (it shows them in its context menu): Retry now,
/// Delete paste, Copy link after 30 s, and the answered question closing.
@Suite(
    "Actions a person can reach on dunst (Xvfb)", .tags(.x11), .needsXServer, .xvfb, .temporaryHome, .mock, .serialized)
struct DunstActionTests: ScopedSuite {
    func runner(on bus: SessionBus, config: String) throws -> PasteRunner {
        let paste = try desktopRunner(home: home, bus: bus, display: xvfb.display)
        try paste.writeConfig(config + "[paste]\nnotify-style = desktop\n")
        return paste
    }

    @Test("Retry now: the card says 'Copied' and the URL, which is on the clipboard")
    func retry() throws {
        let bus = try SessionBus()
        let dunst = try Dunst(xvfb: xvfb, bus: bus, home: home)
        let paste = try runner(on: bus, config: pastieConfig(mock, isDefault: true))
        try mock.addFault(.status(503), count: 1, path: "/pastes/create")
        let result = try paste.run(["--notify"], stdin: "retry on dunst\n")
        #expect(result.status == 75, "stderr: \(result.err)")
        try waitUntil("dunst to show it", timeout: 20) { try dunst.displayed() == 1 }
        try dunst.choose("Retry now")
        try waitUntil("the retried paste", timeout: 60) { (try? mock.pastes().count) == 1 }
        let made = try #require(try mock.pastes().first)
        let url = mock.url("/pastes/\(made.id)")
        try waitUntil("the URL on the clipboard", timeout: 30) { (try? xvfb.clipboardText()) == url }
        try waitUntil("one card, saying Copied", timeout: 20) { try dunst.displayed() == 1 }
        let last = try dunst.closeAndReadLast()
        #expect(last["summary"] as? String == "Copied")
        #expect(last["body"] as? String == url)
    }

    @Test("Delete paste: the card says 'Deleted', and the dead link is off the clipboard")
    func delete() throws {
        let bus = try SessionBus()
        let dunst = try Dunst(xvfb: xvfb, bus: bus, home: home)
        let paste = try runner(on: bus, config: HistoryEndToEndTests.config(mock))
        let result = try paste.run(["--notify", "-S", "pinn"], stdin: "delete on dunst\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(try xvfb.clipboardText() == url)
        try waitUntil("dunst to show it", timeout: 20) { try dunst.displayed() == 1 }
        try dunst.choose("Delete paste")
        try waitUntil("the paste to be deleted", timeout: 30) { (try? mock.pastes().isEmpty) == true }
        try waitUntil("the link off the clipboard", timeout: 30) { (try? xvfb.clipboardText()) == "" }
        try waitUntil("one card", timeout: 20) { try dunst.displayed() == 1 }
        let last = try dunst.closeAndReadLast()
        #expect(last["summary"] as? String == "Deleted")
        #expect(last["body"] as? String == url + "\nThe paste is gone, and its link is off the clipboard.")
    }

    @Test("the guard's question, answered in dunst's menu, is gone within a second")
    func questionCloses() throws {
        let bus = try SessionBus()
        let dunst = try Dunst(xvfb: xvfb, bus: bus, home: home)
        let paste = try runner(on: bus, config: pastieConfig(mock, isDefault: true))
        let run = try RunningPaste(paste, ["--notify", "--no-copy"], stdin: DesktopNotificationTests.privateKey)
        try waitUntil("dunst to show the question", timeout: 30) { try dunst.displayed() == 1 }
        try dunst.choose("Upload anyway")
        let answered = ContinuousClock.now
        try waitUntil("the question to be closed", timeout: 1) {
            try dunst.history().contains { $0["summary"] as? String == "Upload this text?" }
        }
        #expect(ContinuousClock.now - answered < .seconds(1))
        let result = try run.finish()
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.pastes().count == 1)
        // Only "Pasted" is left.
        try waitUntil("one card", timeout: 20) { try dunst.displayed() == 1 }
        #expect(try dunst.closeAndReadLast()["summary"] as? String == "Pasted")
    }

    @Test("Copy link still works 30 s after a success (real time)", .tags(.slow))
    func copyAfterThirtySeconds() throws {
        let bus = try SessionBus()
        let dunst = try Dunst(xvfb: xvfb, bus: bus, home: home)
        let paste = try runner(on: bus, config: pastieConfig(mock, isDefault: true))
        let result = try paste.run(["--notify"], stdin: "copy on dunst later\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        try xvfb.putOnClipboard("something newer")
        try holdsThroughout("the success card shown", seconds: 30) { try dunst.displayed() == 1 }
        try dunst.choose("Copy link")
        try waitUntil("the URL on the clipboard again", timeout: 20) { (try? xvfb.clipboardText()) == url }
    }
}
