internal import CX11
internal import CX11Shims
internal import CXft
internal import Glibc

/// One alert window on a `Display`: fonts, the window, its drawing surface and its input.
///
/// The alert windows run from a desktop hotkey, each as a short blocking call on the thread that
/// owns the `Display` (no `XInitThreads`). The window keeps its `Display` alive; closing the
/// display (when its last owner lets go) is the `Display`'s job.
///
/// Life cycle: `init` opens the fonts on the display (so text can be measured for layout), then
/// `show(frame:kind:title:background:)` creates and maps the window, then the caller draws with
/// `fill`, `fillPolygon`, `drawText`, `drawImage` and `present`, and reads input with
/// `nextEvent(until:)`.
///
/// Owns, and releases in `deinit` in this order: the keyboard grab (`XUngrabKeyboard`), the
/// input context and method (`XDestroyIC`, `XCloseIM`), the back buffer's RENDER picture
/// (`XRenderFreePicture`), the `XftDraw`, colours
/// (`XftColorFree`), fonts (`XftFontClose`), the back buffer (`XFreePixmap`), the GC
/// (`XFreeGC`) and the window (`XDestroyWindow`).
public final class AlertWindow {
    /// The connection the window lives on.
    public let display: Display
    let screen: Int32
    let root: CX11.Window
    private let visual: UnsafeMutablePointer<Visual>
    private let colormap: Colormap
    private let depth: Int32
    private var fonts: [FontRole: FontSet] = [:]
    private var colors: [Color: XftColor] = [:]

    var window: CX11.Window = 0
    private var backBuffer: Pixmap = 0
    private var graphics: GC?
    private var xftDraw: OpaquePointer?
    /// The back buffer as a RENDER picture (`XRenderCreatePicture`), made the first time
    /// `AlertWindow+Render` draws.
    var renderTarget: Picture = 0
    private var frame = Rect(x: 0, y: 0, width: 0, height: 0)
    var inputMethod: XIM?
    var inputContext: XIC?
    var deleteWindowAtom: CX11.Atom = 0
    private var isGrabbingKeyboard = false
    /// `WM_CLASS`'s instance and class names (ICCCM §4.1.2.5), from the caller: the application's
    /// identity, which window managers match rules on.
    private let instanceName: String
    private let className: String

    /// The Xlib handle of `display`.
    var xDisplay: OpaquePointer { display.pointer }

    /// Opens the connection an alert uses: `name`, or `$DISPLAY` when nil or empty.
    ///
    /// Wraps `Display(name:)` (`XOpenDisplay`), translating its failure.
    /// - Throws: `.noDisplay` when no name is given and `$DISPLAY` is unset or empty;
    ///   `.cannotOpenDisplay` when the server cannot be reached.
    public static func openDisplay(named name: String?) throws(AlertWindowError) -> Display {
        guard let resolved = (name?.isEmpty == false ? name : nil) ?? Display.defaultName else { throw .noDisplay }
        do {
            return try Display(name: resolved)
        } catch {
            throw .cannotOpenDisplay(name: resolved)
        }
    }

    /// Opens the fonts for each role on `display`.
    ///
    /// Wraps `XRenderQueryExtension` and `XftFontOpenName`.
    /// - Parameters:
    ///   - display: an open connection; the window keeps it alive.
    ///   - fontPatterns: a fontconfig pattern per role, e.g. `"sans-serif:size=11"`.
    ///   - instanceName: `WM_CLASS`'s instance name (`res_name`), e.g. `"paste"`.
    ///   - className: `WM_CLASS`'s class name (`res_class`), e.g. `"Paste"`.
    /// - Throws: `.fontUnavailable`.
    public init(
        display: Display, fontPatterns: [FontRole: String], instanceName: String, className: String
    ) throws(AlertWindowError) {
        self.display = display
        self.instanceName = instanceName
        self.className = className
        let pointer = display.pointer
        screen = XDefaultScreen(pointer)
        root = XRootWindow(pointer, screen)
        visual = XDefaultVisual(pointer, screen)
        colormap = XDefaultColormap(pointer, screen)
        depth = XDefaultDepth(pointer, screen)
        // Register RENDER's per-display record before Xft registers its own. XCloseDisplay runs
        // the close hooks newest first; Xft's hook frees its cached pictures and glyph sets
        // through RENDER, and if RENDER's hook had already run, that call re-creates RENDER's
        // record for a Display that is being freed. The next XOpenDisplay that malloc places at
        // the same address then finds the stale record and sends requests with another server's
        // opcodes (seen as BadRequest/BadLength at serial 7 when tests opened displays in turn).
        Self.registerRenderExtension(pointer)
        do {
            for role in FontRole.allCases {
                let pattern = fontPatterns[role] ?? "sans-serif:size=11"
                fonts[role] = try FontSet(display: pointer, screen: screen, pattern: pattern)
            }
        } catch {
            for font in fonts.values { font.close() }
            fonts.removeAll()
            throw error
        }
    }

    deinit {
        if isGrabbingKeyboard { releaseKeyboard() }
        let pointer = xDisplay
        if let inputContext { XDestroyIC(inputContext) }
        if let inputMethod { XCloseIM(inputMethod) }
        if renderTarget != 0 { XRenderFreePicture(pointer, renderTarget) }
        if let xftDraw { XftDrawDestroy(xftDraw) }
        for var color in colors.values { XftColorFree(pointer, visual, colormap, &color) }
        for font in fonts.values { font.close() }
        if backBuffer != 0 { XFreePixmap(pointer, backBuffer) }
        if let graphics { XFreeGC(pointer, graphics) }
        if window != 0 { XDestroyWindow(pointer, window) }
        XFlush(pointer)
    }

    /// Calls `XRenderQueryExtension` (libXrender, linked through the CXft module map).
    private static func registerRenderExtension(_ display: OpaquePointer) {
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        _ = XRenderQueryExtension(display, &eventBase, &errorBase)
    }

    // MARK: - Text metrics

    /// The advance width of `text` in `role`, fallback fonts included. Wraps `XftTextExtentsUtf8`.
    public func textWidth(_ text: String, role: FontRole) -> Int {
        fontSet(role).width(of: text)
    }

    /// Pixels from the top of a line to its baseline in `role`.
    public func ascent(role: FontRole) -> Int { fontSet(role).ascent }

    /// The height of one line of `role`.
    public func lineHeight(role: FontRole) -> Int { fontSet(role).lineHeight }

    private func fontSet(_ role: FontRole) -> FontSet {
        guard let set = fonts[role] else { preconditionFailure("every role is opened in init") }
        return set
    }

    // MARK: - Window

    /// How long `show` waits for the window to be mapped (a window manager may take a moment).
    private static let mapTimeout = Duration.seconds(5)

    /// Creates the window at `frame` (root coordinates), sets its properties and maps it.
    ///
    /// Properties (ICCCM §4.1.2, EWMH 1.5): `WM_NAME`/`WM_ICON_NAME`/`WM_CLASS` (the caller's names),
    /// `WM_NORMAL_HINTS` (user position, fixed size), `WM_HINTS` (input False for a notification,
    /// so it never takes focus), `WM_PROTOCOLS` (`WM_DELETE_WINDOW`), `_NET_WM_NAME` (UTF-8),
    /// `_NET_WM_WINDOW_TYPE` (`_NOTIFICATION` or `_DIALOG`), `_NET_WM_STATE` (`_ABOVE`, and for a
    /// notification `_SKIP_TASKBAR`/`_SKIP_PAGER`), `_NET_WM_PID`. Returns once `MapNotify`
    /// arrived. Wraps `XCreateWindow`, `Xutf8SetWMProperties`, `XChangeProperty`, `XMapRaised`.
    /// - Throws: `.windowNotMapped` when no `MapNotify` came within a few seconds.
    public func show(frame: Rect, kind: AlertWindowKind, title: String, background: Color) throws(AlertWindowError) {
        precondition(window == 0, "show is called once")
        let pointer = xDisplay
        self.frame = frame
        var attributes = XSetWindowAttributes()
        attributes.background_pixel = color(background).pixel
        attributes.border_pixel = 0
        attributes.event_mask =
            ExposureMask | KeyPressMask | ButtonPressMask | ButtonReleaseMask | PointerMotionMask
            | StructureNotifyMask | FocusChangeMask
        window = XCreateWindow(
            pointer, root, Int32(clamping: frame.x), Int32(clamping: frame.y),
            UInt32(clamping: max(1, frame.width)), UInt32(clamping: max(1, frame.height)), 0, depth,
            UInt32(InputOutput), visual, UInt(CWBackPixel | CWBorderPixel | CWEventMask), &attributes)
        setProperties(kind: kind, title: title)
        graphics = XCreateGC(pointer, window, 0, nil)
        backBuffer = XCreatePixmap(
            pointer, window, UInt32(clamping: max(1, frame.width)),
            UInt32(clamping: max(1, frame.height)), UInt32(clamping: depth))
        xftDraw = XftDrawCreate(pointer, backBuffer, visual, colormap)
        if kind == .dialog { openInputContext() }
        XMapRaised(pointer, window)
        XFlush(pointer)
        try waitForMap(deadline: .now + Self.mapTimeout)
    }

    private func setProperties(kind: AlertWindowKind, title: String) {
        let pointer = xDisplay
        let atoms = WindowManagerAtoms(display: display, kind: kind)
        var sizeHints = fixedSizeHints()
        var wmHints = XWMHints()
        wmHints.flags = InputHint | StateHint
        wmHints.input = kind == .dialog ? 1 : 0
        wmHints.initial_state = NormalState
        let instance = strdup(instanceName)
        let resourceClass = strdup(className)
        defer {
            free(instance)
            free(resourceClass)
        }
        var classHint = XClassHint(res_name: instance, res_class: resourceClass)
        Xutf8SetWMProperties(pointer, window, title, title, nil, 0, &sizeHints, &wmHints, &classHint)

        let ours = Window(rawValue: window)
        display.changeProperty(atoms.netWMName, of: ours, type: atoms.utf8String, bytes: Array(title.utf8)[...])
        display.changeProperty(atoms.netWMWindowType, of: ours, type: atoms.atom, atoms: [atoms.windowType])
        display.changeProperty(atoms.netWMState, of: ours, type: atoms.atom, atoms: atoms.states)
        display.changeProperty(atoms.netWMPID, of: ours, type: atoms.cardinal, values: [UInt(getpid())])
        deleteWindowAtom = atoms.deleteWindow.rawValue
        var protocols = [deleteWindowAtom]
        XSetWMProtocols(pointer, window, &protocols, 1)
    }

    /// Size hints that pin the window at `frame` (its position, and a fixed size: minimum and
    /// maximum the same), for `show` and `reshape`.
    private func fixedSizeHints() -> XSizeHints {
        var sizeHints = XSizeHints()
        sizeHints.flags = USPosition | PPosition | PMinSize | PMaxSize
        sizeHints.x = Int32(clamping: frame.x)
        sizeHints.y = Int32(clamping: frame.y)
        sizeHints.min_width = Int32(clamping: frame.width)
        sizeHints.max_width = Int32(clamping: frame.width)
        sizeHints.min_height = Int32(clamping: frame.height)
        sizeHints.max_height = Int32(clamping: frame.height)
        return sizeHints
    }

    private func waitForMap(deadline: ContinuousClock.Instant) throws(AlertWindowError) {
        var event = XEvent()
        while true {
            // XCheckTypedWindowEvent leaves every other event (Expose, ...) queued for the caller.
            if XCheckTypedWindowEvent(xDisplay, window, MapNotify, &event) != 0 { return }
            guard try waitForInput(until: deadline) else { throw .windowNotMapped }
        }
    }

    /// Gives the shown window a new frame and title, for new content in the same window (a
    /// toast that said "Retrying…" and now says how it ended).
    ///
    /// The size hints follow the frame (the window keeps a fixed size), the back buffer is made
    /// again at the new size, and `WM_NAME`/`_NET_WM_NAME` change, so a window manager, a pager
    /// and a test see the same window with its new title. Draw and `present` afterwards. Wraps
    /// `XSetWMNormalHints`, `XMoveResizeWindow`, `XFreePixmap`/`XCreatePixmap`,
    /// `XftDrawDestroy`/`XftDrawCreate`, `Xutf8SetWMProperties` and `XChangeProperty`.
    public func reshape(frame newFrame: Rect, title: String) {
        precondition(window != 0, "reshape follows show")
        let pointer = xDisplay
        if newFrame != frame {
            frame = newFrame
            var sizeHints = fixedSizeHints()
            XSetWMNormalHints(pointer, window, &sizeHints)
            XMoveResizeWindow(
                pointer, window, Int32(clamping: frame.x), Int32(clamping: frame.y),
                UInt32(clamping: max(1, frame.width)), UInt32(clamping: max(1, frame.height)))
            if renderTarget != 0 {
                XRenderFreePicture(pointer, renderTarget)
                renderTarget = 0
            }
            if let xftDraw { XftDrawDestroy(xftDraw) }
            if backBuffer != 0 { XFreePixmap(pointer, backBuffer) }
            backBuffer = XCreatePixmap(
                pointer, window, UInt32(clamping: max(1, frame.width)),
                UInt32(clamping: max(1, frame.height)), UInt32(clamping: depth))
            xftDraw = XftDrawCreate(pointer, backBuffer, visual, colormap)
        }
        Xutf8SetWMProperties(pointer, window, title, title, nil, 0, nil, nil, nil)
        let names = display.atoms(["_NET_WM_NAME", "UTF8_STRING"])
        display.changeProperty(
            names[0], of: Window(rawValue: window), type: names[1], bytes: Array(title.utf8)[...])
        XFlush(pointer)
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
        let pointer = xDisplay
        var status: Int32 = 0
        for _ in 0..<Self.grabAttempts {
            // CurrentTime is acceptable for a grab (it is not a selection ownership, ICCCM §2.1).
            status = XGrabKeyboard(pointer, window, 1, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
            if status == GrabSuccess { break }
            var pause = Self.grabRetryPause
            nanosleep(&pause, nil)
        }
        guard status == GrabSuccess else { throw .keyboardGrabFailed(status: status) }
        isGrabbingKeyboard = true
        XSetInputFocus(pointer, window, RevertToParent, UInt(CurrentTime))
        if let inputContext { XSetICFocus(inputContext) }
        XFlush(pointer)
    }

    /// Gives the keyboard back. Wraps `XUngrabKeyboard`. Safe to call when not grabbing.
    public func releaseKeyboard() {
        guard isGrabbingKeyboard else { return }
        XUngrabKeyboard(xDisplay, UInt(CurrentTime))
        XFlush(xDisplay)
        isGrabbingKeyboard = false
    }

    // MARK: - Drawing (into a back buffer; `present` shows it)

    /// Fills `rect` (window coordinates) with `color`, its corners rounded by `cornerRadius`.
    ///
    /// Wraps `XFillRectangle` and `XFillArc` (core X has no anti-aliased shapes; a small radius
    /// still reads as rounded).
    public func fill(_ rect: Rect, color fillColor: Color, cornerRadius: Int = 0) {
        guard let graphics, rect.width > 0, rect.height > 0 else { return }
        let pointer = xDisplay
        XSetForeground(pointer, graphics, color(fillColor).pixel)
        let radius = min(cornerRadius, rect.width / 2, rect.height / 2)
        if radius <= 0 {
            XFillRectangle(
                pointer, backBuffer, graphics, Int32(clamping: rect.x), Int32(clamping: rect.y),
                UInt32(clamping: rect.width), UInt32(clamping: rect.height))
            return
        }
        let diameter = radius * 2
        let rects = [
            Rect(x: rect.x + radius, y: rect.y, width: rect.width - diameter, height: rect.height),
            Rect(x: rect.x, y: rect.y + radius, width: rect.width, height: rect.height - diameter),
        ]
        for part in rects where part.width > 0 && part.height > 0 {
            XFillRectangle(
                pointer, backBuffer, graphics, Int32(clamping: part.x), Int32(clamping: part.y),
                UInt32(clamping: part.width), UInt32(clamping: part.height))
        }
        let corners = [
            (rect.x, rect.y), (rect.x + rect.width - diameter, rect.y),
            (rect.x, rect.y + rect.height - diameter),
            (rect.x + rect.width - diameter, rect.y + rect.height - diameter),
        ]
        for (cornerX, cornerY) in corners {
            XFillArc(
                pointer, backBuffer, graphics, Int32(clamping: cornerX), Int32(clamping: cornerY),
                UInt32(clamping: diameter), UInt32(clamping: diameter), 0, Self.fullCircle)
        }
    }

    /// A full circle in X's arc units (1/64 degree).
    private static let fullCircle: Int32 = 360 * 64

    /// Draws `text` with its left end at `x` and its baseline at `baseline`, clipped to `clip`.
    ///
    /// Wraps `XftDrawSetClipRectangles` and `XftDrawStringUtf8` (per font run, fallbacks included).
    public func drawText(
        _ text: String, x: Int, baseline: Int, role: FontRole, color textColor: Color, clip: Rect? = nil
    ) {
        guard let xftDraw else { return }
        if let clip {
            var rectangle = XRectangle(
                x: Int16(clamping: clip.x), y: Int16(clamping: clip.y),
                width: UInt16(clamping: max(0, clip.width)), height: UInt16(clamping: max(0, clip.height)))
            XftDrawSetClipRectangles(xftDraw, 0, 0, &rectangle, 1)
        }
        var xftColor = color(textColor)
        fontSet(role).draw(text, on: xftDraw, color: &xftColor, x: x, y: baseline)
        if clip != nil { XftDrawSetClip(xftDraw, nil) }
    }

    /// Copies the back buffer to the window and flushes. Wraps `XCopyArea` and `XFlush`.
    public func present() {
        guard let graphics else { return }
        XCopyArea(
            xDisplay, backBuffer, window, graphics, 0, 0, UInt32(clamping: max(0, frame.width)),
            UInt32(clamping: max(0, frame.height)), 0, 0)
        XFlush(xDisplay)
    }

    /// The back buffer and its visual, for `AlertWindow+Render`; the pixmap is 0 before `show`.
    var backBufferPixmap: (pixmap: Pixmap, visual: UnsafeMutablePointer<Visual>) { (backBuffer, visual) }

    /// An allocated Xft colour, cached for the window's life. Wraps `XftColorAllocValue`.
    private func color(_ value: Color) -> XftColor {
        if let known = colors[value] { return known }
        // XRenderColor channels are 16-bit: 0xAB -> 0xABAB.
        var render = XRenderColor(
            red: UInt16(value.red) * 0x101, green: UInt16(value.green) * 0x101,
            blue: UInt16(value.blue) * 0x101, alpha: 0xFFFF)
        var allocated = XftColor()
        if XftColorAllocValue(xDisplay, visual, colormap, &render, &allocated) == 0 {
            // Out of colours on a palette visual: black is always there.
            allocated.pixel = XBlackPixel(xDisplay, screen)
            return allocated
        }
        colors[value] = allocated
        return allocated
    }
}

/// The window manager atoms `show` sets, interned in one round trip (`XInternAtoms`).
private struct WindowManagerAtoms {
    let utf8String, atom, cardinal, netWMName, netWMWindowType, netWMState, netWMPID, deleteWindow: Atom
    /// `_NET_WM_WINDOW_TYPE_DIALOG` or `_NOTIFICATION`.
    let windowType: Atom
    /// `_NET_WM_STATE_ABOVE`, and `_SKIP_TASKBAR`/`_SKIP_PAGER` for a notification.
    let states: [Atom]

    init(display: Display, kind: AlertWindowKind) {
        let names = [
            "UTF8_STRING", "ATOM", "CARDINAL", "_NET_WM_NAME", "_NET_WM_WINDOW_TYPE", "_NET_WM_STATE", "_NET_WM_PID",
            "WM_DELETE_WINDOW",
            kind == .dialog ? "_NET_WM_WINDOW_TYPE_DIALOG" : "_NET_WM_WINDOW_TYPE_NOTIFICATION",
            "_NET_WM_STATE_ABOVE", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER",
        ]
        let a = display.atoms(names)
        (utf8String, atom, cardinal, netWMName, netWMWindowType, netWMState, netWMPID, deleteWindow) = (
            a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
        )
        windowType = a[8]
        states = kind == .notification ? [a[9], a[10], a[11]] : [a[9]]
    }
}

@available(*, unavailable)
extension AlertWindow: Sendable {}
