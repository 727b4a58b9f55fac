internal import CX11
internal import CX11Shims
internal import CXft
internal import Glibc

/// One alert window on its own X connection: fonts, the window, its drawing surface and its input.
///
/// The alert windows run from a desktop hotkey, each as a short blocking call, so an
/// `AlertWindow` opens its own `Display` (`XOpenDisplay`) and closes it when released; nothing
/// here is shared with the clipboard's connection. Use it on one thread only (no `XInitThreads`).
///
/// Life cycle: `init` opens the display and the fonts (so text can be measured for layout), then
/// `show(frame:kind:title:)` creates and maps the window, then the caller draws with `fill`,
/// `drawText` and `present`, and reads input with `nextEvent(until:)`.
///
/// Owns, and releases in `deinit` in this order: the input context and method (`XDestroyIC`,
/// `XCloseIM`), the `XftDraw`, colours (`XftColorFree`), fonts (`XftFontClose`), the back buffer
/// (`XFreePixmap`), the GC (`XFreeGC`), the window (`XDestroyWindow`), and the display
/// (`XCloseDisplay`, which also drops any grab still held).
public final class AlertWindow {
    let display: OpaquePointer
    let screen: Int32
    let root: CX11.Window
    private let visual: UnsafeMutablePointer<Visual>
    private let colormap: Colormap
    private let depth: Int32
    private var fonts: [TextStyle: FontSet] = [:]
    private var colors: [DrawingColor: XftColor] = [:]

    var window: CX11.Window = 0
    private var backBuffer: Pixmap = 0
    private var graphics: GC?
    private var xftDraw: OpaquePointer?
    private var frame = DrawingRect(x: 0, y: 0, width: 0, height: 0)
    var inputMethod: XIM?
    var inputContext: XIC?
    var deleteWindowAtom: CX11.Atom = 0
    private var isGrabbingKeyboard = false

    /// Dots per inch the fonts are rendered at: the `Xft.dpi` resource, else the screen's size.
    public let dotsPerInch: Double

    /// The screen area of the monitor under the pointer, where windows are placed.
    ///
    /// Without Xinerama/RandR this is the whole screen (`XDisplayWidth`/`XDisplayHeight`).
    public let monitor: DrawingRect

    /// Opens `displayName` (or `$DISPLAY` when nil) and the fonts for each text style.
    ///
    /// Wraps `XOpenDisplay`, `XGetDefault("Xft", "dpi")`, `XQueryPointer` and `XftFontOpenName`.
    /// - Parameters:
    ///   - displayName: an X display such as `:0`; nil uses `$DISPLAY`.
    ///   - fontPatterns: a fontconfig pattern per style, e.g. `"sans-serif:size=11"`.
    /// - Throws: `.noDisplay`, `.cannotOpenDisplay`, `.fontUnavailable`.
    public init(displayName: String?, fontPatterns: [TextStyle: String]) throws(AlertWindowError) {
        if displayName == nil || displayName == "" {
            // XDisplayName(NULL) is what XOpenDisplay(NULL) would use: $DISPLAY.
            let name = XDisplayName(nil).map { String(cString: $0) } ?? ""
            if name.isEmpty { throw .noDisplay }
        }
        // Protocol errors are recorded rather than fatal, and a lost connection ends the process
        // cleanly (see CX11Shims), as for every Display.
        cx11_install_handlers()
        let opened: OpaquePointer? =
            if let displayName, !displayName.isEmpty {
                XOpenDisplay(displayName)
            } else {
                XOpenDisplay(nil)
            }
        guard let display = opened else {
            throw .cannotOpenDisplay(name: displayName ?? String(cString: XDisplayName(nil)))
        }
        self.display = display
        screen = XDefaultScreen(display)
        root = XRootWindow(display, screen)
        visual = XDefaultVisual(display, screen)
        colormap = XDefaultColormap(display, screen)
        depth = XDefaultDepth(display, screen)
        // Register RENDER's per-display record before Xft registers its own. XCloseDisplay runs
        // the close hooks newest first; Xft's hook frees its cached pictures and glyph sets
        // through RENDER, and if RENDER's hook had already run, that call re-creates RENDER's
        // record for a Display that is being freed. The next XOpenDisplay that malloc places at
        // the same address then finds the stale record and sends requests with another server's
        // opcodes (seen as BadRequest/BadLength at serial 7 when tests opened displays in turn).
        Self.registerRenderExtension(display)
        dotsPerInch = Self.readDotsPerInch(display: display, screen: screen)
        monitor = DrawingRect(
            x: 0, y: 0, width: Int(XDisplayWidth(display, screen)),
            height: Int(XDisplayHeight(display, screen)))
        do {
            for style in TextStyle.allCases {
                let pattern = fontPatterns[style] ?? "sans-serif:size=11"
                fonts[style] = try FontSet(display: display, screen: screen, pattern: pattern)
            }
        } catch {
            for font in fonts.values { font.close() }
            fonts.removeAll()
            XCloseDisplay(display)
            throw error
        }
    }

    deinit {
        if isGrabbingKeyboard { releaseKeyboard() }
        if let inputContext { XDestroyIC(inputContext) }
        if let inputMethod { XCloseIM(inputMethod) }
        if let xftDraw { XftDrawDestroy(xftDraw) }
        for var color in colors.values { XftColorFree(display, visual, colormap, &color) }
        for font in fonts.values { font.close() }
        if backBuffer != 0 { XFreePixmap(display, backBuffer) }
        if let graphics { XFreeGC(display, graphics) }
        if window != 0 { XDestroyWindow(display, window) }
        XCloseDisplay(display)
    }

    /// Calls `XRenderQueryExtension` (libXrender, linked through the CXft module map).
    private static func registerRenderExtension(_ display: OpaquePointer) {
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        _ = XRenderQueryExtension(display, &eventBase, &errorBase)
    }

    // MARK: - Screen facts

    /// The `Xft.dpi` resource when set (what desktop settings daemons publish), else the physical
    /// size of the screen, else 96.
    private static func readDotsPerInch(display: OpaquePointer, screen: Int32) -> Double {
        if let value = XGetDefault(display, "Xft", "dpi"),  // owned by Xlib: not freed
            let dpi = Double(String(cString: value)), dpi > 0
        {
            return dpi
        }
        let millimetres = Double(XDisplayHeightMM(display, screen))
        let pixels = Double(XDisplayHeight(display, screen))
        guard millimetres > 0 else { return referenceDotsPerInch }
        let dpi = pixels * millimetresPerInch / millimetres
        return (dpi.isFinite && dpi > 0) ? dpi : referenceDotsPerInch
    }

    /// The DPI at which one layout unit is one pixel (X11's traditional default).
    public static let referenceDotsPerInch = 96.0
    private static let millimetresPerInch = 25.4

    /// Where the pointer is, in root coordinates. Wraps `XQueryPointer`.
    public func pointerLocation() -> DrawingPoint {
        var rootReturn: CX11.Window = 0
        var child: CX11.Window = 0
        var rootX: Int32 = 0
        var rootY: Int32 = 0
        var windowX: Int32 = 0
        var windowY: Int32 = 0
        var mask: UInt32 = 0
        guard
            XQueryPointer(
                display, root, &rootReturn, &child, &rootX, &rootY, &windowX, &windowY, &mask) != 0
        else {
            return DrawingPoint(x: monitor.x + monitor.width / 2, y: monitor.y + monitor.height / 2)
        }
        return DrawingPoint(x: Int(rootX), y: Int(rootY))
    }

    // MARK: - Text metrics

    /// The advance width of `text` in `style`, fallback fonts included. Wraps `XftTextExtentsUtf8`.
    public func textWidth(_ text: String, style: TextStyle) -> Int {
        fontSet(style).width(of: text)
    }

    /// Pixels from the top of a line to its baseline in `style`.
    public func ascent(style: TextStyle) -> Int { fontSet(style).ascent }

    /// The height of one line of `style`.
    public func lineHeight(style: TextStyle) -> Int { fontSet(style).lineHeight }

    private func fontSet(_ style: TextStyle) -> FontSet {
        guard let set = fonts[style] else { preconditionFailure("every style is opened in init") }
        return set
    }

    // MARK: - CX11.Window

    /// How long `show` waits for the window to be mapped (a window manager may take a moment).
    private static let mapTimeout = Duration.seconds(5)

    /// Creates the window at `frame` (root coordinates), sets its properties and maps it.
    ///
    /// Properties (ICCCM §4.1.2, EWMH 1.5): `WM_NAME`/`WM_ICON_NAME`/`WM_CLASS` ("paste", "Paste"),
    /// `WM_NORMAL_HINTS` (user position, fixed size), `WM_HINTS` (input False for a notification,
    /// so it never takes focus), `WM_PROTOCOLS` (`WM_DELETE_WINDOW`), `_NET_WM_NAME` (UTF-8),
    /// `_NET_WM_WINDOW_TYPE` (`_NOTIFICATION` or `_DIALOG`), `_NET_WM_STATE` (`_ABOVE`, and for a
    /// notification `_SKIP_TASKBAR`/`_SKIP_PAGER`), `_NET_WM_PID`. Returns once `MapNotify`
    /// arrived. Wraps `XCreateWindow`, `Xutf8SetWMProperties`, `XChangeProperty`, `XMapRaised`.
    /// - Throws: `.notMapped` when no `MapNotify` came within a few seconds.
    public func show(
        frame: DrawingRect, kind: AlertWindowKind, title: String, background: DrawingColor
    ) throws(AlertWindowError) {
        precondition(window == 0, "show is called once")
        self.frame = frame
        var attributes = XSetWindowAttributes()
        attributes.background_pixel = color(background).pixel
        attributes.border_pixel = 0
        attributes.event_mask =
            ExposureMask | KeyPressMask | ButtonPressMask | ButtonReleaseMask | PointerMotionMask
            | StructureNotifyMask | FocusChangeMask
        window = XCreateWindow(
            display, root, Int32(clamping: frame.x), Int32(clamping: frame.y),
            UInt32(clamping: max(1, frame.width)), UInt32(clamping: max(1, frame.height)), 0, depth,
            UInt32(InputOutput), visual, UInt(CWBackPixel | CWBorderPixel | CWEventMask), &attributes)
        setProperties(kind: kind, title: title)
        graphics = XCreateGC(display, window, 0, nil)
        backBuffer = XCreatePixmap(
            display, window, UInt32(clamping: max(1, frame.width)),
            UInt32(clamping: max(1, frame.height)), UInt32(clamping: depth))
        xftDraw = XftDrawCreate(display, backBuffer, visual, colormap)
        if kind == .dialog { openInputContext() }
        XMapRaised(display, window)
        XFlush(display)
        try waitForMap(deadline: .now + Self.mapTimeout)
    }

    private func setProperties(kind: AlertWindowKind, title: String) {
        var sizeHints = XSizeHints()
        sizeHints.flags = USPosition | PPosition | PMinSize | PMaxSize
        sizeHints.x = Int32(clamping: frame.x)
        sizeHints.y = Int32(clamping: frame.y)
        sizeHints.min_width = Int32(clamping: frame.width)
        sizeHints.max_width = Int32(clamping: frame.width)
        sizeHints.min_height = Int32(clamping: frame.height)
        sizeHints.max_height = Int32(clamping: frame.height)
        var wmHints = XWMHints()
        wmHints.flags = InputHint | StateHint
        wmHints.input = kind == .dialog ? 1 : 0
        wmHints.initial_state = NormalState
        let instance = strdup("paste")
        let className = strdup("Paste")
        defer {
            free(instance)
            free(className)
        }
        var classHint = XClassHint(res_name: instance, res_class: className)
        Xutf8SetWMProperties(display, window, title, title, nil, 0, &sizeHints, &wmHints, &classHint)

        let utf8String = atom("UTF8_STRING")
        let titleBytes = Array(title.utf8)
        titleBytes.withUnsafeBufferPointer { buffer in
            _ = XChangeProperty(
                display, window, atom("_NET_WM_NAME"), utf8String, 8, PropModeReplace,
                buffer.baseAddress, Int32(clamping: buffer.count))
        }
        let type = atom(kind == .dialog ? "_NET_WM_WINDOW_TYPE_DIALOG" : "_NET_WM_WINDOW_TYPE_NOTIFICATION")
        setAtoms("_NET_WM_WINDOW_TYPE", [type])
        var states = [atom("_NET_WM_STATE_ABOVE")]
        if kind == .notification {
            states += [atom("_NET_WM_STATE_SKIP_TASKBAR"), atom("_NET_WM_STATE_SKIP_PAGER")]
        }
        setAtoms("_NET_WM_STATE", states)
        // Format-32 items are C `long` (8 bytes here), whatever the property's type.
        let pid = [Int(getpid())]
        let pidAtom = atom("_NET_WM_PID")
        let cardinal = atom("CARDINAL")
        pid.withUnsafeBytes { bytes in
            _ = XChangeProperty(
                display, window, pidAtom, cardinal, 32, PropModeReplace,
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
        }
        deleteWindowAtom = atom("WM_DELETE_WINDOW")
        var protocols = [deleteWindowAtom]
        XSetWMProtocols(display, window, &protocols, 1)
    }

    /// Wraps `XInternAtom`.
    func atom(_ name: String) -> CX11.Atom {
        XInternAtom(display, name, 0)
    }

    private func setAtoms(_ property: String, _ values: [CX11.Atom]) {
        // `CX11.Atom` is `unsigned long`: exactly the C `long` items of a format-32 property.
        values.withUnsafeBytes { bytes in
            _ = XChangeProperty(
                display, window, atom(property), atom("ATOM"), 32, PropModeReplace,
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(values.count))
        }
    }

    private func waitForMap(deadline: ContinuousClock.Instant) throws(AlertWindowError) {
        var event = XEvent()
        while true {
            // XCheckTypedWindowEvent leaves every other event (Expose, ...) queued for the caller.
            if XCheckTypedWindowEvent(display, window, MapNotify, &event) != 0 { return }
            guard try waitForInput(until: deadline) else { throw .notMapped }
        }
    }

    /// The window's X id, for tests and logs.
    public var windowID: UInt { UInt(window) }

    // MARK: - Keyboard grab

    /// How many times to try `XGrabKeyboard`, and the pause between tries: a launcher's hotkey
    /// daemon may hold the keyboard until the hotkey is released (dmenu's `grabkeyboard()` does
    /// the same 1000 × 1 ms).
    private static let grabAttempts = 1000
    private static let grabRetryPause = timespec(tv_sec: 0, tv_nsec: 1_000_000)

    /// Takes the keyboard for a modal dialog and gives the window input focus.
    ///
    /// Call `releaseKeyboard()` when done (the Alerts module does it in a `defer`); `deinit`
    /// releases it too. Wraps `XGrabKeyboard` and `XSetInputFocus`.
    /// - Throws: `.keyboardGrabFailed` with the last status.
    public func grabKeyboard() throws(AlertWindowError) {
        precondition(window != 0, "show the window first")
        var status: Int32 = 0
        for _ in 0..<Self.grabAttempts {
            // CurrentTime is acceptable for a grab (it is not a selection ownership, ICCCM §2.1).
            status = XGrabKeyboard(display, window, 1, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
            if status == GrabSuccess { break }
            var pause = Self.grabRetryPause
            nanosleep(&pause, nil)
        }
        guard status == GrabSuccess else { throw .keyboardGrabFailed(status: status) }
        isGrabbingKeyboard = true
        XSetInputFocus(display, window, RevertToParent, UInt(CurrentTime))
        if let inputContext { XSetICFocus(inputContext) }
        XFlush(display)
    }

    /// Gives the keyboard back. Wraps `XUngrabKeyboard`. Safe to call when not grabbing.
    public func releaseKeyboard() {
        guard isGrabbingKeyboard else { return }
        XUngrabKeyboard(display, UInt(CurrentTime))
        XFlush(display)
        isGrabbingKeyboard = false
    }

    // MARK: - Drawing (into a back buffer; `present` shows it)

    /// Fills `rect` (window coordinates) with `color`, its corners rounded by `cornerRadius`.
    ///
    /// Wraps `XFillRectangle` and `XFillArc` (core X has no anti-aliased shapes; a small radius
    /// still reads as rounded).
    public func fill(_ rect: DrawingRect, color fillColor: DrawingColor, cornerRadius: Int = 0) {
        guard let graphics, rect.width > 0, rect.height > 0 else { return }
        XSetForeground(display, graphics, color(fillColor).pixel)
        let radius = min(cornerRadius, rect.width / 2, rect.height / 2)
        if radius <= 0 {
            XFillRectangle(
                display, backBuffer, graphics, Int32(clamping: rect.x), Int32(clamping: rect.y),
                UInt32(clamping: rect.width), UInt32(clamping: rect.height))
            return
        }
        let diameter = radius * 2
        let rects = [
            DrawingRect(x: rect.x + radius, y: rect.y, width: rect.width - diameter, height: rect.height),
            DrawingRect(x: rect.x, y: rect.y + radius, width: rect.width, height: rect.height - diameter),
        ]
        for part in rects where part.width > 0 && part.height > 0 {
            XFillRectangle(
                display, backBuffer, graphics, Int32(clamping: part.x), Int32(clamping: part.y),
                UInt32(clamping: part.width), UInt32(clamping: part.height))
        }
        let corners = [
            (rect.x, rect.y), (rect.x + rect.width - diameter, rect.y),
            (rect.x, rect.y + rect.height - diameter),
            (rect.x + rect.width - diameter, rect.y + rect.height - diameter),
        ]
        for (cornerX, cornerY) in corners {
            XFillArc(
                display, backBuffer, graphics, Int32(clamping: cornerX), Int32(clamping: cornerY),
                UInt32(clamping: diameter), UInt32(clamping: diameter), 0, Self.fullCircle)
        }
    }

    /// A full circle in X's arc units (1/64 degree).
    private static let fullCircle: Int32 = 360 * 64

    /// Draws `text` with its left end at `x` and its baseline at `baseline`, clipped to `clip`.
    ///
    /// Wraps `XftDrawSetClipRectangles` and `XftDrawStringUtf8` (per font run, fallbacks included).
    public func drawText(
        _ text: String, x: Int, baseline: Int, style: TextStyle, color textColor: DrawingColor,
        clip: DrawingRect? = nil
    ) {
        guard let xftDraw else { return }
        if let clip {
            var rectangle = XRectangle(
                x: Int16(clamping: clip.x), y: Int16(clamping: clip.y),
                width: UInt16(clamping: clip.width), height: UInt16(clamping: clip.height))
            XftDrawSetClipRectangles(xftDraw, 0, 0, &rectangle, 1)
        }
        var xftColor = color(textColor)
        fontSet(style).draw(text, on: xftDraw, color: &xftColor, x: x, y: baseline)
        if clip != nil { XftDrawSetClip(xftDraw, nil) }
    }

    /// Copies the back buffer to the window and flushes. Wraps `XCopyArea` and `XFlush`.
    public func present() {
        guard let graphics else { return }
        XCopyArea(
            display, backBuffer, window, graphics, 0, 0, UInt32(clamping: frame.width),
            UInt32(clamping: frame.height), 0, 0)
        XFlush(display)
    }

    /// An allocated Xft colour, cached for the window's life. Wraps `XftColorAllocValue`.
    private func color(_ value: DrawingColor) -> XftColor {
        if let known = colors[value] { return known }
        // XRenderColor channels are 16-bit: 0xAB -> 0xABAB.
        var render = XRenderColor(
            red: UInt16(value.red) * 0x101, green: UInt16(value.green) * 0x101,
            blue: UInt16(value.blue) * 0x101, alpha: 0xFFFF)
        var allocated = XftColor()
        if XftColorAllocValue(display, visual, colormap, &render, &allocated) == 0 {
            // Out of colours on a palette visual: black is always there.
            allocated.pixel = XBlackPixel(display, screen)
            return allocated
        }
        colors[value] = allocated
        return allocated
    }
}

@available(*, unavailable)
extension AlertWindow: Sendable {}
