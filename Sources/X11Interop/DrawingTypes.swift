// Plain value types the alert drawing layer speaks in, so callers never see an X type.

/// A point in window pixels (origin at the top left, y grows downwards).
public struct DrawingPoint: Hashable, Sendable {
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

/// A rectangle in pixels: a window frame on the screen, or an area inside a window.
public struct DrawingRect: Hashable, Sendable {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width; never negative.
    public var width: Int
    /// Height; never negative.
    public var height: Int

    /// Makes a rectangle; negative sizes are clamped to zero.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }
}

/// An opaque 24-bit sRGB colour.
public struct DrawingColor: Hashable, Sendable {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8

    /// Makes a colour from its three channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Makes a colour from `0xRRGGBB`.
    public init(rgb: UInt32) {
        self.init(
            red: UInt8(truncatingIfNeeded: rgb >> 16), green: UInt8(truncatingIfNeeded: rgb >> 8),
            blue: UInt8(truncatingIfNeeded: rgb))
    }
}

/// The fonts an alert window opens once and draws with.
public enum TextStyle: CaseIterable, Hashable, Sendable {
    /// CX11.Window titles ("Copied").
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
