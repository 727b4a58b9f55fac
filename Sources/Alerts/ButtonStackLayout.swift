internal import X11Interop

/// Buttons stacked vertically, full width, top to bottom in the order given.
struct ButtonStackLayout: Hashable, Sendable {
    /// Each button's rectangle, in order.
    let rects: [Rect]
    /// Each button's label, ellipsized to fit.
    let labels: [String]
    /// Total height of the stack.
    let height: Int
    private let baselineOffset: Int
    private let innerPadding: Int
    private let radius: Int

    init(labels: [String], x: Int, y: Int, width: Int, metrics: Metrics, measurer: any TextMeasuring) {
        var rects: [Rect] = []
        var top = y
        for _ in labels {
            rects.append(Rect(x: x, y: top, width: width, height: metrics.buttonHeight))
            top += metrics.buttonHeight + metrics.gap
        }
        self.rects = rects
        let textWidth = width - 2 * metrics.innerPadding
        self.labels = labels.map { label in
            TextWrapping.ellipsized(
                TextWrapping.sanitized(label), maxWidth: textWidth,
                measure: { measurer.width(of: $0, role: .body) })
        }
        height = labels.isEmpty ? 0 : top - metrics.gap - y
        let lineHeight = measurer.lineHeight(role: .body)
        baselineOffset = (metrics.buttonHeight - lineHeight) / 2 + measurer.ascent(role: .body)
        innerPadding = metrics.innerPadding
        radius = metrics.cornerRadius
    }

    /// The button under `point`, if any.
    func button(at point: Point) -> Int? {
        rects.firstIndex(where: { $0.contains(point) })
    }

    /// Draws the stack; the `focused` button is filled with the focus colour, labels centred.
    func commands(focused: Int?, measurer: any TextMeasuring) -> [DrawCommand] {
        var commands: [DrawCommand] = []
        for (index, rect) in rects.enumerated() {
            let isFocused = index == focused
            commands.append(.fill(rect, isFocused ? Palette.focus : Palette.button, radius: radius))
            let label = labels[index]
            let labelWidth = measurer.width(of: label, role: .body)
            let x = rect.x + max(innerPadding, (rect.width - labelWidth) / 2)
            commands.append(
                .text(
                    label, x: x, baseline: rect.y + baselineOffset, role: .body,
                    color: isFocused ? Palette.onFocus : Palette.text, clip: rect))
        }
        return commands
    }
}
