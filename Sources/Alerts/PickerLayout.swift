internal import X11Interop

/// The list picker: title, filter line, then rows of two lines; scrolls past a row limit.
///
/// The window's height follows the number of rows up to `Metrics.maximumVisibleRows`, and stays
/// fixed while filtering so the window does not jump.
struct PickerLayout {
    /// The window's size.
    let size: Size
    /// Rows shown at once.
    let visibleRowCount: Int
    /// The area holding the rows.
    let listRect: Rect
    /// Height of one row.
    let rowHeight: Int
    private let filterBaseline: Int
    private let staticCommands: [DrawCommand]
    private let metrics: Metrics

    /// Shown in the filter line before anything is typed.
    static let filterPlaceholder = "Type to filter · ↑↓ choose · Enter picks · Esc cancels"
    /// Shown in the list when no row matches.
    static let noMatches = "Nothing matches"

    init(title: String, rowCount: Int, metrics: Metrics, measurer: any TextMeasuring) {
        self.metrics = metrics
        let width = metrics.pickerWidth
        var column = Column(
            x: metrics.padding, y: metrics.padding, width: width - 2 * metrics.padding, measurer: measurer)
        let text = column.lines(TextWrapping.sanitized(title), role: .heading, color: Palette.text, wraps: false)
        column.skip(metrics.gap / 2)
        filterBaseline = column.y + measurer.ascent(role: .secondary)
        column.skip(measurer.lineHeight(role: .secondary) + metrics.gap)
        visibleRowCount = min(max(1, rowCount), metrics.maximumVisibleRows)
        rowHeight =
            2 * metrics.rowPadding + measurer.lineHeight(role: .body) + measurer.lineHeight(role: .secondary)
        listRect = Rect(x: column.x, y: column.y, width: column.width, height: visibleRowCount * rowHeight)
        size = Size(width: width, height: listRect.maxY + metrics.padding)
        staticCommands = surfaceCommands(size: size, metrics: metrics) + text
    }

    /// Where a press landed: a row slot inside the list, else nothing.
    func hitTest(_ point: Point) -> Hit {
        guard listRect.contains(point) else { return .nothing }
        return .row(slot: (point.y - listRect.y) / rowHeight)
    }

    /// Everything to draw for `state`.
    func commands(state: ListPickerState, measurer: any TextMeasuring) -> [DrawCommand] {
        var commands = staticCommands
        let filterLine = state.filter.isEmpty ? Self.filterPlaceholder : "Filter: " + state.filter
        commands.append(
            .text(
                TextWrapping.ellipsized(
                    TextWrapping.sanitized(filterLine), maxWidth: listRect.width,
                    measure: { measurer.width(of: $0, role: .secondary) }),
                x: listRect.x, baseline: filterBaseline, role: .secondary,
                color: state.filter.isEmpty ? Palette.secondaryText : Palette.focus, clip: nil))
        if state.matches.isEmpty {
            commands.append(
                .text(
                    Self.noMatches, x: listRect.x + metrics.innerPadding,
                    baseline: listRect.y + metrics.rowPadding + measurer.ascent(role: .body), role: .body,
                    color: Palette.secondaryText, clip: listRect))
            return commands
        }
        let isScrolling = state.matches.count > visibleRowCount
        let textWidth =
            listRect.width - 2 * metrics.innerPadding - (isScrolling ? metrics.scrollBarWidth + metrics.gap : 0)
        for (slot, position) in state.visiblePositions.enumerated() {
            let row = state.rows[state.matches[position]]
            let rect = Rect(
                x: listRect.x, y: listRect.y + slot * rowHeight, width: listRect.width, height: rowHeight)
            if position == state.selected {
                commands.append(.fill(rect, Palette.selectedRow, radius: metrics.cornerRadius))
            }
            let x = rect.x + metrics.innerPadding
            let primaryBaseline = rect.y + metrics.rowPadding + measurer.ascent(role: .body)
            let secondaryBaseline =
                rect.y + metrics.rowPadding + measurer.lineHeight(role: .body) + measurer.ascent(role: .secondary)
            commands.append(
                .text(
                    TextWrapping.ellipsized(
                        TextWrapping.sanitized(row.primary), maxWidth: textWidth,
                        measure: { measurer.width(of: $0, role: .body) }),
                    x: x, baseline: primaryBaseline, role: .body, color: Palette.text, clip: rect))
            if !row.secondary.isEmpty {
                commands.append(
                    .text(
                        TextWrapping.ellipsized(
                            TextWrapping.sanitized(row.secondary), maxWidth: textWidth,
                            measure: { measurer.width(of: $0, role: .secondary) }),
                        x: x, baseline: secondaryBaseline, role: .secondary, color: Palette.secondaryText,
                        clip: rect))
            }
        }
        if isScrolling {
            commands.append(scrollThumb(state: state))
        }
        return commands
    }

    /// The scroll bar thumb: its length is the visible share, its place the scroll position.
    func scrollThumb(state: ListPickerState) -> DrawCommand {
        let total = state.matches.count
        let trackHeight = listRect.height
        let thumbHeight = max(metrics.pixels(16), trackHeight * visibleRowCount / max(1, total))
        let maxOffset = max(1, total - visibleRowCount)
        let top = listRect.y + (trackHeight - thumbHeight) * state.scrollOffset / maxOffset
        let rect = Rect(
            x: listRect.maxX - metrics.scrollBarWidth, y: top, width: metrics.scrollBarWidth, height: thumbHeight)
        return .fill(rect, Palette.scrollThumb, radius: metrics.scrollBarWidth / 2)
    }
}
