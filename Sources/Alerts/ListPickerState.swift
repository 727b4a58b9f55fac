internal import X11Interop

/// The list picker's state: filter, matching rows, selection and scroll position.
///
/// Rows stay in the order given (newest first). Typing filters: a row matches when every word of
/// the filter occurs in its primary or secondary text, ignoring case. The selection is a position
/// among the matches, and the scroll offset keeps it in view.
struct ListPickerState: Hashable, Sendable {
    /// All rows, as given.
    let rows: [PickRow]
    /// How many rows the window shows at once (at least 1).
    let visibleRowCount: Int
    /// What the person typed to filter.
    private(set) var filter = ""
    /// Indices into `rows` of the rows matching `filter`, in order.
    private(set) var matches: [Int]
    /// Position in `matches` of the selected row (0 when there are none).
    private(set) var selected = 0
    /// Position in `matches` of the first row shown.
    private(set) var scrollOffset = 0

    /// A picker over `rows` showing `visibleRowCount` of them at a time.
    init(rows: [PickRow], visibleRowCount: Int) {
        self.rows = rows
        self.visibleRowCount = max(1, visibleRowCount)
        matches = Array(rows.indices)
    }

    /// The index into `rows` of the selected row, if any row matches.
    var selectedRow: Int? { matches.isEmpty ? nil : matches[selected] }

    /// Positions in `matches` currently on screen.
    var visiblePositions: Range<Int> {
        scrollOffset..<min(matches.count, scrollOffset + visibleRowCount)
    }

    /// Handles a key: arrows, Page Up/Down, Home/End move; text and Backspace edit the filter;
    /// Enter picks the selected row; Escape cancels.
    mutating func handle(_ key: AlertKey) -> Step<Int> {
        switch key {
        case .up, .backTab: return moveSelection(to: selected - 1)
        case .down, .tab: return moveSelection(to: selected + 1)
        case .pageUp: return moveSelection(to: selected - visibleRowCount)
        case .pageDown: return moveSelection(to: selected + visibleRowCount)
        case .home: return moveSelection(to: 0)
        case .end: return moveSelection(to: matches.count - 1)
        case .text(let typed):
            setFilter(filter + typed)
            return .changed
        case .backspace:
            guard !filter.isEmpty else { return .unchanged }
            setFilter(String(filter.dropLast()))
            return .changed
        case .enter:
            guard let selectedRow else { return .unchanged }
            return .finished(selectedRow)
        case .escape: return .finished(nil)
        case .left, .right, .delete: return .unchanged
        }
    }

    /// Selects the match at `position` (clamped) and scrolls it into view.
    mutating func moveSelection(to position: Int) -> Step<Int> {
        guard !matches.isEmpty else { return .unchanged }
        let clamped = min(max(0, position), matches.count - 1)
        let before = (selected, scrollOffset)
        selected = clamped
        if selected < scrollOffset { scrollOffset = selected }
        if selected >= scrollOffset + visibleRowCount { scrollOffset = selected - visibleRowCount + 1 }
        return before == (selected, scrollOffset) ? .unchanged : .changed
    }

    /// Scrolls the list by `lines` rows (the wheel), leaving the selection where it is.
    mutating func scroll(by lines: Int) -> Step<Int> {
        let maximum = max(0, matches.count - visibleRowCount)
        let new = min(max(0, scrollOffset + lines), maximum)
        defer { scrollOffset = new }
        return new == scrollOffset ? .unchanged : .changed
    }

    /// The answer for a click on the `slot`-th visible row (0 = top), nil if that slot is empty.
    func rowIndex(atVisibleSlot slot: Int) -> Int? {
        let position = scrollOffset + slot
        guard slot >= 0, position < matches.count, slot < visibleRowCount else { return nil }
        return matches[position]
    }

    private mutating func setFilter(_ new: String) {
        filter = new
        let words = new.lowercased().split(separator: " ")
        matches = rows.indices.filter { index in
            let haystack = (rows[index].primary + " " + rows[index].secondary).lowercased()
            return words.allSatisfy { haystack.contains($0) }
        }
        selected = 0
        scrollOffset = 0
    }
}
