internal import CX11

extension Display {
    /// Creates a child of the root window, unmapped, listening for `events`.
    ///
    /// Wraps `XCreateSimpleWindow` and `XSelectInput`. The window lives until `destroyWindow` or
    /// until the connection closes (the server frees a client's windows then).
    public func createWindow(
        x: Int = 0, y: Int = 0, width: Int = 1, height: Int = 1, events: EventMask = []
    ) -> Window {
        let screen = XDefaultScreen(pointer)
        let window = XCreateSimpleWindow(
            pointer, XDefaultRootWindow(pointer), Int32(x), Int32(y), UInt32(max(1, width)),
            UInt32(max(1, height)), 0, XBlackPixel(pointer, screen), XWhitePixel(pointer, screen))
        if !events.isEmpty { XSelectInput(pointer, window, events.rawValue) }
        return Window(rawValue: window)
    }

    /// Replaces the events this client hears about on `window` (any window, also another
    /// client's: the mask is per client). Wraps `XSelectInput`.
    public func selectEvents(_ events: EventMask, on window: Window) {
        XSelectInput(pointer, window.rawValue, events.rawValue)
    }

    /// Destroys a window this client created. Wraps `XDestroyWindow`.
    public func destroyWindow(_ window: Window) {
        XDestroyWindow(pointer, window.rawValue)
    }
}
