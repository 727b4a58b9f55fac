internal import X11Interop

/// Buttons in the order given, labels centred: side by side of equal width (`.row`, a toast's
/// actions) or stacked full width from the top (`.stack`, a prompt's or a confirm's choices).
struct ButtonLayout: Hashable, Sendable {
    /// How the buttons are laid out.
    enum Axis: Hashable, Sendable {
        /// Side by side, of equal width, left to right.
        case row
        /// Stacked, full width, top to bottom.
        case stack
    }

    /// Each button's rectangle, in order.
    let rects: [Rect]
    /// Each button's label, ellipsized to fit.
    let labels: [String]
    /// The height of all the buttons (0 without buttons).
    let height: Int
    private let baselineOffset: Int
    private let innerPadding: Int
    private let radius: Int

    init(
        _ axis: Axis, labels: [String], x: Int, y: Int, width: Int, metrics: Metrics, measurer: any TextMeasuring
    ) {
        let count = labels.count
        let buttonHeight = metrics.buttonHeight
        let buttonWidth: Int
        switch axis {
        case .row:
            buttonWidth = count == 0 ? 0 : (width - (count - 1) * metrics.gap) / count
            rects = (0..<count).map { index in
                Rect(x: x + index * (buttonWidth + metrics.gap), y: y, width: buttonWidth, height: buttonHeight)
            }
            height = count == 0 ? 0 : buttonHeight
        case .stack:
            buttonWidth = width
            rects = (0..<count).map { index in
                Rect(x: x, y: y + index * (buttonHeight + metrics.gap), width: width, height: buttonHeight)
            }
            height = count == 0 ? 0 : count * buttonHeight + (count - 1) * metrics.gap
        }
        let textWidth = buttonWidth - 2 * metrics.innerPadding
        self.labels = labels.map { label in
            TextWrapping.ellipsized(
                TextWrapping.sanitized(label), maxWidth: textWidth, measure: { measurer.width(of: $0, role: .body) })
        }
        baselineOffset = (buttonHeight - measurer.lineHeight(role: .body)) / 2 + measurer.ascent(role: .body)
        innerPadding = metrics.innerPadding
        radius = metrics.cornerRadius
    }

    /// The button under `point`, if any.
    func button(at point: Point) -> Int? {
        rects.firstIndex(where: { $0.contains(point) })
    }

    /// Draws the buttons; the `focused` one (if any) is filled with the focus colour.
    func commands(focused: Int? = nil, measurer: any TextMeasuring) -> [DrawCommand] {
        rects.indices.flatMap { index -> [DrawCommand] in
            let rect = rects[index]
            let label = labels[index]
            let isFocused = index == focused
            let x = rect.x + max(innerPadding, (rect.width - measurer.width(of: label, role: .body)) / 2)
            return [
                .fill(rect, isFocused ? Palette.focus : Palette.button, radius: radius),
                .text(
                    label, x: x, baseline: rect.y + baselineOffset, role: .body,
                    color: isFocused ? Palette.onFocus : Palette.text, clip: rect),
            ]
        }
    }
}
