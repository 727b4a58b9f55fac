internal import X11Interop

/// The text field of the prompt: its text and cursor, edited by grapheme cluster.
///
/// The cursor is a UTF-8 offset kept on a grapheme boundary, so typing a combining accent after
/// "e" joins it and Backspace then removes "é" whole, as a person expects.
struct TextFieldState: Hashable, Sendable {
    /// The text typed so far.
    private(set) var text: String
    /// The cursor as a UTF-8 offset into `text`, always on a grapheme boundary.
    private(set) var cursorOffset: Int

    /// A field holding `initialText` with the cursor at its end.
    init(text initialText: String = "") {
        text = TextWrapping.sanitized(initialText)
        cursorOffset = text.utf8.count
    }

    /// The text before the cursor.
    var textBeforeCursor: Substring { text[..<cursorIndex] }

    private var cursorIndex: String.Index {
        text.utf8.index(text.utf8.startIndex, offsetBy: cursorOffset)
    }

    /// Inserts `typed` at the cursor (control characters dropped) and moves the cursor after it.
    mutating func insert(_ typed: String) {
        let clean = String(String.UnicodeScalarView(typed.unicodeScalars.filter { !Self.isControl($0) }))
        guard !clean.isEmpty else { return }
        text.insert(contentsOf: clean, at: cursorIndex)
        cursorOffset = boundary(atOrAfter: cursorOffset + clean.utf8.count)
    }

    /// Removes the grapheme before the cursor; returns false at the start.
    @discardableResult
    mutating func deleteBackward() -> Bool {
        guard let previous = previousBoundary() else { return false }
        text.removeSubrange(text.utf8.index(text.utf8.startIndex, offsetBy: previous)..<cursorIndex)
        cursorOffset = previous
        return true
    }

    /// Removes the grapheme after the cursor; returns false at the end.
    @discardableResult
    mutating func deleteForward() -> Bool {
        guard let next = nextBoundary() else { return false }
        text.removeSubrange(cursorIndex..<text.utf8.index(text.utf8.startIndex, offsetBy: next))
        return true
    }

    /// Moves the cursor one grapheme left; returns false at the start.
    @discardableResult
    mutating func moveLeft() -> Bool {
        guard let previous = previousBoundary() else { return false }
        cursorOffset = previous
        return true
    }

    /// Moves the cursor one grapheme right; returns false at the end.
    @discardableResult
    mutating func moveRight() -> Bool {
        guard let next = nextBoundary() else { return false }
        cursorOffset = next
        return true
    }

    /// Moves the cursor to the start; returns false when already there.
    @discardableResult
    mutating func moveToStart() -> Bool {
        defer { cursorOffset = 0 }
        return cursorOffset != 0
    }

    /// Moves the cursor to the end; returns false when already there.
    @discardableResult
    mutating func moveToEnd() -> Bool {
        defer { cursorOffset = text.utf8.count }
        return cursorOffset != text.utf8.count
    }

    /// Edits for a key: the prompt's key handling. Enter accepts the text, Escape cancels.
    mutating func handle(_ key: AlertKey) -> Step<String> {
        let changed: Bool
        switch key {
        case .text(let typed):
            let before = text
            insert(typed)
            changed = before != text
        case .backspace: changed = deleteBackward()
        case .delete: changed = deleteForward()
        case .left: changed = moveLeft()
        case .right: changed = moveRight()
        case .home, .up: changed = moveToStart()
        case .end, .down: changed = moveToEnd()
        case .enter: return .finished(text)
        case .escape: return .finished(nil)
        case .tab, .backTab, .pageUp, .pageDown: changed = false
        }
        return changed ? .changed : .unchanged
    }

    // MARK: - Grapheme boundaries as UTF-8 offsets

    private var boundaries: [Int] {
        var offsets: [Int] = []
        var index = text.startIndex
        while index < text.endIndex {
            offsets.append(text.utf8.distance(from: text.utf8.startIndex, to: index))
            index = text.index(after: index)
        }
        offsets.append(text.utf8.count)
        return offsets
    }

    private func previousBoundary() -> Int? {
        boundaries.last(where: { $0 < cursorOffset })
    }

    private func nextBoundary() -> Int? {
        boundaries.first(where: { $0 > cursorOffset })
    }

    private func boundary(atOrAfter offset: Int) -> Int {
        boundaries.first(where: { $0 >= offset }) ?? text.utf8.count
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
