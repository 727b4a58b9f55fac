import Foundation
import Testing
import TestSupport

@testable import Alerts

/// The four windows on a real X server (Xvfb), driven by xdotool like a person at the keyboard.
///
/// Each test starts its own Xvfb; the blocking call runs on a background thread while the test
/// thread drives and observes it, waiting on conditions with deadlines.
@Suite("Alert windows under Xvfb", .tags(.x11), .needsXServer, .xvfb, .serialized)
struct AlertWindowTests: ScopedSuite {
    /// Layout sizes at the pinned 96 DPI (scale 1).
    let metrics = Metrics(dotsPerInch: Double(Xvfb.dotsPerInch))

    @Test("a notification appears, is drawn, and closes by itself after its timeout")
    func notificationTimesOut() throws {
        let display = xvfb.display
        let timeout = 1.5
        let started = ContinuousClock.now
        let call = BackgroundCall {
            try Alerts.notify(
                .init(
                    title: "Copied",
                    body: "https://pastie.example/pastes/123456789/a-very-long-path-that-has-to-wrap-somewhere",
                    style: .success, timeout: .milliseconds(Int(timeout * 1000))),
                displayName: display, app: .paste)
        }
        let window = try xvfb.waitForPasteWindow()
        let size = try xvfb.size(ofWindow: window)
        #expect(size.width == metrics.notificationWidth)
        let png = try xvfb.screenshot(window: window, name: "notification-success")
        #expect(try Screenshots.colourCount(of: png) > 2)
        #expect(try Screenshots.size(of: png) == size)
        try waitUntil("the notification to close", timeout: 10) { xvfb.visiblePasteWindows().isEmpty }
        try call.value()
        #expect(ContinuousClock.now - started >= .milliseconds(Int(timeout * 1000)))
    }

    @Test("a failure notification closes when clicked")
    func notificationClosesOnClick() throws {
        let display = xvfb.display
        let call = BackgroundCall {
            try Alerts.notify(
                .init(
                    title: "Upload failed", body: "pastie: HTTP 503 — the text waits in the outbox",
                    style: .failure, timeout: .seconds(60)),
                displayName: display, app: .paste)
        }
        let window = try xvfb.waitForPasteWindow()
        let png = try xvfb.screenshot(window: window, name: "notification-failure")
        #expect(try Screenshots.colourCount(of: png) > 2)
        try xvfb.xdotool("mousemove", "--window", window, "20", "20", "click", "1")
        try call.value(timeout: 10)
        #expect(xvfb.visiblePasteWindows().isEmpty)
    }

    @Test("the prompt returns the typed UTF-8 text on Enter")
    func promptReturnsTypedText() throws {
        let display = xvfb.display
        let call = BackgroundCall {
            try Alerts.prompt(
                title: "Title for this paste", message: "Shown above the paste.", displayName: display, app: .paste)
        }
        let window = try xvfb.waitForFocusedPasteWindow()
        #expect(try xvfb.size(ofWindow: window).width == metrics.dialogWidth)
        try xvfb.xdotool("type", "--delay", "15", "héllo wörld")
        let png = try xvfb.screenshot(window: window, name: "prompt")
        #expect(try Screenshots.colourCount(of: png) > 2)
        try xvfb.xdotool("key", "Return")
        #expect(try call.value() == "héllo wörld")
    }

    @Test("the prompt edits its initial text: Backspace removes a grapheme")
    func promptEditsInitialText() throws {
        let display = xvfb.display
        let call = BackgroundCall {
            try Alerts.prompt(title: "Title", message: "", initialText: "notes.txt", displayName: display, app: .paste)
        }
        _ = try xvfb.waitForFocusedPasteWindow()
        try xvfb.xdotool("key", "BackSpace", "BackSpace", "BackSpace", "BackSpace", "Return")
        #expect(try call.value() == "notes")
    }

    @Test("Escape cancels the prompt with nil")
    func promptEscapeCancels() throws {
        let display = xvfb.display
        let call = BackgroundCall {
            try Alerts.prompt(
                title: "Title", message: "Message", initialText: "draft", displayName: display, app: .paste)
        }
        _ = try xvfb.waitForFocusedPasteWindow()
        try xvfb.xdotool("key", "Escape")
        #expect(try call.value() == nil)
    }

    @Test("the picker returns index 2 after Down, Down, Enter")
    func pickerDownDownEnter() throws {
        let display = xvfb.display
        let rows = (0..<12).map {
            PickRow(primary: "https://pastie.example/pastes/\(1000 + $0)", secondary: "pastie · \($0 + 1) min ago")
        }
        let call = BackgroundCall {
            try Alerts.pick(title: "Recent pastes", rows: rows, displayName: display, app: .paste)
        }
        let window = try xvfb.waitForFocusedPasteWindow()
        let size = try xvfb.size(ofWindow: window)
        #expect(size.width == metrics.pickerWidth)
        try xvfb.xdotool("key", "Down", "Down")
        let png = try xvfb.screenshot(window: window, name: "picker")
        #expect(try Screenshots.colourCount(of: png) > 2)
        #expect(try Screenshots.size(of: png) == size)
        try xvfb.xdotool("key", "Return")
        #expect(try call.value() == 2)
    }

    @Test("typing filters the picker and Enter picks the first match; Escape gives nil")
    func pickerFilterAndEscape() throws {
        let display = xvfb.display
        let rows = [
            PickRow(primary: "https://a.example/1", secondary: "pastie · 1 min ago"),
            PickRow(primary: "https://b.example/2", secondary: "termbin · 2 min ago"),
            PickRow(primary: "https://c.example/3", secondary: "termbin · 3 min ago"),
        ]
        let filtered = BackgroundCall { try Alerts.pick(title: "Pick", rows: rows, displayName: display, app: .paste) }
        _ = try xvfb.waitForFocusedPasteWindow()
        try xvfb.xdotool("type", "--delay", "15", "termbin 3")
        try xvfb.xdotool("key", "Return")
        #expect(try filtered.value() == 2)

        let cancelled = BackgroundCall { try Alerts.pick(title: "Pick", rows: rows, displayName: display, app: .paste) }
        _ = try xvfb.waitForFocusedPasteWindow()
        try xvfb.xdotool("key", "Escape")
        #expect(try cancelled.value() == nil)
    }

    @Test("confirm chooses the last (safe) button on Enter, moves focus with Up, and Escape gives nil")
    func confirmDefaultsToSafeButton() throws {
        let display = xvfb.display
        let buttons = Self.buttons(["Upload anyway", "Upload to private paste", "Cancel"])
        let message = "The clipboard looks like a private key. Upload it anyway?"
        let safe = BackgroundCall {
            try Alerts.confirm(message: message, buttons: buttons, displayName: display, app: .paste)
        }
        let window = try xvfb.waitForFocusedPasteWindow()
        let png = try xvfb.screenshot(window: window, name: "confirm")
        #expect(try Screenshots.colourCount(of: png) > 2)
        try xvfb.xdotool("key", "Return")
        #expect(try safe.value() == 2)

        let moved = BackgroundCall {
            try Alerts.confirm(message: message, buttons: buttons, displayName: display, app: .paste)
        }
        _ = try xvfb.waitForFocusedPasteWindow()
        try xvfb.xdotool("key", "Up", "Up", "Return")
        #expect(try moved.value() == 0)

        let escaped = BackgroundCall {
            try Alerts.confirm(message: message, buttons: buttons, displayName: display, app: .paste)
        }
        _ = try xvfb.waitForFocusedPasteWindow()
        try xvfb.xdotool("key", "Escape")
        #expect(try escaped.value() == nil)
    }

    @Test("a click on a confirm button chooses it")
    func confirmClick() throws {
        let display = xvfb.display
        let buttons = Self.buttons(["Upload anyway", "Cancel"])
        let call = BackgroundCall {
            try Alerts.confirm(message: "Sure?", buttons: buttons, displayName: display, app: .paste)
        }
        let window = try xvfb.waitForFocusedPasteWindow()
        // Where the layout puts the first button, measured with a stand-in only for its x/y:
        // it sits below the message at the padding; click its middle-left area.
        let size = try xvfb.size(ofWindow: window)
        let firstButtonY =
            size.height - metrics.padding - 2 * metrics.buttonHeight - metrics.gap + metrics.buttonHeight / 2
        try xvfb.xdotool(
            "mousemove", "--window", window, String(metrics.padding + 10), String(firstButtonY), "click", "1")
        #expect(try call.value() == 0)
    }

    /// Buttons answering with their index, top to bottom.
    static func buttons(_ labels: [String]) -> [Alerts.Button<Int>] {
        labels.enumerated().map { Alerts.Button($0.element, answer: $0.offset) }
    }

    @Test("a bad display name is reported as cannotOpenDisplay")
    func badDisplay() {
        #expect(throws: AlertError.cannotOpenDisplay(name: ":987")) {
            try Alerts.notify(.init(title: "x", body: "y", style: .success), displayName: ":987", app: .paste)
        }
    }
}
