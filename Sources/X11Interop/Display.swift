internal import CX11
internal import CX11Shims
internal import Glibc

/// A connection to an X server: the one owner of an Xlib `Display *`.
///
/// Opened with `XOpenDisplay`, closed with `XCloseDisplay` in `close()` or `deinit`. Closing the
/// connection also destroys every window and frees every resource the client created, so windows
/// are not wrapped separately. A `Display` belongs to the thread that uses it (we never call
/// `XInitThreads`): it is deliberately not `Sendable`.
///
/// The first `Display` installs the process-wide error handlers (`cx11_install_handlers`):
/// protocol errors are recorded, not fatal (see `checked(_:)`), and a lost connection ends the
/// process with status `Display.connectionLostExitStatus` instead of Xlib's print-and-exit.
public final class Display {
    /// The Xlib handle; nil once closed.
    private(set) var handle: OpaquePointer?
    /// The display name it was opened with (`:0`, `host:1.0`).
    public let name: String
    /// Interned atoms, so each name costs one round trip per connection (see `Display+Atoms`);
    /// the protocol's predefined atoms are there from the start.
    var atomCache: [String: Atom] = Display.predefinedAtoms
    /// Events read while waiting for a particular one, delivered first by `nextEvent`.
    var queuedEvents: [Event] = []

    /// The status a process exits with when its X connection is lost (sysexits `EX_IOERR`).
    public static let connectionLostExitStatus = Int32(CX11_CONNECTION_LOST_EXIT_STATUS)

    /// Opens a connection to the X server called `name`.
    ///
    /// Wraps `XOpenDisplay`. The name is passed explicitly: this never reads `DISPLAY` itself.
    /// - Parameter keyboard: false for a connection that never reads a key (the clipboard's):
    ///   Xlib then leaves the XKEYBOARD extension alone, two round trips fewer at the open
    ///   (`cx11_open_display`; issue 44). Key events on it would be translated through the core
    ///   keyboard mapping.
    /// - Throws: `XError.cannotOpenDisplay` when Xlib cannot connect.
    public init(name: String, keyboard: Bool = true) throws(XError) {
        cx11_install_handlers()
        guard let opened = cx11_open_display(name, keyboard ? 1 : 0) else { throw .cannotOpenDisplay(name: name) }
        handle = opened
        self.name = name
    }

    deinit {
        if let handle { XCloseDisplay(handle) }
    }

    /// The serial number the next request will carry: how many requests the connection has
    /// sent so far, opening included (tests count round trips with it). Wraps `XNextRequest`.
    var nextRequestSerial: UInt { XNextRequest(pointer) }

    /// Closes the connection now; the server destroys this client's windows and, per ICCCM,
    /// forgets any selection it owned. Wraps `XCloseDisplay`. Calling it twice is harmless.
    public func close() {
        if let handle { XCloseDisplay(handle) }
        handle = nil
    }

    /// Gives the connection up without closing it: for a parent whose forked child goes on
    /// speaking on it. `XCloseDisplay` would send a round trip of its own (and free server
    /// resources the child still uses), so nothing is sent; the descriptor stays open until
    /// this process ends. Using the `Display` afterwards is a programming error.
    public func abandon() {
        handle = nil
    }

    /// The open handle; using a closed `Display` is a programming error.
    var pointer: OpaquePointer {
        guard let handle else { preconditionFailure("X11Interop: Display used after close()") }
        return handle
    }

    // MARK: - Connection facts

    /// The socket of the connection, for `poll`. Wraps `XConnectionNumber` (`ConnectionNumber`).
    public var connectionFileDescriptor: Int32 { XConnectionNumber(pointer) }

    /// Whether `window` and `other` were made by the same client: their ids agree outside the
    /// connection's resource-id mask (X11 protocol, connection setup: each client's ids are its
    /// `resource-id-base` with bits of the mask set). Wraps `cx11_resource_mask`.
    public func isSameClient(_ window: Window, _ other: Window) -> Bool {
        let mask = UInt(cx11_resource_mask(pointer))
        return window.rawValue & ~mask == other.rawValue & ~mask
    }

    /// The root window of the default screen. Wraps `XDefaultRootWindow`.
    public var rootWindow: Window { Window(rawValue: XDefaultRootWindow(pointer)) }

    /// The largest request the server accepts without BIG-REQUESTS, in bytes.
    ///
    /// Wraps `XMaxRequestSize` (which counts 4-byte units).
    public var maxRequestBytes: Int { Int(XMaxRequestSize(pointer)) * 4 }

    /// The largest request with BIG-REQUESTS, in bytes, or `maxRequestBytes` when the server
    /// lacks the extension. Wraps `XExtendedMaxRequestSize`.
    public var extendedMaxRequestBytes: Int {
        let units = Int(XExtendedMaxRequestSize(pointer))
        return units > 0 ? units * 4 : maxRequestBytes
    }

    // MARK: - Synchronisation and errors

    /// Sends buffered requests to the server without waiting. Wraps `XFlush`.
    public func flush() { XFlush(pointer) }

    /// Waits until the server has processed every request sent so far. Wraps `XSync`.
    ///
    /// - Throws: the first protocol error those requests caused, if any.
    public func sync() throws(XError) {
        XSync(pointer, 0)
        if let error = takeLastError() { throw .protocolError(error) }
    }

    /// Runs `body`, then waits for the server and throws the first protocol error it caused.
    ///
    /// Errors from earlier requests are discarded first, so they are not blamed on `body`. Without
    /// this, protocol errors are recorded and dropped: a selection owner writing to a requestor
    /// that just vanished (`BadWindow`) must carry on, as ICCCM owners do.
    public func checked<T>(_ body: () -> T) throws(XError) -> T {
        XSync(pointer, 0)
        _ = takeLastError()
        let result = body()
        try sync()
        return result
    }

    /// The protocol error recorded on this thread, if any, with the server's text for it.
    /// Wraps `cx11_take_last_error` and `XGetErrorText`.
    func takeLastError() -> XProtocolError? {
        var record = cx11_error_record()
        guard cx11_take_last_error(&record) != 0 else { return nil }
        var text = [CChar](repeating: 0, count: 256)
        XGetErrorText(pointer, Int32(record.error_code), &text, Int32(text.count))
        return XProtocolError(
            code: record.error_code, requestCode: record.request_code,
            minorCode: record.minor_code, resourceID: record.resource_id,
            text: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}

@available(*, unavailable, message: "a Display belongs to one thread; Xlib is not thread-safe without XInitThreads")
extension Display: Sendable {}
