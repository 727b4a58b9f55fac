import X11Interop

/// The toast: an accent bar (green success, red failure), a bold title and the wrapped body.
struct NotificationLayout {
    /// The window's size.
    let size: Size
    /// Everything to draw.
    let commands: [DrawCommand]

    init(_ note: Alerts.Notification, metrics: Metrics, measurer: any TextMeasuring) {
        let width = metrics.notificationWidth
        let textX = metrics.accentWidth + metrics.padding
        var column = Column(
            x: textX, y: metrics.padding, width: width - textX - metrics.padding, measurer: measurer)
        var text = column.lines(
            TextWrapping.sanitized(note.title), role: .heading, color: Palette.text, wraps: false)
        if !note.body.isEmpty {
            column.skip(metrics.gap / 2)
            text += column.lines(
                TextWrapping.sanitized(note.body, keepsNewlines: true), role: .body,
                color: Palette.secondaryText, maxLines: metrics.maximumBodyLines)
        }
        let height = column.y + metrics.padding
        size = Size(width: width, height: height)
        let accent = note.style == .success ? Palette.success : Palette.failure
        commands =
            surfaceCommands(size: size, metrics: metrics)
            + [.fill(Rect(x: 0, y: 0, width: metrics.accentWidth, height: height), accent, radius: 0)]
            + text
    }
}
