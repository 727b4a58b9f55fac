internal import X11Interop

/// Focus among vertically stacked buttons, top to bottom as given.
///
/// The last button is the safe one (Cancel) and has focus at first, so a stray Enter never does
/// anything irreversible. Up/Down move and stop at the ends; Tab/Shift+Tab cycle.
struct ButtonStackState: Hashable, Sendable {
    /// How many buttons there are (at least 1).
    let count: Int
    /// The focused button's index.
    private(set) var focused: Int

    /// Focus starts on the last (safe) button.
    init(count: Int) {
        precondition(count > 0, "a button stack needs a button")
        self.count = count
        focused = count - 1
    }

    /// Handles a key: moves focus, Enter chooses the focused button, Escape cancels.
    mutating func handle(_ key: AlertKey) -> Step<Int> {
        let target: Int
        switch key {
        case .up, .left: target = max(0, focused - 1)
        case .down, .right: target = min(count - 1, focused + 1)
        case .tab: target = (focused + 1) % count
        case .backTab: target = (focused + count - 1) % count
        case .home, .pageUp: target = 0
        case .end, .pageDown: target = count - 1
        case .enter: return .finished(focused)
        case .escape: return .finished(nil)
        case .text, .backspace, .delete: return .unchanged
        }
        defer { focused = target }
        return target == focused ? .unchanged : .changed
    }

    /// Moves focus to `index` (pointer hover); returns whether it changed.
    mutating func focus(_ index: Int) -> Step<Int> {
        guard (0..<count).contains(index), index != focused else { return .unchanged }
        focused = index
        return .changed
    }
}
