// Plain geometry for layout: the Alerts module does its sums in these, never in X types.

/// A point in window pixels (origin top left).
struct Point: Hashable, Sendable {
    var x: Int
    var y: Int
}

/// A width and a height in pixels.
struct Size: Hashable, Sendable {
    var width: Int
    var height: Int
}

/// A rectangle in pixels.
struct Rect: Hashable, Sendable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// The rectangle's bottom edge (exclusive).
    var maxY: Int { y + height }
    /// The rectangle's right edge (exclusive).
    var maxX: Int { x + width }

    /// True when `point` is inside (left/top edges inclusive, right/bottom exclusive).
    func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// This rectangle shrunk by `amount` on every side (never below zero size).
    func insetBy(_ amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: max(0, width - 2 * amount), height: max(0, height - 2 * amount))
    }
}

/// An opaque sRGB colour, `0xRRGGBB`.
struct Color: Hashable, Sendable {
    var rgb: UInt32
}
