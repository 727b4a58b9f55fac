internal import CWaylandProtocols
internal import Glibc
internal import Synchronization
public import SystemInterop

/// A connection to a Wayland compositor with a data-control device on its seat: reads the
/// selections and sets them, without a surface or keyboard focus. The one owner of the
/// `wl_display` and of every proxy made on it.
///
/// Opening it (`init`) connects (`wl_display_connect`), reads the registry (one round trip),
/// binds the data-control manager (`DataControlProtocol.choose`: ext where offered, else wlr)
/// and the first seat, and makes the device; a second round trip brings the device's first
/// events: the current selection's offer and its MIME types, and the primary selection's.
/// `probe(at:before:)` does the first half and asks for the device without waiting, keeping
/// the connection for this process's next `open(socketPath:before:)`: a backend's probe and
/// the read after it share one connection, and the device's round trip runs while the caller
/// does other work.
///
/// A `wl_display` belongs to one thread (like an X `Display`): this class is not `Sendable`,
/// and nothing here dispatches from another thread. Every wait has a deadline (`poll` on the
/// display's descriptor); listeners are `@convention(c)` trampolines that find this object in
/// their user data (unretained: the object outlives every proxy it owns, all destroyed in
/// `deinit` before the display is disconnected).
public final class DataControlSession {
    private let display: OpaquePointer
    private var registry: OpaquePointer?
    private var manager: OpaquePointer?
    private var seat: OpaquePointer?
    private var device: OpaquePointer?
    /// The protocol in use (set once the manager is bound).
    public private(set) var dataControl = DataControlProtocol.wlr
    /// What the registry announced.
    public private(set) var globals: [WaylandGlobal] = []
    /// Offers announced and the MIME types each one named so far.
    private var offerTypes: [OpaquePointer: [String]] = [:]
    /// The offers of the current selection and primary selection (nil: nothing selected).
    private var regularOffer: OpaquePointer?
    private var primaryOffer: OpaquePointer?
    private var isFinished = false
    /// The source of ours that is the selection, what it serves, and whether it was replaced.
    private var source: OpaquePointer?
    private var sourceData: ((String) -> [UInt8]?)?
    private var isCancelled = false
    /// How long a reader may stall while we write to it.
    private var writeTimeout = Duration.seconds(30)
    /// Whether `serve` runs: before it, a reader's request is kept (`pendingSends`), not answered.
    private var isServing = false
    /// Readers that asked before `serve`: the MIME type and their descriptor (ours to close).
    private var pendingSends: [(type: String, reader: Int32)] = []
    /// Whether `abandon` gave the connection up to a forked child.
    private var isAbandoned = false
    /// Syncs sent, and their callbacks answered (in the order sent: each wait counts to its own).
    private var syncsSent = 0
    private var syncsDone = 0
    /// The sync sent after the device was asked for by `probe`, not waited for yet (`open` waits).
    private var deviceSync: PendingSync?
    /// Whether the connection was made by `probe` (and `open` took it over): for tests.
    private(set) var isFromProbe = false
    private let listeners: Listeners

    /// The registry's globals, read with a connection of their own (one round trip): enough to
    /// tell whether a compositor has data-control (`DataControlProtocol.choose`), for choosing a
    /// backend before anything is read.
    ///
    /// - Parameters:
    ///   - socketPath: the compositor's socket, absolute (`$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY`).
    ///   - deadline: when to give up waiting for the compositor.
    public static func globals(at socketPath: String, before deadline: ContinuousClock.Instant) throws(WaylandError)
        -> [WaylandGlobal]
    {
        let display = try connect(socketPath)
        let probe = Probe()
        let listeners = Listeners()
        let context = Unmanaged.passUnretained(probe).toOpaque()
        let registry = cwayland_display_get_registry(display)
        _ = cwayland_registry_add_listener(registry, listeners.probeRegistry, context)
        let callback = cwayland_display_sync(display)
        _ = cwayland_callback_add_listener(callback, listeners.probeCallback, context)
        defer {
            wl_proxy_destroy(callback)
            wl_proxy_destroy(registry)
            wl_display_disconnect(display)
        }
        while !probe.isDone { try dispatch(display, before: deadline) }
        return probe.globals
    }

    /// Connects and makes the device (see the type's summary).
    ///
    /// - Parameters:
    ///   - socketPath: the compositor's socket, absolute.
    ///   - deadline: when to give up waiting for the compositor.
    /// - Throws: `WaylandError.cannotConnect`, `.noDataControl`, `.noSeat`, `.timedOut`,
    ///   `.connectionLost`.
    public convenience init(socketPath: String, before deadline: ContinuousClock.Instant) throws(WaylandError) {
        try self.init(connectingTo: socketPath, before: deadline)
        try requestDevice()
        try roundTrip(before: deadline)
        if isFinished { throw .deviceFinished }
    }

    /// Connects and reads the registry (one round trip): `globals` is known, nothing is bound.
    private init(connectingTo socketPath: String, before deadline: ContinuousClock.Instant) throws(WaylandError) {
        display = try Self.connect(socketPath)
        // Every other property has its initial value: from here on a failure runs `deinit`,
        // which frees what was made (every proxy is optional).
        listeners = Listeners()
        let context = Unmanaged.passUnretained(self).toOpaque()
        registry = cwayland_display_get_registry(display)
        _ = cwayland_registry_add_listener(registry, listeners.registry, context)
        try roundTrip(before: deadline)
    }

    /// Binds the data-control manager and the first seat and asks for the device; its first
    /// events come with the next round trip's answer.
    private func requestDevice() throws(WaylandError) {
        guard let (chosen, managerGlobal) = DataControlProtocol.choose(among: globals) else { throw .noDataControl }
        guard let seatGlobal = globals.first(where: { $0.interface == "wl_seat" }) else { throw .noSeat }
        let protocolTable = chosen.table
        manager = cwayland_registry_bind(
            registry, managerGlobal.name, protocolTable.pointee.manager, managerGlobal.version)
        seat = cwayland_registry_bind(registry, seatGlobal.name, cwayland_seat_interface(), 1)
        device = cwayland_manager_get_device(manager, protocolTable, seat)
        _ = cwayland_device_add_listener(device, listeners.device, Unmanaged.passUnretained(self).toOpaque())
        dataControl = chosen
    }

    // MARK: - The probe's connection, kept for the read

    /// Tells which data-control protocol the compositor at `socketPath` offers (nil: none), and
    /// keeps the connection for this process's next `open(socketPath:before:)` of that socket.
    ///
    /// Connects and reads the registry (one round trip); where data-control and a seat are
    /// offered, binds them, asks for the device and sends a sync, flushed and not waited for:
    /// the compositor answers while the caller goes on (a hotkey run loads its configuration
    /// meanwhile), and `open` finds the answer waiting. The connection replaces any kept before
    /// for the socket (which closes). A run that reads no selection leaves it unused until the
    /// process ends.
    ///
    /// - Parameters:
    ///   - socketPath: the compositor's socket, absolute.
    ///   - deadline: when to give up waiting for the registry.
    /// - Throws: `WaylandError.cannotConnect`, `.timedOut`, `.connectionLost`.
    public static func probe(at socketPath: String, before deadline: ContinuousClock.Instant) throws(WaylandError)
        -> DataControlProtocol?
    {
        let session = try DataControlSession(connectingTo: socketPath, before: deadline)
        guard let chosen = DataControlProtocol.choose(among: session.globals)?.protocol else { return nil }
        // No seat: the read's own `init` says so (`.noSeat`); nothing is kept.
        guard (try? session.requestDevice()) != nil else { return chosen }
        session.deviceSync = session.requestSync()
        session.isFromProbe = true
        // Sent now, so the compositor answers while the caller goes on; a full socket (it never
        // is at this point) only leaves the requests for `open`'s first dispatch to send.
        _ = wl_display_flush(session.display)
        KeptSession.keep(session, for: socketPath)
        return chosen
    }

    /// The session for a read of the compositor at `socketPath`: the one `probe` kept, once its
    /// device has answered, else a new one (`init(socketPath:before:)`).
    ///
    /// A kept session handles the events that came after its device's first ones, without
    /// waiting for more: a copy made since the probe is the selection it tells, as it would be
    /// for a new connection. One that fails (the compositor closed it meanwhile, or the device
    /// ended) is closed, and a new connection is made; only a timeout is thrown as it is.
    /// A session kept by the process this one was forked from is never used.
    ///
    /// - Throws: as `init(socketPath:before:)`.
    public static func open(socketPath: String, before deadline: ContinuousClock.Instant) throws(WaylandError)
        -> DataControlSession
    {
        if let kept = KeptSession.take(for: socketPath) {
            do {
                try kept.awaitDevice(before: deadline)
                return kept
            } catch .timedOut {
                throw .timedOut
            } catch {}
        }
        return try DataControlSession(socketPath: socketPath, before: deadline)
    }

    /// Shuts the socket of the session kept for `socketPath` down, as a compositor that closed
    /// the connection would (for tests of `open`'s new connection); false when none is kept.
    static func shutDownKept(socketPath: String) -> Bool {
        KeptSession.withKept(for: socketPath) { session in
            shutdown(wl_display_get_fd(session.display), Int32(SHUT_RDWR)) == 0
        } ?? false
    }

    /// Waits for the device `probe` asked for, then handles what has arrived since.
    private func awaitDevice(before deadline: ContinuousClock.Instant) throws(WaylandError) {
        guard let sync = deviceSync.take() else { return }
        try awaitSync(sync, before: deadline)
        if isFinished { throw .deviceFinished }
        // Events in the socket after the sync's answer (a copy made since): handled now, so the
        // selection is the compositor's latest.
        try Self.dispatchArrived(display)
        if isFinished { throw .deviceFinished }
    }

    deinit {
        // Abandoned: the socket is closed and the compositor's objects are the child's; sending
        // a destroy now could only reach another descriptor given the same number. The
        // display's memory stays (the caller is about to leave).
        guard !isAbandoned else { return }
        if let deviceSync { wl_proxy_destroy(deviceSync.callback) }
        for pending in pendingSends { close(pending.reader) }
        if let source { cwayland_source_destroy(source) }
        for offer in offerTypes.keys { cwayland_offer_destroy(offer) }
        if let device { cwayland_device_destroy(device) }
        if let seat { wl_proxy_destroy(seat) }
        if let manager { cwayland_manager_destroy(manager) }
        if let registry { wl_proxy_destroy(registry) }
        // Sends the destroy requests, then closes the socket (`wl_display_disconnect` does not flush).
        _ = wl_display_flush(display)
        wl_display_disconnect(display)
    }

    // MARK: - Reading

    /// The MIME types the owner of `selection` offers, in its order; nil when nothing is
    /// selected (or the compositor keeps no primary selection).
    public func offeredTypes(_ selection: SeatSelection) -> [String]? {
        guard let offer = offer(of: selection) else { return nil }
        return offerTypes[offer] ?? []
    }

    /// Asks the owner of `selection` for its data as `mimeType`.
    ///
    /// Wraps `…_offer_v1.receive`: the owner writes to the other end of the returned descriptor
    /// and closes it; read it to its end, with deadlines (the owner is another program). The
    /// request is flushed before this returns, and no dispatching is needed while reading.
    /// - Returns: our end (a socket that reads like a pipe), or nil when nothing is selected.
    public func receive(_ selection: SeatSelection, as mimeType: String, before deadline: ContinuousClock.Instant)
        throws(WaylandError) -> FileDescriptor?
    {
        guard let offer = offer(of: selection) else { return nil }
        let pair: SocketPair
        do { pair = try FileDescriptor.makeSocketPair() } catch { throw .transferFailed(errno: error) }
        let ours = pair.first
        let theirs = pair.second
        // libwayland duplicates the descriptor when it marshals the request: ours to close.
        cwayland_offer_receive(offer, mimeType, theirs.rawValue)
        _ = consume theirs
        try Self.flush(display, before: deadline)
        return ours
    }

    private func offer(of selection: SeatSelection) -> OpaquePointer? {
        switch selection {
        case .regular: regularOffer
        case .primary: primaryOffer
        }
    }

    // MARK: - Writing

    /// Makes a source offering `mimeTypes`, sets it as `selection`, and confirms it with a
    /// round trip: no `cancelled` by then means the seat's selection is ours.
    ///
    /// - Parameters:
    ///   - data: the bytes to send for a MIME type a reader asks for (nil: none, the reader
    ///     gets end of file at once); called during `serve`.
    ///   - writeTimeout: how long one reader may stall before it is given up.
    /// - Throws: `WaylandError.notOwner` when another client set the selection first,
    ///   `.noPrimarySelection` for `.primary` where the compositor has none, or a connection
    ///   failure.
    public func setSelection(
        _ selection: SeatSelection, offering mimeTypes: [String], writeTimeout: Duration,
        before deadline: ContinuousClock.Instant, data: @escaping (String) -> [UInt8]?
    ) throws(WaylandError) {
        precondition(source == nil, "WaylandInterop: one source per session")
        // `set_primary_selection` came with wlr-data-control version 2 (ext has it from the start):
        // sent on a version 1 device it would be a protocol error that ends the connection.
        if selection == .primary, dataControl == .wlr, wl_proxy_get_version(device) < 2 { throw .noPrimarySelection }
        let made = cwayland_manager_create_source(manager, dataControl.table)
        source = made
        sourceData = data
        self.writeTimeout = writeTimeout
        _ = cwayland_source_add_listener(made, listeners.source, Unmanaged.passUnretained(self).toOpaque())
        for type in mimeTypes { cwayland_source_offer(made, type) }
        cwayland_device_set_selection(device, made, selection == .primary)
        try roundTrip(before: deadline)
        if isCancelled { throw .notOwner }
        if isFinished { throw .deviceFinished }
    }

    /// Leaves `selection` empty (`set_selection` with no source, as the protocol allows): its
    /// owner is told `cancelled` (paste's own owner then exits).
    ///
    /// - Throws: `WaylandError.noPrimarySelection` for `.primary` where the compositor has none,
    ///   or a connection failure.
    public func clearSelection(_ selection: SeatSelection, before deadline: ContinuousClock.Instant)
        throws(WaylandError)
    {
        if selection == .primary, dataControl == .wlr, wl_proxy_get_version(device) < 2 { throw .noPrimarySelection }
        cwayland_device_set_selection(device, nil, selection == .primary)
        try roundTrip(before: deadline)
    }

    /// Serves readers of the selection set with `setSelection` until another client takes
    /// it (`cancelled`), the device goes (`finished`) or the connection is lost.
    ///
    /// Readers that asked before (while `setSelection` waited for its round trip) are answered
    /// first, in their order; then each reader is written to in turn, within `writeTimeout`; one
    /// that goes away or stalls is given up (the process must ignore `SIGPIPE`:
    /// `Signal.pipe.ignore()`).
    /// - Throws: `WaylandError.deviceFinished` or `.connectionLost`; returns when cancelled.
    public func serve() throws(WaylandError) {
        isServing = true
        let pending = pendingSends
        pendingSends = []
        for (type, reader) in pending { send(type, to: reader) }
        while !isCancelled {
            if isFinished { throw .deviceFinished }
            try Self.dispatch(display, before: nil)
        }
    }

    // MARK: - Handing over to a forked child

    /// The connection's socket (`wl_display_get_fd`) and the descriptors of readers waiting for
    /// `serve`: what a forked child that serves this session must keep open.
    public var descriptorsToKeep: [Int32] {
        [wl_display_get_fd(display)] + pendingSends.map(\.reader)
    }

    /// Gives the connection up without a word on it, in the parent of a forked child that goes
    /// on with this session (the X11 side's `Display.abandon`): the socket and the waiting
    /// readers' descriptors are closed here, nothing is sent (a destroy request would end the
    /// child's source), and nothing is freed: the caller is about to leave. Any later use of
    /// the session is a programming error.
    public func abandon() {
        precondition(!isAbandoned, "WaylandInterop: session abandoned twice")
        isAbandoned = true
        close(wl_display_get_fd(display))
        for pending in pendingSends { close(pending.reader) }
        pendingSends = []
    }

    /// Drops the session without closing or sending anything: a copy inherited through `fork`,
    /// whose socket is the parent's (or was closed, its number perhaps reused).
    fileprivate func forget() { isAbandoned = true }

    // MARK: - Watching

    /// Dispatches until `selection` changes, then returns the MIME types of its new offer (nil:
    /// nothing selected now). A bridged copy's owner watches this way for a later copy by
    /// another client (`BridgeWatch` in Clipboard).
    ///
    /// - Parameter deadline: when to give up (nil: no limit; `interrupter` ends the wait).
    /// - Throws: `WaylandError.timedOut` at the deadline, `.deviceFinished`, `.connectionLost`
    ///   (also after `DataControlInterrupter.interrupt`).
    public func awaitSelectionChange(_ selection: SeatSelection, before deadline: ContinuousClock.Instant?)
        throws(WaylandError) -> [String]?
    {
        let current = offer(of: selection)
        while offer(of: selection) == current {
            if isFinished { throw .deviceFinished }
            try Self.dispatch(display, before: deadline)
        }
        return offeredTypes(selection)
    }

    /// Lets `interrupter` end this session's waits from another thread: it gets a descriptor
    /// of the connection's socket of its own (`dup`), which it shuts down on `interrupt`.
    ///
    /// - Returns: false when `interrupter` was interrupted already (the caller then stops).
    public func attach(_ interrupter: DataControlInterrupter) -> Bool {
        interrupter.attach(socket: wl_display_get_fd(display))
    }

    // MARK: - Events (called by the trampolines)

    fileprivate func announce(_ global: WaylandGlobal) { globals.append(global) }

    fileprivate func syncDone() { syncsDone += 1 }

    fileprivate func newOffer(_ offer: OpaquePointer) {
        offerTypes[offer] = []
        _ = cwayland_offer_add_listener(offer, listeners.offer, Unmanaged.passUnretained(self).toOpaque())
    }

    fileprivate func offerType(_ offer: OpaquePointer, _ type: String) { offerTypes[offer, default: []].append(type) }

    fileprivate func selectionChanged(_ selection: SeatSelection, to offer: OpaquePointer?) {
        let previous: OpaquePointer?
        switch selection {
        case .regular:
            previous = regularOffer
            regularOffer = offer
        case .primary:
            previous = primaryOffer
            primaryOffer = offer
        }
        // The protocol: a new selection makes the previous offer useless; destroy it.
        if let previous, previous != regularOffer, previous != primaryOffer {
            offerTypes[previous] = nil
            cwayland_offer_destroy(previous)
        }
    }

    fileprivate func finished() { isFinished = true }

    fileprivate func cancelled() { isCancelled = true }

    fileprivate func send(_ type: String, to fd: Int32) {
        // Before `serve`, the answer waits for it: `setSelection`'s caller may fork the server
        // (`descriptorsToKeep`) and must not block on, or be killed by `SIGPIPE` from, a reader.
        guard isServing else {
            pendingSends.append((type, fd))
            return
        }
        let reader = FileDescriptor(adopting: fd)
        guard let bytes = sourceData?(type), !bytes.isEmpty else { return }
        try? reader.setNonBlocking()
        try? reader.writeAll(bytes, before: .now + writeTimeout)
    }

    // MARK: - The display

    /// `wl_display_connect` with an absolute socket path (never the process's environment).
    private static func connect(_ socketPath: String) throws(WaylandError) -> OpaquePointer {
        guard let display = wl_display_connect(socketPath) else {
            throw .cannotConnect(socket: socketPath, errno: Errno(rawValue: errno))
        }
        return display
    }

    /// Sends a `wl_display.sync` and dispatches until its `done`: every request before it is
    /// handled and every event it caused has arrived.
    private func roundTrip(before deadline: ContinuousClock.Instant) throws(WaylandError) {
        try awaitSync(requestSync(), before: deadline)
    }

    /// Queues a `wl_display.sync` (sent with the next flush).
    private func requestSync() -> PendingSync {
        let callback = cwayland_display_sync(display)
        _ = cwayland_callback_add_listener(callback, listeners.callback, Unmanaged.passUnretained(self).toOpaque())
        syncsSent += 1
        return PendingSync(callback: callback, target: syncsSent)
    }

    /// Dispatches until `sync` is answered, then frees its callback.
    private func awaitSync(_ sync: PendingSync, before deadline: ContinuousClock.Instant) throws(WaylandError) {
        defer { wl_proxy_destroy(sync.callback) }
        while syncsDone < sync.target { try Self.dispatch(display, before: deadline) }
    }

    /// Sends what is queued, waiting while the socket is full.
    private static func flush(_ display: OpaquePointer, before deadline: ContinuousClock.Instant?) throws(WaylandError)
    {
        while wl_display_flush(display) < 0 {
            let failure = errno
            guard failure == EAGAIN else { throw .connectionLost(errno: Errno(rawValue: failure)) }
            let fd = wl_display_get_fd(display)
            let ready =
                (try? FileDescriptor.withUnowned(fd) { (socket) throws(Errno) in
                    try socket.wait(for: .writable, before: deadline)
                }) ?? false
            if !ready { throw .timedOut }
        }
    }

    /// Dispatches what is queued, or else waits for events until `deadline` and dispatches
    /// them: the poll-based loop of `wl_display_prepare_read` (libwayland's way for a caller
    /// that waits with its own deadline).
    private static func dispatch(_ display: OpaquePointer, before deadline: ContinuousClock.Instant?)
        throws(WaylandError)
    {
        if wl_display_prepare_read(display) != 0 {
            // Events are queued already: handle them, the caller looks again.
            if wl_display_dispatch_pending(display) < 0 { throw lost(display) }
            return
        }
        do { try flush(display, before: deadline) } catch {
            wl_display_cancel_read(display)
            throw error
        }
        let fd = wl_display_get_fd(display)
        let ready: Bool
        do {
            ready = try FileDescriptor.withUnowned(fd) { (socket) throws(Errno) in
                try socket.wait(for: .readable, before: deadline)
            }
        } catch {
            wl_display_cancel_read(display)
            throw .connectionLost(errno: error)
        }
        guard ready else {
            wl_display_cancel_read(display)
            throw .timedOut
        }
        if wl_display_read_events(display) < 0 { throw lost(display) }
        if wl_display_dispatch_pending(display) < 0 { throw lost(display) }
    }

    /// Handles what is queued and what the socket holds, without waiting: libwayland's read
    /// (`wl_display_read_events`) does not block, and finds nothing without an error.
    private static func dispatchArrived(_ display: OpaquePointer) throws(WaylandError) {
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { throw lost(display) }
        }
        if wl_display_read_events(display) < 0 { throw lost(display) }
        if wl_display_dispatch_pending(display) < 0 { throw lost(display) }
    }

    /// The connection's failure (`wl_display_get_error`), for a call that returned -1.
    private static func lost(_ display: OpaquePointer) -> WaylandError {
        let code = wl_display_get_error(display)
        return .connectionLost(errno: Errno(rawValue: code != 0 ? code : EPIPE))
    }
}

@available(*, unavailable, message: "a wl_display belongs to one thread")
extension DataControlSession: Sendable {}

// MARK: - The kept session

/// A sync sent and not yet answered: its callback, and the count of answered syncs that means
/// it is (`DataControlSession.syncsDone`).
private struct PendingSync {
    let callback: OpaquePointer?
    let target: Int
}

/// The session `DataControlSession.probe` keeps for the process's next `open` of the same
/// socket: a shared cache behind a `Mutex` (STYLE rule 23), one entry per socket.
///
/// `@unchecked Sendable`: the session is not (a `wl_display` belongs to one thread), but it is
/// reachable only through `keep` and `take`, under the lock, so one thread at a time holds it:
/// the one that took it, which dispatches on it from then on. The process id tells a forked
/// child's inherited copy, which shares the parent's socket (or holds its closed number): it is
/// never used, and never freed, since freeing sends destroy requests.
private struct KeptSession: @unchecked Sendable {
    let session: DataControlSession
    let processID: pid_t

    private static let kept = Mutex<[String: KeptSession]>([:])

    /// Keeps `session` for `socketPath`, closing the one kept before for it (or forgetting it
    /// without a word, when it is a forked parent's).
    static func keep(_ session: DataControlSession, for socketPath: String) {
        let entry = KeptSession(session: session, processID: getpid())
        let previous = kept.withLock { kept in kept.updateValue(entry, forKey: socketPath) }
        if let previous, previous.processID != entry.processID { previous.session.forget() }
    }

    /// Runs `body` on the session this process kept for `socketPath`, leaving it kept.
    static func withKept<Result: Sendable>(for socketPath: String, _ body: (DataControlSession) -> Result) -> Result? {
        kept.withLock { kept in kept[socketPath].map { body($0.session) } }
    }

    /// The session this process kept for `socketPath`, taken out; nil when there is none.
    static func take(for socketPath: String) -> DataControlSession? {
        let processID = getpid()
        return kept.withLock { kept -> KeptSession? in
            guard let entry = kept[socketPath], entry.processID == processID else { return nil }
            kept[socketPath] = nil
            return entry
        }?.session
    }
}

// MARK: - The probe's state

/// What `DataControlSession.globals(at:before:)` collects.
private final class Probe {
    var globals: [WaylandGlobal] = []
    var isDone = false
}

// MARK: - Listeners

extension DataControlProtocol {
    /// The protocol's interface table (C statics: valid for the life of the process).
    var table: UnsafePointer<cwayland_data_control_protocol> {
        switch self {
        case .ext: cwayland_data_control_ext()
        case .wlr: cwayland_data_control_wlr()
        }
    }
}

/// The listener tables, one allocation each, owned by the session (libwayland keeps the
/// pointers, so they must outlive every proxy they are set on).
private final class Listeners {
    let registry = make(
        cwayland_registry_listener(
            global: { data, _, name, interface, version in
                session(data).announce(
                    WaylandGlobal(name: name, interface: String(cString: interface!), version: version))
            },
            global_remove: { _, _, _ in }))
    let callback = make(cwayland_callback_listener(done: { data, _, _ in session(data).syncDone() }))
    let probeRegistry = make(
        cwayland_registry_listener(
            global: { data, _, name, interface, version in
                Unmanaged<Probe>.fromOpaque(data!).takeUnretainedValue().globals.append(
                    WaylandGlobal(name: name, interface: String(cString: interface!), version: version))
            },
            global_remove: { _, _, _ in }))
    let probeCallback = make(
        cwayland_callback_listener(done: { data, _, _ in
            Unmanaged<Probe>.fromOpaque(data!).takeUnretainedValue().isDone = true
        }))
    let device = make(
        cwayland_device_listener(
            data_offer: { data, _, offer in session(data).newOffer(offer!) },
            selection: { data, _, offer in session(data).selectionChanged(.regular, to: offer) },
            finished: { data, _ in session(data).finished() },
            primary_selection: { data, _, offer in session(data).selectionChanged(.primary, to: offer) }))
    let offer = make(
        cwayland_offer_listener(offer: { data, offer, type in
            session(data).offerType(offer!, String(cString: type!))
        }))
    let source = make(
        cwayland_source_listener(
            send: { data, _, type, fd in session(data).send(String(cString: type!), to: fd) },
            cancelled: { data, _ in session(data).cancelled() }))

    private static func make<Listener>(_ listener: Listener) -> UnsafeMutablePointer<Listener> {
        let pointer = UnsafeMutablePointer<Listener>.allocate(capacity: 1)
        pointer.initialize(to: listener)
        return pointer
    }

    deinit {
        registry.deallocate()
        callback.deallocate()
        probeRegistry.deallocate()
        probeCallback.deallocate()
        device.deallocate()
        offer.deallocate()
        source.deallocate()
    }
}

/// The session a trampoline's user data points at (unretained: it outlives its proxies).
private func session(_ data: UnsafeMutableRawPointer?) -> DataControlSession {
    Unmanaged<DataControlSession>.fromOpaque(data!).takeUnretainedValue()
}

/// Ends the blocking waits of a `DataControlSession` that runs on another thread: the thread
/// that owns the session attaches it (`DataControlSession.attach`), any thread may `interrupt`.
///
/// Interrupting shuts the connection's socket down (`shutdown(2)` on a duplicate descriptor,
/// which acts on the socket both descriptors name): the session's `poll` wakes, its read fails
/// and the wait throws `WaylandError.connectionLost`. The duplicate is closed in `deinit`.
public final class DataControlInterrupter: Sendable {
    private let state = Mutex<State>(.idle)

    private enum State {
        case idle
        case attached(Int32)
        case interrupted
    }

    /// Makes an interrupter with no session attached.
    public init() {}

    deinit {
        state.withLock { state in
            if case .attached(let socket) = state { close(socket) }
        }
    }

    /// Keeps a duplicate of `socket`; false (nothing kept) when already interrupted.
    fileprivate func attach(socket: Int32) -> Bool {
        state.withLock { state in
            guard case .idle = state else { return false }
            let copy = dup(socket)
            if copy >= 0 { state = .attached(copy) }
            return true
        }
    }

    /// Wakes the attached session's wait for good, or keeps a session attached later from
    /// waiting at all. Wraps `shutdown(2)`.
    public func interrupt() {
        state.withLock { state in
            if case .attached(let socket) = state {
                _ = shutdown(socket, Int32(SHUT_RDWR))
                close(socket)
            }
            state = .interrupted
        }
    }
}
