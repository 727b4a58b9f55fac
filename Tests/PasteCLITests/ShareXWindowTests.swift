import Foundation
import Testing
import TestSupport

/// ShareX's `{prompt:…}` and `{select:…}` as windows, driven with xdotool under a private Xvfb.
@Suite(
    "ShareX questions in windows", .tags(.x11), .needsXServer, .xvfb, .temporaryHome, .mock, .serialized)
struct ShareXWindowTests: ScopedSuite {
    let paste: PasteRunner
    let definition: String
    let input: String

    init() throws {
        let xvfb = Xvfb.current
        var runner = PasteRunner(home: TemporaryHome.current, display: xvfb.display)
        runner.extraEnvironment["XAUTHORITY"] = xvfb.environment["XAUTHORITY"]
        paste = runner
        definition = try paste.home.write(
            """
            {"Version": "15.0.0", "RequestURL": "\(MockServer.current.url("/sx/text"))", "Body": "MultipartFormData",
             "Arguments": {"title": "{prompt:Title of the paste|draft}", "where": "{select:alpha|beta}", "text": "{input}"},
             "URL": "{response}"}
            """, to: "ask.sxcu")
        input = try paste.home.write("asked text\n", to: "asked.txt")
    }

    func xdotool(_ arguments: String...) throws {
        let result = try runProcess("/usr/bin/env", ["xdotool"] + arguments, environment: xvfb.environment, timeout: 20)
        #expect(result.status == 0, "xdotool \(arguments): \(result.err)")
    }

    /// Waits until a paste window has the focus (a new one after `previous`).
    func waitForWindow(other previous: String? = nil) throws -> String {
        var focused = ""
        try waitUntil("a focused paste window", timeout: 20) {
            let windows =
                (try? runProcess(
                    "/usr/bin/env", ["xdotool", "search", "--onlyvisible", "--classname", "^paste$"],
                    environment: xvfb.environment, timeout: 20))?.out.split(whereSeparator: \.isNewline).map(
                    String.init) ?? []
            let focus =
                (try? runProcess(
                    "/usr/bin/env", ["xdotool", "getwindowfocus"], environment: xvfb.environment, timeout: 20))?.out
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            focused = focus
            return windows.contains(focus) && focus != previous
        }
        return focused
    }

    func launch() throws -> Launched {
        try Launched(
            BuiltProducts.path(of: "paste"), ["-S", definition, "-f", input, "--no-notify", "--no-copy"],
            environment: paste.environment)
    }

    @Test("the prompt's answer and the chosen button go into the request")
    func answered() throws {
        let run = try launch()
        let prompt = try waitForWindow()
        // The default text "draft" is there, the cursor after it: erase it, type another.
        try xdotool("key", "End", "BackSpace", "BackSpace", "BackSpace", "BackSpace", "BackSpace")
        try xdotool("type", "--delay", "20", "My title ünï")
        try xdotool("key", "Return")
        _ = try waitForWindow(other: prompt)
        // Buttons alpha, beta, Cancel; focus starts on Cancel.
        try xdotool("key", "Up", "Return")
        let result = try run.wait(timeout: 30)
        #expect(result.status == 0, "\(result.err)")
        let request = try #require(try mock.requests().first)
        #expect(request.field("title")?.text == "My title ünï")
        #expect(request.field("where")?.text == "beta")
        #expect(request.field("text")?.text == "asked text\n")
    }

    @Test("Escape at the prompt cancels with 130 and sends nothing")
    func cancelled() throws {
        let run = try launch()
        _ = try waitForWindow()
        try xdotool("key", "Escape")
        let result = try run.wait(timeout: 30)
        #expect(result.status == 130)
        #expect(result.err == "paste: cancelled; nothing was uploaded\n")
        #expect(try mock.requests().isEmpty)
    }
}
