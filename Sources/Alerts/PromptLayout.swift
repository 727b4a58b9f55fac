internal import X11Interop

/// The prompt: title, message, a one-line text field, then OK above Cancel.
///
/// Keys always go to the field (Enter accepts, Escape cancels); the buttons are for the mouse.
struct PromptLayout {
    /// The window's size.
    let size: Size
    /// The text field's rectangle.
    let fieldRect: Rect
    /// The OK and Cancel buttons.
    let buttons: ButtonLayout
    private let staticCommands: [DrawCommand]
    private let metrics: Metrics

    /// Labels of the prompt's buttons: accept, then the safe cancel last.
    static let buttonLabels = ["OK", "Cancel"]

    init(title: String, message: String, metrics: Metrics, measurer: any TextMeasuring) {
        self.metrics = metrics
        let width = metrics.dialogWidth
        var column = Column(
            x: metrics.padding, y: metrics.padding, width: width - 2 * metrics.padding, measurer: measurer)
        var text = column.lines(TextWrapping.sanitized(title), role: .heading, color: Palette.text, wraps: false)
        if !message.isEmpty {
            column.skip(metrics.gap)
            text += column.lines(
                TextWrapping.sanitized(message, keepsNewlines: true), role: .body,
                color: Palette.secondaryText, maxLines: metrics.maximumBodyLines)
        }
        column.skip(metrics.gap + metrics.gap / 2)
        fieldRect = Rect(x: column.x, y: column.y, width: column.width, height: metrics.fieldHeight)
        column.skip(metrics.fieldHeight + metrics.padding)
        buttons = ButtonLayout(
            .stack,
            labels: Self.buttonLabels, x: column.x, y: column.y, width: column.width, metrics: metrics,
            measurer: measurer)
        size = Size(width: width, height: column.y + buttons.height + metrics.padding)
        staticCommands = surfaceCommands(size: size, metrics: metrics) + text
    }

    /// Where a press landed.
    func hitTest(_ point: Point) -> Hit {
        if let index = buttons.button(at: point) { return .button(index) }
        return fieldRect.contains(point) ? .field : .nothing
    }

    /// Everything to draw for the field's current text and cursor.
    ///
    /// When the text is wider than the field, it scrolls so the cursor stays visible.
    func commands(field: TextFieldState, measurer: any TextMeasuring) -> [DrawCommand] {
        let inner = Rect(
            x: fieldRect.x + metrics.innerPadding, y: fieldRect.y,
            width: fieldRect.width - 2 * metrics.innerPadding, height: fieldRect.height)
        let beforeCursor = measurer.width(of: String(field.textBeforeCursor), role: .body)
        let shift = max(0, beforeCursor - (inner.width - metrics.cursorWidth))
        let lineHeight = measurer.lineHeight(role: .body)
        let top = fieldRect.y + (fieldRect.height - lineHeight) / 2
        let cursor = Rect(x: inner.x + beforeCursor - shift, y: top, width: metrics.cursorWidth, height: lineHeight)
        return staticCommands + [
            .fill(fieldRect, Palette.focus, radius: metrics.cornerRadius),
            .fill(fieldRect.insetBy(metrics.pixels(2)), Palette.field, radius: metrics.cornerRadius),
            .text(
                field.text, x: inner.x - shift, baseline: top + measurer.ascent(role: .body), role: .body,
                color: Palette.text, clip: inner),
            .fill(cursor, Palette.text, radius: 0),
        ] + buttons.commands(focused: 0, measurer: measurer)
    }
}
