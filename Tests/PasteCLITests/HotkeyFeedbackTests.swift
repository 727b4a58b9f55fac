import Foundation
import Testing
import TestSupport

/// Feedback at once at a hotkey (issue 25, item 5): whatever happens, a window is on screen; a
/// failure that is retried shows "Retrying…" while paste is still at work, before the outcome
/// (then the final word in the same window: `RetryingWindowTests`), never retries silently. How
/// soon after the press (within 1.5 s) is measured by `scripts/bench`'s first-window case, never
/// timed here.
@Suite(
    "At the hotkey: a window at once, whatever happens", .tags(.x11), .needsXServer, .xvfb, .temporaryHome,
    .mock, .serialized)
struct HotkeyFeedbackTests: ScopedSuite {
    init() throws {
        // The default retries (3), as a new user has them; a short toast keeps the tests quick.
        try paste.writeConfig("[paste]\nnotify-timeout = 0.5\n")
    }

    /// stderr without its `retrying in …` notes, and how many there were.
    func withoutRetryNotes(_ err: String) -> (text: String, retries: Int) {
        let lines = err.split(separator: "\n", omittingEmptySubsequences: false)
        let kept = lines.filter { !$0.hasPrefix("paste: retrying in ") }
        return (kept.joined(separator: "\n"), lines.count - kept.count)
    }

    func pasteWindows() -> [String] {
        let result = try? runProcess(
            "/usr/bin/env", ["xdotool", "search", "--onlyvisible", "--classname", "^paste$"],
            environment: xvfb.environment, timeout: 20)
        return (result?.out ?? "").split(whereSeparator: \.isNewline).map(String.init)
    }

    /// Launches paste at "the hotkey" for `url`; its first window's title, whether that window
    /// was on screen while paste was still at work (before the outcome), and how it ended.
    func firstWindow(url: String) throws -> (title: String, beforeEnd: Bool, result: ProcessResult) {
        try xvfb.putOnClipboard("pressed at the hotkey")
        let run = try Launched(BuiltProducts.path(of: "paste"), ["--url", url], environment: paste.environment)
        var first: String?
        try waitUntil("the first window", timeout: 30) {
            first = pasteWindows().first
            return first != nil
        }
        let beforeEnd = run.process.isRunning
        let name = try runProcess(
            "/usr/bin/env", ["xdotool", "getwindowname", try #require(first)], environment: xvfb.environment,
            timeout: 20)
        return (name.out.trimmingCharacters(in: .newlines), beforeEnd, try run.wait(timeout: 30))
    }

    @Test("success: the Copied window")
    func success() throws {
        let (_, _, result) = try firstWindow(url: mock.url("/pastes/create"))
        #expect(result.status == 0, "stderr: \(result.err)")
    }

    @Test("a refused connection: Retrying… before the outcome, three retries, then the text waits")
    func refused() throws {
        let port = try FaultRetryTests.freePort()
        try expectRetriedThenKept(
            try firstWindow(url: "http://127.0.0.1:\(port)/pastes/create"),
            failure: "cannot connect to 127.0.0.1:\(port): connection refused")
        #expect(try paste.outboxStates() == ["retryable"])
    }

    @Test("an unknown host (a .invalid name, never looked up outside): the window before the outcome")
    func unknownHost() throws {
        let (title, beforeEnd, result) = try firstWindow(url: "http://paste.invalid/pastes/create")
        #expect(result.status == 75)
        #expect(title == "Retrying…", "the first window: \(title)")
        #expect(beforeEnd, "the first window came only after paste had ended")
        #expect(
            withoutRetryNotes(result.err).text.hasPrefix("paste: cannot resolve host 'paste.invalid'"),
            "stderr: \(result.err)")
        #expect(try paste.outboxStates() == ["retryable"])
    }

    @Test("a dead host (the connection times out after 1.2 s): Retrying… before the outcome, then the text waits")
    func connectTimeout() throws {
        // A listener whose accept queue is full: the kernel drops further SYNs, so connecting
        // to it times out (nothing outside is reached).
        let script = """
            import socket, sys, time
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(0)
            fill = []
            for _ in range(2):
                c = socket.socket(); c.setblocking(False)
                try: c.connect(s.getsockname())
                except BlockingIOError: pass
                fill.append(c)
            print(s.getsockname()[1], flush=True)
            sys.stdin.read()
            """
        let toChild = Pipe()
        let fromChild = Pipe()
        let listener = try SpawnedProcess(
            "/usr/bin/python3", ["-c", script], standardInput: .handle(toChild.fileHandleForReading),
            standardOutput: .handle(fromChild.fileHandleForWriting))
        defer {
            try? toChild.fileHandleForWriting.close()
            _ = listener.wait(seconds: 10)
        }
        try? fromChild.fileHandleForWriting.close()
        let line = String(decoding: fromChild.fileHandleForReading.availableData, as: UTF8.self)
        let port = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)), "listener: \(line)")
        try expectRetriedThenKept(
            try firstWindow(url: "http://127.0.0.1:\(port)/pastes/create"),
            failure: "cannot connect to 127.0.0.1:\(port): timed out")
    }

    /// Checks a press whose upload failed each time and whose text was kept: 75, "Retrying…"
    /// as the first window, on screen while paste was still at work, three retry notes, then
    /// `failure` and the line naming the one outbox entry on stderr.
    func expectRetriedThenKept(
        _ press: (title: String, beforeEnd: Bool, result: ProcessResult), failure: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (title, beforeEnd, result) = press
        #expect(result.status == 75, sourceLocation: sourceLocation)
        #expect(title == "Retrying…", "the first window: \(title)", sourceLocation: sourceLocation)
        #expect(beforeEnd, "the first window came only after paste had ended", sourceLocation: sourceLocation)
        let id = try #require(try paste.outboxIDs().first, sourceLocation: sourceLocation)
        let err = withoutRetryNotes(result.err)
        #expect(err.retries == 3, "stderr: \(result.err)", sourceLocation: sourceLocation)
        #expect(
            err.text == "paste: " + failure + "\n" + keptLine(id: id, isHeld: false) + "\n", "stderr: \(result.err)",
            sourceLocation: sourceLocation)
    }
}
