// Plain value types the alert windows speak in: the Alerts module lays its windows out in these
// and hands them to `AlertWindow` as they are, so no caller ever sees an X type.

/// A point in pixels (origin at the top left, y grows downwards): in a window, or on the screen.
public struct Point: Hashable, Sendable {
    /// Pixels from the left edge.
    public var x: Int
    /// Pixels from the top edge.
    public var y: Int

    /// Makes a point.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A width and a height in pixels.
public struct Size: Hashable, Sendable {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// Makes a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// A rectangle in pixels: a window frame on the screen, or an area inside a window.
///
/// Drawing an empty or negative-sized rectangle draws nothing.
public struct Rect: Hashable, Sendable {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width.
    public var width: Int
    /// Height.
    public var height: Int

    /// Makes a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle's bottom edge (exclusive).
    public var maxY: Int { y + height }
    /// The rectangle's right edge (exclusive).
    public var maxX: Int { x + width }

    /// True when `point` is inside (left/top edges inclusive, right/bottom exclusive).
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// This rectangle shrunk by `amount` on every side (never below zero size).
    public func insetBy(_ amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: max(0, width - 2 * amount), height: max(0, height - 2 * amount))
    }
}

/// An opaque 24-bit sRGB colour, `0xRRGGBB`.
public struct Color: Hashable, Sendable {
    /// The colour as `0xRRGGBB`.
    public var rgb: UInt32

    /// Makes a colour from `0xRRGGBB`.
    public init(rgb: UInt32) {
        self.rgb = rgb & 0xFF_FFFF
    }

    /// Red, 0–255.
    public var red: UInt8 { UInt8(truncatingIfNeeded: rgb >> 16) }
    /// Green, 0–255.
    public var green: UInt8 { UInt8(truncatingIfNeeded: rgb >> 8) }
    /// Blue, 0–255.
    public var blue: UInt8 { UInt8(truncatingIfNeeded: rgb) }
}

/// Which font a piece of text is set in; an alert window opens one font (with fallbacks) per role.
public enum FontRole: CaseIterable, Hashable, Sendable {
    /// Window titles ("Copied").
    case heading
    /// Messages, buttons, rows and the text field.
    case body
    /// Secondary lines ("service · 3 min ago") and hints.
    case secondary
}

/// What kind of window to map; decides the EWMH window type, focus and stacking hints.
public enum AlertWindowKind: Sendable {
    /// A toast: `_NET_WM_WINDOW_TYPE_NOTIFICATION`, never takes focus (`WM_HINTS.input = False`).
    case notification
    /// A modal dialog: `_NET_WM_WINDOW_TYPE_DIALOG`, takes focus and the keyboard grab.
    case dialog
}
