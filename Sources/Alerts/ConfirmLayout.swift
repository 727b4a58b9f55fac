internal import X11Interop

/// The confirm dialog: a message, then its buttons stacked top to bottom (Cancel last).
struct ConfirmLayout {
    /// The window's size.
    let size: Size
    /// The buttons.
    let buttons: ButtonLayout
    private let staticCommands: [DrawCommand]

    /// Lines of message shown before the rest is cut (a confirm may explain more than a toast).
    static let maximumMessageLines = 12

    init(message: String, buttons labels: [String], metrics: Metrics, measurer: any TextMeasuring) {
        let width = metrics.dialogWidth
        var column = Column(
            x: metrics.padding, y: metrics.padding, width: width - 2 * metrics.padding, measurer: measurer)
        let text = column.lines(
            TextWrapping.sanitized(message, keepsNewlines: true), role: .body, color: Palette.text,
            maxLines: Self.maximumMessageLines)
        column.skip(metrics.padding)
        buttons = ButtonLayout(
            .stack,
            labels: labels, x: column.x, y: column.y, width: column.width, metrics: metrics, measurer: measurer)
        size = Size(width: width, height: column.y + buttons.height + metrics.padding)
        staticCommands = surfaceCommands(size: size, metrics: metrics) + text
    }

    /// Where a press landed.
    func hitTest(_ point: Point) -> Hit {
        buttons.button(at: point).map { .button($0) } ?? .nothing
    }

    /// Everything to draw with `state`'s focus.
    func commands(state: ButtonStackState, measurer: any TextMeasuring) -> [DrawCommand] {
        staticCommands + buttons.commands(focused: state.focused, measurer: measurer)
    }
}
