import Foundation
import PasteCore
import Testing
import TestSupport

@testable import PasteCLI

/// paste's outcomes as desktop notifications on a private session bus (no service folders, so
/// nothing installed is activated behind the test's back), with the recording server of the
/// fixtures: the exact Notify arguments, actions invoked through the bus after paste has
/// returned, the fallback when no server answers, and the guard's question.
@Suite("Desktop notifications: outcomes and actions on a private session bus", .temporaryHome, .mock)
struct DesktopNotificationTests: ScopedSuite {
    func runner(on bus: SessionBus, display: String? = nil) throws -> PasteRunner {
        try desktopRunner(home: home, bus: bus, display: display)
    }

    var opened: URL { openedFile(in: home) }

    /// The names (`/proc/PID/comm`, what `ps` shows) of the processes on `bus` started as
    /// paste's notifier (its hidden subcommand on the command line).
    func notifierNames(on bus: SessionBus) throws -> [String] {
        let processes = try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { Int($0) != nil }
        return processes.compactMap { pid -> String? in
            guard let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                String(decoding: environ, as: UTF8.self).contains("DBUS_SESSION_BUS_ADDRESS=\(bus.address)\u{0}"),
                let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                String(decoding: line, as: UTF8.self).contains("--internal-notifier"),
                let name = FileManager.default.contents(atPath: "/proc/\(pid)/comm")
            else { return nil }
            return String(decoding: name, as: UTF8.self).trimmingCharacters(in: .newlines)
        }
    }

    @Test("success: Pasted (--no-copy) and the URL, with default and copy; default opens it after paste returned")
    func successOpens() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try runner(on: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        let result = try paste.run(["--notify", "--no-copy"], stdin: "hello desktop\n")
        #expect(result.status == 0)
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        let notes = server.notifications
        try #require(notes.count == 1)
        let note = notes[0]
        #expect(note["app_name"] as? String == "paste")
        #expect(note["replaces_id"] as? Int == 0)
        #expect(note["summary"] as? String == "Pasted")
        #expect(note["body"] as? String == url)
        #expect(note["actions"] as? [String] == ["default", "Open", "copy", "Copy link"])
        // A card with actions stays long enough to use them (notify-timeout unset).
        #expect(note["expire_timeout"] as? Int == 60000)
        let hints = try #require(note["hints"] as? [String: Any])
        #expect(hints["urgency"] as? Int == 1)
        #expect(hints["desktop-entry"] as? String == "paste")
        // paste has returned; the notifier serves the action, named as ps shows it (not "exe").
        #expect(try notifierNames(on: bus) == ["paste-notifier"])
        try server.invoke("default", on: note["id"] as? Int ?? 0)
        try waitUntil("xdg-open to be run", timeout: 20) { FileManager.default.fileExists(atPath: opened.path) }
        try waitUntil("xdg-open to write", timeout: 20) {
            (try? String(contentsOf: opened, encoding: .utf8)) == url + "\n"
        }
    }

    @Test("a server without the actions capability gets no actions, and no promise of them")
    func noActionsCapability() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus, capabilities: ["body"])
        let paste = try runner(on: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        let result = try paste.run(["--notify", "--no-copy"], stdin: "no buttons\n")
        #expect(result.status == 0)
        #expect(result.err == "")
        let note = try #require(server.notifications.first)
        #expect(note["actions"] as? [String] == [])
        #expect(note["body"] as? String == result.out.trimmingCharacters(in: .newlines))
    }

    @Test("markup characters are escaped for a body-markup server")
    func markupEscaped() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus, capabilities: ["body", "body-markup"])
        let paste = try runner(on: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        try mock.addFault(.status(400, body: "bad <input> & more"), count: 1, path: "/pastes/create")
        let result = try paste.run(["--notify", "--no-copy"], stdin: "text\n")
        #expect(result.status != 0)
        let body = try #require(server.notifications.first?["body"] as? String)
        #expect(body.contains("bad &lt;input&gt; &amp; more"), "\(body)")
    }

    @Test("failure: Paste failed, the cause and the outbox entry; retry sends it after paste has returned")
    func failureRetries() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try runner(on: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        try mock.addFault(.status(503), count: 1, path: "/pastes/create")
        let result = try paste.run(["--notify", "--no-copy"], stdin: "retry me\n")
        #expect(result.status == 75, "stderr: \(result.err)")
        let id = try #require(try paste.outboxIDs().first)
        let notes = server.notifications
        try #require(notes.count == 1)
        #expect(notes[0]["summary"] as? String == "Paste failed")
        let body = try #require(notes[0]["body"] as? String)
        // The command is one word to line breaking, as in the window (no-break space).
        #expect(body.hasSuffix("\nThe text waits in the outbox (\(id)): paste\u{00A0}--retry sends it."), "\(body)")
        // A click on the card itself (the default action, all mako reaches) retries too.
        #expect(notes[0]["actions"] as? [String] == ["default", "Retry", "retry", "Retry now"])
        #expect(try mock.pastes().isEmpty)
        try server.invoke("retry", on: notes[0]["id"] as? Int ?? 0)
        try waitUntil("the retried paste", timeout: 30) { (try? mock.pastes().count) == 1 }
        #expect(try mock.pastes().first?.data == Data("retry me\n".utf8))
        try waitUntil("the outbox to empty", timeout: 30) { (try? paste.outboxIDs().isEmpty) == true }
    }

    @Test("a held text (a 500 after the body: the paste may exist) is not offered Retry now")
    func heldOffersNoRetry() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try runner(on: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        try mock.addFault(.status(500), count: 1, path: "/pastes/create")
        let result = try paste.run(["--notify", "--no-copy"], stdin: "maybe made\n")
        #expect(result.status == 69, "stderr: \(result.err)")
        #expect(try paste.outboxStates() == ["held"])
        let notes = server.notifications
        try #require(notes.count == 1)
        #expect(notes[0]["summary"] as? String == "Paste failed")
        #expect((notes[0]["actions"] as? [String] ?? []).isEmpty, "\(notes[0])")
    }

    @Test("delete is offered where history can delete the paste, and deletes it after paste has returned")
    func deleteAction() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try runner(on: bus)
        try paste.writeConfig(HistoryEndToEndTests.config(mock))
        let result = try paste.run(["--notify", "--no-copy", "-S", "pinn"], stdin: "delete me\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let note = try #require(server.notifications.first)
        #expect(
            note["actions"] as? [String] == ["default", "Open", "copy", "Copy link", "delete", "Delete paste"])
        #expect(try mock.pastes().count == 1)
        try server.invoke("delete", on: note["id"] as? Int ?? 0)
        try waitUntil("the paste to be deleted", timeout: 30) { (try? mock.pastes().isEmpty) == true }
        try waitUntil("its record to go", timeout: 30) { (try? paste.historyLines().isEmpty) == true }
    }

    @Test("no notification server on the bus: one stderr line at once, the status unchanged")
    func noServerFallsBack() throws {
        let bus = try SessionBus()
        let paste = try runner(on: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        let started = ContinuousClock.now
        let result = try paste.run(["--notify", "--no-copy"], stdin: "nobody listens\n")
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(result.status == 0)
        #expect(result.err == "paste: no desktop notification: no notification server on the session bus\n")
        #expect(pasteID(result.out) != nil)
    }

    @Test("no bus at the address: the same, naming it")
    func noBusFallsBack() throws {
        var paste = PasteRunner(home: home)
        paste.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/paste-bus"
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        let result = try paste.run(["--notify", "--no-copy"], stdin: "nobody listens\n")
        #expect(result.status == 0)
        #expect(
            result.err
                == "paste: no desktop notification: cannot connect to the session bus at 'unix:path=/nonexistent/paste-bus': "
                + "Failed to connect to socket /nonexistent/paste-bus: No such file or directory\n")
    }

    @Test("notify-style = window: no notification on the bus, and no window without X")
    func windowStyle() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try runner(on: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true) + "[paste]\nnotify-style = window\n")
        let result = try paste.run(["--notify", "--no-copy"], stdin: "windows only\n")
        #expect(result.status == 0)
        #expect(result.err == "")
        #expect(server.notifications.isEmpty)
    }

    // MARK: - The guard's question

    static let privateKey =
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
        + "-----END OPENSSH PRIVATE KEY-----\n"

    @Test("the guard asks through the bus: upload sends the text")
    func guardUpload() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus, answer: "upload")
        let paste = try runner(on: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        let result = try paste.run(["--notify", "--no-copy"], stdin: Self.privateKey)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.pastes().first?.data == Data(Self.privateKey.utf8))
        let question = try #require(server.notifications.first)
        #expect(question["summary"] as? String == "Upload this text?")
        #expect(
            question["body"] as? String
                == "This text looks like it holds a secret: private key (PEM) at line 1. Upload it to m?")
        // The service is public: masking comes first.
        #expect(
            question["actions"] as? [String]
                == ["redact", "Upload with secrets masked", "upload", "Upload anyway", "cancel", "Cancel"])
        #expect((question["hints"] as? [String: Any])?["urgency"] as? Int == 2)
        #expect(question["expire_timeout"] as? Int == 60000)
        #expect(server.notifications.count == 2)  // then "Copied"
    }

    @Test("the guard asks through the bus: redact, the first answer on a public service, sends the text masked")
    func guardRedact() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus, answer: "redact")
        let paste = try runner(on: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        let text = "before\n" + Self.privateKey + "after\n"
        let result = try paste.run(["--notify", "--no-copy"], stdin: text)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.pastes().first?.data == Data("before\n[redacted: private-key]\nafter\n".utf8))
        #expect(result.err == "paste: masked 1 secret in stdin: private-key at line 2, column 1\n")
        let question = try #require(server.notifications.first)
        #expect((question["actions"] as? [String])?.first == "redact")
        #expect(try paste.historyLines().allSatisfy { !$0.contains("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ") })
    }

    @Test("on a service that keeps its pastes private, masking is offered after Upload anyway")
    func guardRedactNotFirst() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus, answer: "cancel")
        let paste = try runner(on: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true, extra: "always-private = true\n"))
        let result = try paste.run(["--notify", "--no-copy"], stdin: Self.privateKey)
        #expect(result.status == 130)
        let question = try #require(server.notifications.first)
        #expect(
            question["actions"] as? [String]
                == ["upload", "Upload anyway", "redact", "Upload with secrets masked", "cancel", "Cancel"])
    }

    @Test("the guard's question names every finding: an access key id on line 1 and its secret on line 2")
    func guardNamesEveryFinding() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus, answer: "cancel")
        let paste = try runner(on: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        let result = try paste.run(["--notify", "--no-copy"], stdin: SecretQuestionTests.credentials)
        #expect(result.status == 130)
        #expect(result.err == "paste: cancelled; nothing was uploaded\n")
        #expect(try mock.posts().isEmpty)
        let question = try #require(server.notifications.first)
        #expect(
            question["body"] as? String
                == "This text looks like it holds 2 secrets: AWS access key id at line 1, "
                + "AWS secret access key at line 2. Upload it to m?")
    }

    @Test(
        "the guard asks through the bus: cancel, or the question closing unanswered, sends nothing (130)",
        arguments: [false, true])
    func guardCancel(expires: Bool) throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(
            on: bus, answer: expires ? nil : "cancel", expires: expires)
        let paste = try runner(on: bus)
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        let result = try paste.run(["--notify", "--no-copy"], stdin: Self.privateKey)
        #expect(result.status == 130)
        #expect(result.err == "paste: cancelled; nothing was uploaded\n")
        #expect(try mock.posts().isEmpty)
        #expect(server.notifications.count == 1)
    }

    // MARK: - Decisions

    @Test(
        "which way an outcome is shown",
        arguments: [
            (NotifyStyle.auto, true, true, false, false), (.auto, false, true, false, true),
            (.auto, false, false, false, false), (.window, false, true, false, false),
            (.desktop, true, true, false, true),
            (.desktop, true, false, false, false),
            // A Wayland session: the desktop's toast even with DISPLAY (issue 41, item 4).
            (.auto, true, true, true, true), (.auto, true, false, true, false), (.window, true, true, true, false),
        ])
    func route(style: NotifyStyle, hasDisplay: Bool, hasBus: Bool, isWayland: Bool, isDesktop: Bool) {
        var plan = RunPlan.Windows(isShown: true, displayName: hasDisplay ? ":9" : nil, notifyTimeout: .seconds(1))
        plan.style = style
        plan.busAddress = hasBus ? "unix:path=/bus" : nil
        plan.isWaylandSession = isWayland
        #expect(plan.usesDesktopNotifications == isDesktop)
    }
}

/// `paste` in `home` on `bus` (on `display`, or none), with a stand-in `xdg-open` first on PATH
/// that writes its arguments to `openedFile(in:)`.
func desktopRunner(home: TemporaryHome, bus: SessionBus, display: String? = nil) throws -> PasteRunner {
    var paste = PasteRunner(home: home, display: display)
    let bin = home.root.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try home.write(
        "#!/bin/sh\nprintf '%s\\n' \"$*\" > \"\(openedFile(in: home).path)\"\n", to: "bin/xdg-open", mode: 0o755)
    paste.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
    paste.extraEnvironment["PATH"] = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    return paste
}

/// Where the stand-in `xdg-open` writes what it was asked to open.
func openedFile(in home: TemporaryHome) -> URL { home.root.appendingPathComponent("opened") }

/// The same with an X server: `copy` checked with xclip, and dunst, a real notification server,
/// accepting the calls and invoking an action (`dunstctl action 0`).
@Suite(
    "Desktop notifications under Xvfb: copy after paste has returned; dunst", .tags(.x11), .needsXServer, .xvfb,
    .temporaryHome, .mock, .serialized)
struct DesktopNotificationX11Tests: ScopedSuite {
    @Test("copy puts the URL on the clipboard again, after another program took it")
    func copyAgain() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try desktopRunner(home: home, bus: bus, display: xvfb.display)
        try paste.writeConfig(pastieConfig(mock, isDefault: true) + "[paste]\nnotify-style = desktop\n")
        let result = try paste.run(["--notify"], stdin: "copy me\n")
        #expect(result.status == 0)
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(try xvfb.clipboardText() == url)
        #expect(server.notifications.first?["summary"] as? String == "Copied")
        try xvfb.putOnClipboard("something else")
        #expect(try xvfb.clipboardText() == "something else")
        let note = try #require(server.notifications.first)
        try server.invoke("copy", on: note["id"] as? Int ?? 0)
        try waitUntil("the URL on the clipboard again", timeout: 20) { (try? xvfb.clipboardText()) == url }
    }

    @Test("dunst shows the notification, and dunstctl action 0 opens the URL after paste has returned")
    func dunst() throws {
        let bus = try SessionBus()
        var environment = xvfb.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let config = try home.write("", to: "dunstrc")
        let dunst = try SpawnedProcess("/usr/bin/dunst", ["-config", config], environment: environment)
        defer {
            dunst.send(SIGKILL)
            _ = dunst.wait(seconds: 10)
        }
        try waitUntil("dunst to own org.freedesktop.Notifications", timeout: 20) {
            try #require(dunst.isRunning, "dunst exited")
            return
                (try? bus.send(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    method: "org.freedesktop.DBus.GetNameOwner", ["string:org.freedesktop.Notifications"])) != nil
        }
        let paste = try desktopRunner(home: home, bus: bus, display: xvfb.display)
        try paste.writeConfig(
            pastieConfig(mock, isDefault: true) + "[paste]\nnotify-style = desktop\nnotify-timeout = 60\n")
        let result = try paste.run(["--notify", "--no-copy"], stdin: "dunst shows me\n")
        #expect(result.status == 0)
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        func dunstctl(_ arguments: [String]) throws -> ProcessResult {
            try runProcess("/usr/bin/dunstctl", arguments, environment: environment, timeout: 20)
        }
        try waitUntil("dunst to show it", timeout: 20) {
            (try? dunstctl(["count", "displayed"]).out.trimmingCharacters(in: .whitespacesAndNewlines)) == "1"
        }
        #expect(try dunstctl(["action", "0"]).status == 0)
        let opened = openedFile(in: home)
        try waitUntil("xdg-open to write", timeout: 20) {
            (try? String(contentsOf: opened, encoding: .utf8)) == url + "\n"
        }
    }
}
