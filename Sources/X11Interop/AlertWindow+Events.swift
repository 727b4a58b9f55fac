internal import CX11
internal import CX11Shims
internal import Glibc
internal import SystemInterop

/// A key as the alert windows and their dialogs see it, already translated from its keysym and
/// the input method's text.
public enum AlertKey: Hashable, Sendable {
    case up, down, left, right, pageUp, pageDown, home, end
    /// Return or keypad Enter.
    case enter
    case escape
    /// Tab, and Shift+Tab (`ISO_Left_Tab`) as `backTab`.
    case tab, backTab
    case backspace, delete
    /// Text typed, as the input method composed it (UTF-8 through `Xutf8LookupString`).
    case text(String)
}

/// Something that happened to an alert window, in window coordinates.
public enum AlertEvent: Hashable, Sendable {
    /// Part of the window must be drawn again (the last `Expose` of a series).
    case exposed
    /// A key was pressed while the window had focus or the keyboard grab.
    case key(AlertKey)
    /// A mouse button was pressed at this point; `button` 1 is the left one.
    case pressed(Point, button: Int)
    /// The pointer moved to this point.
    case moved(Point)
    /// The wheel turned: negative lines up, positive down.
    case scrolled(lines: Int)
    /// The window manager asked the window to close (`WM_DELETE_WINDOW`, ICCCM §4.2.8.1).
    case closeRequested
}

extension AlertWindow {
    // MARK: - Input method

    /// Opens an input method and context so typed text arrives as composed UTF-8.
    ///
    /// Wraps `XSetLocaleModifiers`, `XOpenIM` and `XCreateIC`. `XSetLocaleModifiers("")` honours
    /// `$XMODIFIERS` (ibus, fcitx); when that IM is not running, `@im=none` selects Xlib's
    /// built-in one. Without any IM, `nextEvent` falls back to `XLookupString` plus keysym→Unicode.
    func openInputContext() {
        XSetLocaleModifiers("")
        var method = XOpenIM(xDisplay, nil, nil, nil)
        if method == nil {
            XSetLocaleModifiers("@im=none")
            method = XOpenIM(xDisplay, nil, nil, nil)
        }
        guard let method else { return }
        inputMethod = method
        inputContext = Self.createInputContext(method: method, window: window)
    }

    /// Wraps `XCreateIC` through `cx11_create_ic`: it is variadic, which Swift cannot call.
    private static func createInputContext(method: XIM, window: CX11.Window) -> XIC? {
        cx11_create_ic(method, window)
    }

    // MARK: - Events

    /// Waits for the next event worth acting on, or until `deadline`.
    ///
    /// Wraps `XPending`, `XNextEvent`, `XFilterEvent` (the input method sees every event first)
    /// and `Xutf8LookupString`; waits on the connection's socket with `poll` so a deadline can end
    /// the wait. Events that need no action (focus changes, configure, ...) are consumed here.
    /// - Returns: the event, or nil when the deadline passed first.
    /// - Throws: `.connectionLost` when the socket reports hang-up or error.
    public func nextEvent(until deadline: ContinuousClock.Instant?) throws(AlertWindowError) -> AlertEvent? {
        let pointer = xDisplay
        var event = XEvent()
        while true {
            while XPending(pointer) > 0 {
                XNextEvent(pointer, &event)
                if XFilterEvent(&event, 0) != 0 { continue }
                if let translated = translate(&event) { return translated }
            }
            guard try waitForInput(until: deadline) else { return nil }
        }
    }

    /// Blocks until the X socket is readable (true) or the deadline passed (false).
    ///
    /// Wraps `poll` on the connection's socket, retrying `EINTR`.
    func waitForInput(until deadline: ContinuousClock.Instant?) throws(AlertWindowError) -> Bool {
        let pointer = xDisplay
        if XPending(pointer) > 0 { return true }
        while true {
            let ready: PollEvents?
            do {
                ready = try FileDescriptor.poll(
                    rawDescriptor: display.connectionFileDescriptor, for: .readable, before: deadline)
            } catch {
                throw .connectionLost
            }
            guard let ready else { return false }
            if ready.isBroken { throw .connectionLost }
            // Readable: XPending reads the bytes; they may hold no complete event yet.
            if XPending(pointer) > 0 { return true }
        }
    }

    private func translate(_ event: inout XEvent) -> AlertEvent? {
        switch event.type {
        case Expose:
            return event.xexpose.count == 0 ? .exposed : nil
        case CX11.KeyPress:
            return translateKey(&event.xkey).map { .key($0) }
        case ButtonPress:
            let point = Point(x: Int(event.xbutton.x), y: Int(event.xbutton.y))
            switch event.xbutton.button {
            case UInt32(Button4): return .scrolled(lines: -1)
            case UInt32(Button5): return .scrolled(lines: 1)
            default: return .pressed(point, button: Int(event.xbutton.button))
            }
        case MotionNotify:
            return .moved(Point(x: Int(event.xmotion.x), y: Int(event.xmotion.y)))
        case ClientMessage:
            let message = event.xclient
            if message.format == 32, CX11.Atom(bitPattern: message.data.l.0) == deleteWindowAtom {
                return .closeRequested
            }
            return nil
        default:
            return nil
        }
    }

    /// How many bytes of composed text one key press may carry before the lookup retries bigger.
    private static let lookupBufferSize = 64

    private func translateKey(_ key: inout XKeyEvent) -> AlertKey? {
        var keysym: CX11.KeySym = 0
        var text = ""
        var buffer = [CChar](repeating: 0, count: Self.lookupBufferSize)
        if let inputContext {
            var status: Int32 = 0
            var count = Xutf8LookupString(inputContext, &key, &buffer, Int32(buffer.count), &keysym, &status)
            if status == XBufferOverflow {
                buffer = [CChar](repeating: 0, count: Int(count) + 1)
                count = Xutf8LookupString(inputContext, &key, &buffer, Int32(buffer.count), &keysym, &status)
            }
            if status == XLookupChars || status == XLookupBoth {
                text = String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            if status != XLookupKeySym && status != XLookupBoth { keysym = 0 }
        } else {
            _ = XLookupString(&key, &buffer, Int32(buffer.count), &keysym, nil)
            text = Self.text(forKeysym: keysym)
        }
        if let special = Self.specialKey(keysym) { return special }
        let isControl = key.state & UInt32(ControlMask | Mod1Mask) != 0
        guard !isControl, !text.isEmpty, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        return .text(text)
    }

    private static func specialKey(_ keysym: CX11.KeySym) -> AlertKey? {
        switch Int32(truncatingIfNeeded: keysym) {
        case XK_Up, XK_KP_Up: .up
        case XK_Down, XK_KP_Down: .down
        case XK_Left, XK_KP_Left: .left
        case XK_Right, XK_KP_Right: .right
        case XK_Page_Up, XK_KP_Page_Up: .pageUp
        case XK_Page_Down, XK_KP_Page_Down: .pageDown
        case XK_Home, XK_KP_Home: .home
        case XK_End, XK_KP_End: .end
        case XK_Return, XK_KP_Enter: .enter
        case XK_Escape: .escape
        case XK_Tab: .tab
        case XK_ISO_Left_Tab: .backTab
        case XK_BackSpace: .backspace
        case XK_Delete, XK_KP_Delete: .delete
        default: nil
        }
    }

    /// Text for a keysym when no input method is available: Latin-1 keysyms are their code
    /// point, and keysyms `0x01000000 + U` stand for Unicode `U` (X11 keysym encoding, Appendix A).
    static func text(forKeysym keysym: CX11.KeySym) -> String {
        let unicodeKeysymBase: CX11.KeySym = 0x0100_0000
        let value: UInt32
        if (0x20...0x7E).contains(keysym) || (0xA0...0xFF).contains(keysym) {
            value = UInt32(keysym)
        } else if keysym > unicodeKeysymBase, keysym <= unicodeKeysymBase + 0x10_FFFF {
            value = UInt32(keysym - unicodeKeysymBase)
        } else {
            return ""
        }
        return Unicode.Scalar(value).map { String($0) } ?? ""
    }
}
