internal import X11Interop

/// One drawing step; layouts produce lists of these and the X side only executes them.
enum DrawCommand: Hashable, Sendable {
    /// Fill a rectangle, corners rounded by `radius`.
    case fill(Rect, Color, radius: Int)
    /// Draw one line of text from `x` on `baseline`, clipped to `clip` when given.
    case text(String, x: Int, baseline: Int, role: FontRole, color: Color, clip: Rect?)
    /// Fill the polygon through these points, anti-aliased.
    case polygon([Point], Color)
    /// Draw an image pixel for pixel with its top-left corner here, over what is drawn.
    case image(RGBAImage, at: Point)
}

/// Where a pointer press landed in a dialog.
enum Hit: Hashable, Sendable {
    /// On the stacked button with this index.
    case button(Int)
    /// On the picker row shown in this slot (0 = top visible row).
    case row(slot: Int)
    /// On the text field.
    case field
    /// Anywhere else.
    case nothing
}

/// Lays text out top to bottom inside a column, tracking the pen's y.
struct Column {
    let x: Int
    let width: Int
    private(set) var y: Int
    let measurer: any TextMeasuring

    init(x: Int, y: Int, width: Int, measurer: any TextMeasuring) {
        self.x = x
        self.y = y
        self.width = width
        self.measurer = measurer
    }

    /// Adds wrapped lines of `text` and returns their draw commands.
    mutating func lines(
        _ text: String, role: FontRole, color: Color, maxLines: Int = .max, wraps: Bool = true
    ) -> [DrawCommand] {
        let measurer = self.measurer
        let measure = { (line: String) in measurer.width(of: line, role: role) }
        let lines =
            wraps
            ? TextWrapping.lines(text, maxWidth: width, maxLines: maxLines, measure: measure)
            : [TextWrapping.ellipsized(text, maxWidth: width, measure: measure)]
        var commands: [DrawCommand] = []
        for line in lines {
            commands.append(
                .text(line, x: x, baseline: y + measurer.ascent(role: role), role: role, color: color, clip: nil))
            y += measurer.lineHeight(role: role)
        }
        return commands
    }

    /// Moves the pen down by `amount`.
    mutating func skip(_ amount: Int) { y += amount }
}

/// The window background: a border and the surface inside it.
func surfaceCommands(size: Size, metrics: Metrics) -> [DrawCommand] {
    let whole = Rect(x: 0, y: 0, width: size.width, height: size.height)
    return [
        .fill(whole, Palette.border, radius: 0),
        .fill(whole.insetBy(metrics.borderWidth), Palette.surface, radius: 0),
    ]
}
