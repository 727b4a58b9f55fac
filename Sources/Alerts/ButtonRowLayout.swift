internal import X11Interop

/// Buttons side by side, of equal width, left to right in the order given: a toast's actions.
struct ButtonRowLayout: Hashable, Sendable {
    /// Each button's rectangle, in order.
    let rects: [Rect]
    /// Each button's label, ellipsized to fit.
    let labels: [String]
    /// The row's height (0 without buttons).
    let height: Int
    private let baselineOffset: Int
    private let radius: Int
    private let innerPadding: Int

    init(labels: [String], x: Int, y: Int, width: Int, metrics: Metrics, measurer: any TextMeasuring) {
        let count = labels.count
        let buttonWidth = count == 0 ? 0 : (width - (count - 1) * metrics.gap) / count
        rects = (0..<count).map { index in
            Rect(x: x + index * (buttonWidth + metrics.gap), y: y, width: buttonWidth, height: metrics.buttonHeight)
        }
        let textWidth = buttonWidth - 2 * metrics.innerPadding
        self.labels = labels.map { label in
            TextWrapping.ellipsized(
                TextWrapping.sanitized(label), maxWidth: textWidth, measure: { measurer.width(of: $0, role: .body) })
        }
        height = count == 0 ? 0 : metrics.buttonHeight
        baselineOffset = (metrics.buttonHeight - measurer.lineHeight(role: .body)) / 2 + measurer.ascent(role: .body)
        radius = metrics.cornerRadius
        innerPadding = metrics.innerPadding
    }

    /// The button under `point`, if any.
    func button(at point: Point) -> Int? {
        rects.firstIndex(where: { $0.contains(point) })
    }

    /// Draws the row, labels centred.
    func commands(measurer: any TextMeasuring) -> [DrawCommand] {
        rects.indices.flatMap { index -> [DrawCommand] in
            let rect = rects[index]
            let label = labels[index]
            let x = rect.x + max(innerPadding, (rect.width - measurer.width(of: label, role: .body)) / 2)
            return [
                .fill(rect, Palette.button, radius: radius),
                .text(label, x: x, baseline: rect.y + baselineOffset, role: .body, color: Palette.text, clip: rect),
            ]
        }
    }
}
