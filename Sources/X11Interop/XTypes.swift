/// An X atom: a server-interned name (`XA_*`, `Atom` in Xlib).
public struct Atom: Hashable, Sendable, CustomStringConvertible {
    /// The server's number for the atom.
    public let rawValue: UInt
    /// Wraps a number received from the server.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The `None` atom (0): "no property" in selection replies.
    public static let none = Atom(rawValue: 0)
    /// Whether this is `None`.
    public var isNone: Bool { rawValue == 0 }
    public var description: String { "atom \(rawValue)" }
}

/// An X window id (`Window` in Xlib: an XID).
public struct Window: Hashable, Sendable, CustomStringConvertible {
    /// The server's number for the window.
    public let rawValue: UInt
    /// Wraps a number received from the server.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The `None` window (0).
    public static let none = Window(rawValue: 0)
    public var description: String { "window 0x\(String(rawValue, radix: 16))" }
}

/// An X server timestamp in milliseconds (`Time` in Xlib); wraps around every ~49.7 days.
public struct Timestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Milliseconds of server time.
    public let rawValue: UInt
    /// Wraps a number received from the server.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// `CurrentTime` (0). Only ever *compared against*: ICCCM §2.1 forbids using it to take ownership.
    public static let current = Timestamp(rawValue: 0)

    /// Server-time order, allowing for wrap-around (X timestamps are 32-bit and compared modulo 2³²).
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        let difference = UInt32(truncatingIfNeeded: rhs.rawValue &- lhs.rawValue)
        return difference != 0 && difference < 0x8000_0000
    }
    public var description: String { "time \(rawValue)" }
}

/// Which X events a client wants to hear about on a window (`XSelectInput` masks).
public struct EventMask: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `KeyPressMask`.
    public static let keyPress = EventMask(rawValue: 1 << 0)
    /// `KeyReleaseMask`.
    public static let keyRelease = EventMask(rawValue: 1 << 1)
    /// `ButtonPressMask`.
    public static let buttonPress = EventMask(rawValue: 1 << 2)
    /// `ButtonReleaseMask`.
    public static let buttonRelease = EventMask(rawValue: 1 << 3)
    /// `EnterWindowMask`.
    public static let enterWindow = EventMask(rawValue: 1 << 4)
    /// `LeaveWindowMask`.
    public static let leaveWindow = EventMask(rawValue: 1 << 5)
    /// `PointerMotionMask`.
    public static let pointerMotion = EventMask(rawValue: 1 << 6)
    /// `ExposureMask`.
    public static let exposure = EventMask(rawValue: 1 << 15)
    /// `StructureNotifyMask`: configure, map, unmap, destroy of the window itself.
    public static let structureNotify = EventMask(rawValue: 1 << 17)
    /// `FocusChangeMask`.
    public static let focusChange = EventMask(rawValue: 1 << 21)
    /// `PropertyChangeMask`: `PropertyNotify` for every property change on the window.
    public static let propertyChange = EventMask(rawValue: 1 << 22)
}
