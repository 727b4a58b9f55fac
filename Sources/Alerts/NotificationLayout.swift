internal import X11Interop

/// The toast: an accent bar (green success, red failure), a bold title and the wrapped body,
/// with a thumbnail of an uploaded image (or its placeholder) between the bar and the text.
struct NotificationLayout {
    /// The window's size.
    let size: Size
    /// Everything to draw.
    let commands: [DrawCommand]
    /// The toast's buttons (`Alerts.Notification.actions`), under the text.
    let buttons: ButtonLayout

    init(_ note: Alerts.Notification, thumbnail: Thumbnail? = nil, metrics: Metrics, measurer: any TextMeasuring) {
        let width = metrics.notificationWidth
        let thumbnailBox = thumbnail.map { Self.box(of: $0, metrics: metrics) }
        let textX = thumbnailBox.map { $0.maxX + metrics.padding } ?? metrics.accentWidth + metrics.padding
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
        let textBottom = max(column.y, thumbnailBox?.maxY ?? 0)
        let buttonsX = metrics.accentWidth + metrics.padding
        buttons = ButtonLayout(
            .row,
            labels: note.actions, x: buttonsX, y: textBottom + metrics.gap, width: width - buttonsX - metrics.padding,
            metrics: metrics, measurer: measurer)
        let height = (note.actions.isEmpty ? textBottom : textBottom + metrics.gap + buttons.height) + metrics.padding
        size = Size(width: width, height: height)
        let accent = note.style == .success ? Palette.success : Palette.failure
        var commands =
            surfaceCommands(size: size, metrics: metrics)
            + [.fill(Rect(x: 0, y: 0, width: metrics.accentWidth, height: height), accent, radius: 0)]
        if let thumbnail {
            let frame = Self.frame(of: thumbnail, metrics: metrics)
            commands += Self.commands(for: thumbnail, in: frame, metrics: metrics, measurer: measurer)
        }
        self.commands = commands + text + buttons.commands(measurer: measurer)
    }

    /// Where `thumbnail` goes: right of the accent bar at the top padding; a picture centred in
    /// its `Metrics.thumbnailSide` square, a placeholder filling a `placeholderSide` one.
    static func frame(of thumbnail: Thumbnail, metrics: Metrics) -> Rect {
        let left = metrics.accentWidth + metrics.padding
        switch thumbnail {
        case .picture(let image):
            let side = metrics.thumbnailSide
            return Rect(
                x: left + (side - image.width) / 2, y: metrics.padding + (side - image.height) / 2,
                width: image.width, height: image.height)
        case .placeholder:
            return Rect(x: left, y: metrics.padding, width: metrics.placeholderSide, height: metrics.placeholderSide)
        }
    }

    /// The area a thumbnail reserves: its square, whatever the picture's own shape.
    static func box(of thumbnail: Thumbnail, metrics: Metrics) -> Rect {
        let side: Int =
            switch thumbnail {
            case .picture: metrics.thumbnailSide
            case .placeholder: metrics.placeholderSide
            }
        return Rect(x: metrics.accentWidth + metrics.padding, y: metrics.padding, width: side, height: side)
    }

    /// A picture framed by a hairline (its transparent parts show the surface), or the
    /// placeholder glyph.
    static func commands(
        for thumbnail: Thumbnail, in frame: Rect, metrics: Metrics, measurer: any TextMeasuring
    ) -> [DrawCommand] {
        switch thumbnail {
        case .picture(let image):
            let border = metrics.borderWidth
            let outer = Rect(
                x: frame.x - border, y: frame.y - border, width: frame.width + 2 * border,
                height: frame.height + 2 * border)
            return [
                .fill(outer, Palette.border, radius: 0), .fill(frame, Palette.surface, radius: 0),
                .image(image, at: Point(x: frame.x, y: frame.y)),
            ]
        case .placeholder(let label):
            return PlaceholderGlyph.commands(label: label, in: frame, metrics: metrics, measurer: measurer)
        }
    }
}
