internal import CX11

/// An X event, copied out of Xlib's `XEvent` union into Swift values.
public enum Event: Sendable, Equatable {
    /// `SelectionRequest`: a client asks us, the owner, to convert a selection (ICCCM §2.2).
    case selectionRequest(SelectionRequest)
    /// `SelectionNotify`: the owner's answer to our `convertSelection` (property nil = refused).
    case selectionNotify(SelectionNotify)
    /// `SelectionClear`: we lost a selection to another client.
    case selectionClear(window: Window, selection: Atom, time: Timestamp)
    /// `PropertyNotify`: a property of a window we listen to changed.
    case propertyNotify(PropertyChange)
    /// `Expose`: part of a window needs redrawing; `count` more follow.
    case expose(window: Window, x: Int, y: Int, width: Int, height: Int, count: Int)
    /// `ConfigureNotify`: a window's size or place changed.
    case configureNotify(window: Window, x: Int, y: Int, width: Int, height: Int)
    /// `MapNotify`.
    case mapNotify(window: Window)
    /// `UnmapNotify`.
    case unmapNotify(window: Window)
    /// `DestroyNotify`.
    case destroyNotify(window: Window)
    /// `KeyPress`, with the keysym and text `XLookupString` found for it.
    case keyPress(KeyPress)
    /// `KeyRelease`, likewise.
    case keyRelease(KeyPress)
    /// `ButtonPress`.
    case buttonPress(window: Window, button: Int, x: Int, y: Int, time: Timestamp)
    /// `ButtonRelease`.
    case buttonRelease(window: Window, button: Int, x: Int, y: Int, time: Timestamp)
    /// `MotionNotify`.
    case motion(window: Window, x: Int, y: Int)
    /// `FocusIn`.
    case focusIn(window: Window)
    /// `FocusOut`.
    case focusOut(window: Window)
    /// `ClientMessage` with format-32 data (`WM_PROTOCOLS`, ...).
    case clientMessage(window: Window, type: Atom, values: [UInt])
    /// Any other event, by its type number.
    case other(type: Int32, window: Window)
}

/// A `SelectionRequest` event (`XSelectionRequestEvent`).
public struct SelectionRequest: Sendable, Equatable {
    /// Our window, which owns the selection.
    public var owner: Window
    /// The window to put the data on.
    public var requestor: Window
    /// Which selection.
    public var selection: Atom
    /// The form the requestor wants.
    public var target: Atom
    /// Where to put it; `None` from obsolete clients (ICCCM §2.2: then use `target` as the property).
    public var property: Atom
    /// The requestor's timestamp, or `CurrentTime`.
    public var time: Timestamp

    /// Makes a request value (for tests and fakes).
    public init(owner: Window, requestor: Window, selection: Atom, target: Atom, property: Atom, time: Timestamp) {
        self.owner = owner
        self.requestor = requestor
        self.selection = selection
        self.target = target
        self.property = property
        self.time = time
    }
}

/// A `SelectionNotify` event (`XSelectionEvent`).
public struct SelectionNotify: Sendable, Equatable {
    /// The window that asked.
    public var requestor: Window
    /// Which selection.
    public var selection: Atom
    /// The target asked for.
    public var target: Atom
    /// Where the owner put the data, or nil when it refused (`None`).
    public var property: Atom?
    /// The time of the request.
    public var time: Timestamp
}

/// A `PropertyNotify` event (`XPropertyEvent`).
public struct PropertyChange: Sendable, Equatable {
    /// Whether the property got a new value or was deleted.
    public enum State: Sendable, Equatable {
        /// `PropertyNewValue`.
        case newValue
        /// `PropertyDelete`.
        case deleted
    }
    /// The window whose property changed.
    public var window: Window
    /// The property.
    public var property: Atom
    /// The server time of the change: how we obtain a timestamp (ICCCM §2.1).
    public var time: Timestamp
    /// New value or deleted.
    public var state: State
}

/// A key event with what Xlib's keyboard mapping makes of it.
public struct KeyPress: Sendable, Equatable {
    /// The window with focus.
    public var window: Window
    /// The hardware keycode.
    public var keycode: UInt32
    /// Modifier and button state (`ShiftMask` = 1, `ControlMask` = 4, ...).
    public var modifiers: UInt32
    /// The keysym (`XK_Return` = 0xff0d, ...), 0 when none.
    public var keysym: UInt
    /// The text the key types, in Latin-1 as `XLookupString` gives it, decoded; empty for none.
    public var text: String
    /// The server time.
    public var time: Timestamp
}

extension Event {
    /// Copies the union member that `event.type` selects. `XLookupString` needs the event itself,
    /// hence `inout`.
    init(_ event: inout XEvent) {
        let type = event.type
        switch type {
        case CX11.SelectionRequest:
            let e = event.xselectionrequest
            self = .selectionRequest(
                SelectionRequest(
                    owner: Window(rawValue: e.owner), requestor: Window(rawValue: e.requestor),
                    selection: Atom(rawValue: e.selection), target: Atom(rawValue: e.target),
                    property: Atom(rawValue: e.property), time: Timestamp(rawValue: e.time)))
        case CX11.SelectionNotify:
            let e = event.xselection
            self = .selectionNotify(
                SelectionNotify(
                    requestor: Window(rawValue: e.requestor), selection: Atom(rawValue: e.selection),
                    target: Atom(rawValue: e.target), property: e.property == 0 ? nil : Atom(rawValue: e.property),
                    time: Timestamp(rawValue: e.time)))
        case SelectionClear:
            let e = event.xselectionclear
            self = .selectionClear(
                window: Window(rawValue: e.window), selection: Atom(rawValue: e.selection),
                time: Timestamp(rawValue: e.time))
        case PropertyNotify:
            let e = event.xproperty
            self = .propertyNotify(
                PropertyChange(
                    window: Window(rawValue: e.window), property: Atom(rawValue: e.atom),
                    time: Timestamp(rawValue: e.time), state: e.state == PropertyDelete ? .deleted : .newValue))
        case Expose:
            let e = event.xexpose
            self = .expose(
                window: Window(rawValue: e.window), x: Int(e.x), y: Int(e.y), width: Int(e.width),
                height: Int(e.height), count: Int(e.count))
        case ConfigureNotify:
            let e = event.xconfigure
            self = .configureNotify(
                window: Window(rawValue: e.window), x: Int(e.x), y: Int(e.y), width: Int(e.width),
                height: Int(e.height))
        case MapNotify: self = .mapNotify(window: Window(rawValue: event.xmap.window))
        case UnmapNotify: self = .unmapNotify(window: Window(rawValue: event.xunmap.window))
        case DestroyNotify: self = .destroyNotify(window: Window(rawValue: event.xdestroywindow.window))
        case CX11.KeyPress, CX11.KeyRelease:
            var buffer = [CChar](repeating: 0, count: 32)
            var keysym: KeySym = 0
            let length = XLookupString(&event.xkey, &buffer, Int32(buffer.count), &keysym, nil)
            let e = event.xkey
            let key = KeyPress(
                window: Window(rawValue: e.window), keycode: e.keycode, modifiers: e.state, keysym: keysym,
                text: String(
                    String.UnicodeScalarView(
                        buffer.prefix(Int(max(0, length))).map { Unicode.Scalar(UInt8(bitPattern: $0)) })),
                time: Timestamp(rawValue: e.time))
            self = type == CX11.KeyPress ? .keyPress(key) : .keyRelease(key)
        case ButtonPress, ButtonRelease:
            let e = event.xbutton
            let window = Window(rawValue: e.window)
            let time = Timestamp(rawValue: e.time)
            self =
                type == ButtonPress
                ? .buttonPress(window: window, button: Int(e.button), x: Int(e.x), y: Int(e.y), time: time)
                : .buttonRelease(window: window, button: Int(e.button), x: Int(e.x), y: Int(e.y), time: time)
        case MotionNotify:
            let e = event.xmotion
            self = .motion(window: Window(rawValue: e.window), x: Int(e.x), y: Int(e.y))
        case FocusIn: self = .focusIn(window: Window(rawValue: event.xfocus.window))
        case FocusOut: self = .focusOut(window: Window(rawValue: event.xfocus.window))
        case ClientMessage:
            let e = event.xclient
            let l = e.data.l
            self = .clientMessage(
                window: Window(rawValue: e.window), type: Atom(rawValue: e.message_type),
                values: [l.0, l.1, l.2, l.3, l.4].map { UInt(bitPattern: $0) })
        default:
            self = .other(type: type, window: Window(rawValue: event.xany.window))
        }
    }
}
