import Testing
import X11Interop

@testable import Alerts

/// Every character 8 px wide; lines 16 px high with the baseline 12 px down.
struct FixedWidthMeasurer: TextMeasuring {
    static let characterWidth = 8
    func width(of text: String, role: FontRole) -> Int { text.count * Self.characterWidth }
    func lineHeight(role: FontRole) -> Int { 16 }
    func ascent(role: FontRole) -> Int { 12 }
}

private func measure(_ text: String) -> Int { text.count * FixedWidthMeasurer.characterWidth }

@Suite("Text wrapping")
struct TextWrappingTests {
    @Test(
        "lines break at spaces and long words (URLs) break anywhere",
        arguments: [
            ("short", 80, ["short"]),
            ("two words", 40, ["two", "words"]),
            ("https://x.example/abcdef", 80, ["https://x.", "example/ab", "cdef"]),
            ("see https://x.example/abcdef now", 80, ["see", "https://x.", "example/ab", "cdef now"]),
            ("a\nb", 80, ["a", "b"]),
            ("", 80, [""]),
        ])
    func wrapping(text: String, width: Int, expected: [String]) {
        #expect(TextWrapping.lines(text, maxWidth: width, measure: measure) == expected)
    }

    @Test("no wrapped line is wider than the limit", arguments: [16, 24, 80, 200])
    func neverTooWide(width: Int) {
        let text = "https://pastie.example/pastes/123456789?with=query&and=more plus words"
        for line in TextWrapping.lines(text, maxWidth: width, measure: measure) {
            #expect(measure(line) <= width)
        }
    }

    @Test("past the line limit the last kept line ends in an ellipsis")
    func lineLimit() {
        let lines = TextWrapping.lines("aaaa bbbb cccc dddd", maxWidth: 32, maxLines: 2, measure: measure)
        #expect(lines == ["aaaa", "bbb…"])
    }

    @Test(
        "ellipsizing keeps text that fits and cuts text that does not",
        arguments: [("fits", 80, "fits"), ("does not fit here", 80, "does not…"), ("abc", 8, "…")])
    func ellipsis(text: String, width: Int, expected: String) {
        #expect(TextWrapping.ellipsized(text, maxWidth: width, measure: measure) == expected)
    }

    @Test(
        "control characters and bidi overrides are replaced; tabs become spaces",
        arguments: [
            ("a\tb", "a b"), ("a\u{1B}[31mb", "a\u{FFFD}[31mb"), ("x\u{202E}y", "x\u{FFFD}y"),
            ("line\nnext", "line\u{FFFD}next"),
        ])
    func sanitizing(raw: String, expected: String) {
        #expect(TextWrapping.sanitized(raw) == expected)
    }
}

@Suite("Text field editing")
struct TextFieldTests {
    @Test("typing inserts UTF-8 at the cursor and Backspace removes one grapheme")
    func typingAndBackspace() {
        var field = TextFieldState()
        for key: AlertKey in [.text("h"), .text("é"), .text("🇫🇷"), .text("ö")] { _ = field.handle(key) }
        #expect(field.text == "hé🇫🇷ö")
        #expect(field.handle(.backspace) == .changed)
        #expect(field.handle(.backspace) == .changed)
        #expect(field.text == "hé")
    }

    @Test("a combining accent joins the letter before it and leaves with it")
    func combining() {
        var field = TextFieldState(text: "cafe")
        field.insert("\u{301}")
        #expect(field.text == "café")
        #expect(field.text.count == 4)
        field.deleteBackward()
        #expect(field.text == "caf")
    }

    @Test(
        "cursor keys move by grapheme and edits happen at the cursor",
        arguments: [
            ([AlertKey.left, .text("X")], "ab🇫🇷Xc"),
            ([.home, .text("X")], "Xab🇫🇷c"),
            ([.left, .left, .backspace], "a🇫🇷c"),
            ([.home, .delete, .delete], "🇫🇷c"),
            ([.left, .left, .delete], "abc"),
            ([.home, .right, .right, .right, .text("-")], "ab🇫🇷-c"),
        ])
    func cursor(keys: [AlertKey], expected: String) {
        var field = TextFieldState(text: "ab🇫🇷c")
        for key in keys { _ = field.handle(key) }
        #expect(field.text == expected)
    }

    @Test("Enter gives the text, Escape gives nil, control characters are not inserted")
    func finishing() {
        var field = TextFieldState(text: "x")
        #expect(field.handle(.text("\u{7}")) == .unchanged)
        #expect(field.handle(.enter) == .finished("x"))
        #expect(field.handle(.escape) == .finished(nil))
    }

    @Test("Backspace at the start and Delete at the end change nothing")
    func edges() {
        var field = TextFieldState(text: "")
        #expect(field.handle(.backspace) == .unchanged)
        #expect(field.handle(.delete) == .unchanged)
    }
}

@Suite("List picker state")
struct ListPickerTests {
    let rows = (0..<20).map {
        PickRow(primary: "https://p.example/\($0)", secondary: $0 % 2 == 0 ? "pastie" : "termbin")
    }

    @Test(
        "keys move the selection and keep it in view (5 rows shown of 20)",
        arguments: [
            ([AlertKey.down, .down], 2, 0),
            ([.up], 0, 0),
            ([.pageDown], 5, 1),
            ([.pageDown, .pageDown], 10, 6),
            ([.end], 19, 15),
            ([.end, .home], 0, 0),
            ([.end, .pageUp], 14, 14),
            ([.down, .down, .down, .down, .down], 5, 1),
        ])
    func navigation(keys: [AlertKey], selected: Int, scroll: Int) {
        var state = ListPickerState(rows: rows, visibleRowCount: 5)
        for key in keys { _ = state.handle(key) }
        #expect(state.selected == selected)
        #expect(state.scrollOffset == scroll)
        #expect(state.visiblePositions.contains(state.selected))
    }

    @Test("Enter returns the index of the selected row; Escape returns nil")
    func finishing() {
        var state = ListPickerState(rows: rows, visibleRowCount: 5)
        _ = state.handle(.down)
        _ = state.handle(.down)
        #expect(state.handle(.enter) == .finished(2))
        #expect(state.handle(.escape) == .finished(nil))
    }

    @Test(
        "typing filters by every word, ignoring case; Backspace widens again",
        arguments: [
            ("TERMBIN", 10, 1), ("termbin 1", 6, 1), ("/1", 11, 1), ("nothing", 0, nil),
        ] as [(String, Int, Int?)])
    func filtering(filter: String, count: Int, first: Int?) {
        var state = ListPickerState(rows: rows, visibleRowCount: 5)
        _ = state.handle(.text(filter))
        #expect(state.matches.count == count)
        #expect(state.selectedRow == first)
        #expect(state.handle(.enter) == (first.map { .finished($0) } ?? .unchanged))
        for _ in filter { _ = state.handle(.backspace) }
        #expect(state.matches.count == rows.count)
    }

    @Test("the wheel scrolls within bounds and clicks map visible slots to row indices")
    func scrollingAndClicks() {
        var state = ListPickerState(rows: rows, visibleRowCount: 5)
        #expect(state.scroll(by: -3) == .unchanged)
        #expect(state.scroll(by: 100) == .changed)
        #expect(state.scrollOffset == 15)
        #expect(state.rowIndex(atVisibleSlot: 0) == 15)
        #expect(state.rowIndex(atVisibleSlot: 4) == 19)
        #expect(state.rowIndex(atVisibleSlot: 5) == nil)
    }
}

@Suite("Stacked buttons")
struct ButtonStackTests {
    @Test(
        "focus starts on the last (safe) button and keys move it",
        arguments: [
            ([AlertKey](), 2), ([.up], 1), ([.up, .up, .up], 0), ([.down], 2), ([.tab], 0),
            ([.backTab], 1), ([.home], 0), ([.home, .end], 2),
        ])
    func focus(keys: [AlertKey], focused: Int) {
        var state = ButtonStackState(count: 3)
        for key in keys { _ = state.handle(key) }
        #expect(state.focused == focused)
    }

    @Test("Enter chooses the focused button; Escape cancels")
    func finishing() {
        var state = ButtonStackState(count: 3)
        #expect(state.handle(.enter) == .finished(2))
        #expect(state.handle(.escape) == .finished(nil))
    }

    @Test("buttons stack top to bottom in the order given, full width, and clicks hit them")
    func layoutAndHits() {
        let metrics = Metrics(scale: 1)
        let layout = ConfirmLayout(
            message: "Upload it?", buttons: ["Upload", "Private", "Cancel"], metrics: metrics,
            measurer: FixedWidthMeasurer())
        let rects = layout.buttons.rects
        #expect(rects.count == 3)
        #expect(zip(rects, rects.dropFirst()).allSatisfy { $0.maxY + metrics.gap == $1.y })
        #expect(rects.allSatisfy { $0.width == metrics.dialogWidth - 2 * metrics.padding })
        #expect(rects[2].maxY + metrics.padding == layout.size.height)
        for (index, rect) in rects.enumerated() {
            #expect(layout.hitTest(Point(x: rect.x + 1, y: rect.y + 1)) == .button(index))
        }
        #expect(layout.hitTest(Point(x: 1, y: 1)) == .nothing)
        #expect(layout.hitTest(Point(x: rects[0].x, y: rects[0].maxY)) == .nothing)  // the gap
    }
}

@Suite("Window layouts")
struct WindowLayoutTests {
    let metrics = Metrics(scale: 1)
    let measurer = FixedWidthMeasurer()

    @Test(
        "the picker's height follows its rows up to the limit, then stays",
        arguments: [(0, 1), (1, 1), (3, 3), (8, 8), (9, 8), (100, 8)])
    func pickerHeight(rows: Int, visible: Int) {
        let layout = PickerLayout(title: "Pick", rowCount: rows, metrics: metrics, measurer: measurer)
        #expect(layout.visibleRowCount == visible)
        #expect(layout.listRect.height == visible * layout.rowHeight)
        #expect(layout.size.height == layout.listRect.maxY + metrics.padding)
    }

    @Test("a press in the picker list hits the row slot under it")
    func pickerHits() {
        let layout = PickerLayout(title: "Pick", rowCount: 5, metrics: metrics, measurer: measurer)
        let list = layout.listRect
        #expect(layout.hitTest(Point(x: list.x + 1, y: list.y)) == .row(slot: 0))
        #expect(layout.hitTest(Point(x: list.x + 1, y: list.y + 2 * layout.rowHeight + 1)) == .row(slot: 2))
        #expect(layout.hitTest(Point(x: list.x + 1, y: list.maxY)) == .nothing)
    }

    @Test("a notification's body wraps a long URL inside the window and shows the accent colour")
    func notification() {
        let url = "https://pastie.example/pastes/" + String(repeating: "x", count: 120)
        for style in [Alerts.Notification.Style.success, .failure] {
            let layout = NotificationLayout(
                .init(title: "Copied", body: url, style: style), metrics: metrics, measurer: measurer)
            #expect(layout.size.width == metrics.notificationWidth)
            var texts: [String] = []
            for case .text(let text, let x, _, _, _, _) in layout.commands {
                texts.append(text)
                #expect(x + measurer.width(of: text, role: .body) <= layout.size.width - metrics.padding)
            }
            #expect(texts.first == "Copied")
            #expect(texts.dropFirst().joined() == url)
            let accent = style == .success ? Palette.success : Palette.failure
            #expect(
                layout.commands.contains(
                    .fill(
                        Rect(x: 0, y: 0, width: metrics.accentWidth, height: layout.size.height), accent, radius: 0)))
        }
    }

    @Test("a toast's actions sit in one row under the text, equal widths, each hit where it is drawn")
    func notificationButtons() throws {
        let plain = NotificationLayout(
            .init(title: "Copied", body: "https://x.example/1", style: .success), metrics: metrics, measurer: measurer)
        #expect(plain.buttons.rects.isEmpty)
        var note = Alerts.Notification(title: "Copied", body: "https://x.example/1", style: .success)
        note.actions = ["Copy link", "Delete paste"]
        let layout = NotificationLayout(note, metrics: metrics, measurer: measurer)
        #expect(layout.size.height == plain.size.height + metrics.gap + metrics.buttonHeight)
        let rects = layout.buttons.rects
        try #require(rects.count == 2)
        #expect(rects[0].width == rects[1].width)
        #expect(rects[0].y == rects[1].y)
        #expect(rects[1].x == rects[0].maxX + metrics.gap)
        #expect(rects[1].maxX == layout.size.width - metrics.padding)
        #expect(rects[0].maxY == layout.size.height - metrics.padding)
        #expect(layout.buttons.button(at: Point(x: rects[1].x + 1, y: rects[1].y + 1)) == 1)
        #expect(layout.buttons.button(at: Point(x: rects[0].x + 1, y: rects[0].y + 1)) == 0)
        #expect(layout.buttons.button(at: Point(x: 30, y: 15)) == nil)
        let labels = layout.commands.compactMap { command -> String? in
            if case .text(let text, _, _, _, _, _) = command { return text }
            return nil
        }
        #expect(Array(labels.suffix(2)) == ["Copy link", "Delete paste"])
    }

    @Test("the prompt's text scrolls so the cursor stays inside the field")
    func promptScroll() throws {
        let layout = PromptLayout(title: "T", message: "M", metrics: metrics, measurer: measurer)
        let field = TextFieldState(text: String(repeating: "w", count: 200))
        let cursors = layout.commands(field: field, measurer: measurer).compactMap { command -> Rect? in
            if case .fill(let rect, Palette.text, 0) = command { return rect }
            return nil
        }
        let cursor = try #require(cursors.last)
        #expect(layout.fieldRect.contains(Point(x: cursor.x, y: cursor.y)))
        #expect(cursor.maxX <= layout.fieldRect.maxX)
        #expect(layout.hitTest(Point(x: layout.fieldRect.x + 1, y: layout.fieldRect.y + 1)) == .field)
        #expect(layout.hitTest(Point(x: layout.buttons.rects[1].x, y: layout.buttons.rects[1].y)) == .button(1))
    }

    @Test(
        "the scale follows the DPI, never below 1 and never above the limit",
        arguments: [(96.0, 1.0), (72, 1), (144, 1.5), (192, 2), (10_000, 4), (0, 1), (.nan, 1)])
    func scaling(dpi: Double, scale: Double) {
        #expect(Metrics(dotsPerInch: dpi).scale == scale)
    }

    @Test("notifications sit in the top-right corner, dialogs centred, both inside the monitor")
    func placement() {
        let monitor = Rect(x: 1920, y: 0, width: 1280, height: 800)
        let note = Placement.notificationFrame(size: Size(width: 400, height: 90), monitor: monitor, margin: 16)
        #expect(note == Rect(x: 1920 + 1280 - 16 - 400, y: 16, width: 400, height: 90))
        let dialog = Placement.dialogFrame(size: Size(width: 440, height: 2000), monitor: monitor, margin: 16)
        #expect(dialog.x == 1920 + (1280 - 440) / 2)
        #expect(dialog.height == 800 - 32)
        #expect(dialog.y >= monitor.y && dialog.maxY <= monitor.maxY)
        let monitors = [Rect(x: 0, y: 0, width: 1920, height: 1080), monitor]
        #expect(Placement.monitor(containing: Point(x: 2000, y: 10), among: monitors) == monitor)
        #expect(Placement.monitor(containing: Point(x: -5, y: 10), among: monitors) == monitors[0])
    }
}
