internal import CX11

extension Display {
    /// The display name Xlib would open for nil: `$DISPLAY`, or nil when it is unset or empty.
    ///
    /// Wraps `XDisplayName(NULL)`, which reads the environment variable itself; the string it
    /// returns belongs to the C library and is copied here.
    public static var defaultName: String? {
        guard let name = XDisplayName(nil) else { return nil }
        let text = String(cString: name)
        return text.isEmpty ? nil : text
    }

    /// The DPI at which one layout unit is one pixel (X11's traditional default).
    public static let referenceDotsPerInch = 96.0
    private static let millimetresPerInch = 25.4

    /// Dots per inch that text is rendered at: the `Xft.dpi` resource when set (what desktop
    /// settings daemons publish), else the default screen's physical size, else 96.
    ///
    /// Wraps `XGetDefault("Xft", "dpi")` (its string belongs to Xlib: not freed),
    /// `XDisplayHeight` and `XDisplayHeightMM`.
    public var dotsPerInch: Double {
        if let value = XGetDefault(pointer, "Xft", "dpi"), let dpi = Double(String(cString: value)), dpi > 0 {
            return dpi
        }
        let screen = XDefaultScreen(pointer)
        let millimetres = Double(XDisplayHeightMM(pointer, screen))
        let pixels = Double(XDisplayHeight(pointer, screen))
        guard millimetres > 0 else { return Self.referenceDotsPerInch }
        let dpi = pixels * Self.millimetresPerInch / millimetres
        return (dpi.isFinite && dpi > 0) ? dpi : Self.referenceDotsPerInch
    }

    /// The default screen's area in root coordinates, where windows are placed.
    ///
    /// Without Xinerama/RandR this is the whole screen. Wraps `XDisplayWidth`/`XDisplayHeight`.
    public var screenFrame: Rect {
        let screen = XDefaultScreen(pointer)
        return Rect(
            x: 0, y: 0, width: Int(XDisplayWidth(pointer, screen)), height: Int(XDisplayHeight(pointer, screen)))
    }

    /// Where the pointer is, in root coordinates, or nil when it is on another screen.
    /// Wraps `XQueryPointer`.
    public func pointerLocation() -> Point? {
        var rootReturn: CX11.Window = 0
        var child: CX11.Window = 0
        var rootX: Int32 = 0
        var rootY: Int32 = 0
        var windowX: Int32 = 0
        var windowY: Int32 = 0
        var mask: UInt32 = 0
        guard
            XQueryPointer(
                pointer, XDefaultRootWindow(pointer), &rootReturn, &child, &rootX, &rootY, &windowX, &windowY, &mask)
                != 0
        else { return nil }
        return Point(x: Int(rootX), y: Int(rootY))
    }
}
