internal import Glibc
internal import Synchronization
public import SystemInterop

/// A connection to a Wayland compositor with a data-control device on its seat: reads the
/// selections and sets them, without a surface or keyboard focus. The one owner of the
/// connection (`WaylandWire`, paste's own wire client) and of every object made on it.
///
/// Opening it (`init`) connects, reads the registry (one round trip), binds the data-control
/// manager (`DataControlProtocol.choose`: ext where offered, else wlr) and the first seat, and
/// makes the device; a second round trip brings the device's first events: the current
/// selection's offer and its MIME types, and the primary selection's.
/// `probe(at:before:)` does the first half and asks for the device without waiting, keeping
/// the connection for this process's next `open(socketPath:before:)`: a backend's probe and
/// the read after it share one connection, and the device's round trip runs while the caller
/// does other work.
///
/// The objects are the protocol's ids: the display is 1, the ones this client makes count up
/// from 2 (never reused: the compositor takes a new id that is one past the highest, or a freed
/// one), the ones the compositor makes (offers) are its own, from 0xff000000. Each event is
/// read by what its object is (`WaylandObject`); an event for an object not known (one
/// destroyed meanwhile) is dropped, its descriptors closed.
///
/// A connection belongs to one thread (like an X `Display`): this class is not `Sendable`,
/// and nothing here dispatches from another thread. Every wait has a deadline (`poll` on the
/// connection's socket).
public final class DataControlSession {
    private let wire: WaylandWire
    /// What each id this session knows is.
    private var objects: [UInt32: WaylandObject] = [WaylandObject.displayID: .display]
    /// The id the next object this client makes gets.
    private var nextID: UInt32 = WaylandObject.displayID + 1
    private var registry: UInt32 = 0
    private var manager: UInt32 = 0
    private var device: UInt32 = 0
    /// The version the manager was bound at (the device's version too).
    private var managerVersion: UInt32 = 0
    /// The protocol in use (set once the manager is bound).
    public private(set) var dataControl = DataControlProtocol.wlr
    /// What the registry announced.
    public private(set) var globals: [WaylandGlobal] = []
    /// Offers announced and the MIME types each one named so far.
    private var offerTypes: [UInt32: [String]] = [:]
    /// The offers of the current selection and primary selection (nil: nothing selected).
    private var regularOffer: UInt32?
    private var primaryOffer: UInt32?
    private var isFinished = false
    /// The source of ours that is the selection, what it serves, and whether it was replaced.
    private var source: UInt32?
    /// The MIME types offered on `source` so far.
    private var sourceTypes: [String] = []
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
        try DataControlSession(connectingTo: socketPath, before: deadline).globals
    }

    /// Connects and makes the device (see the type's summary).
    ///
    /// - Parameters:
    ///   - socketPath: the compositor's socket, absolute.
    ///   - deadline: when to give up waiting for the compositor.
    /// - Throws: `WaylandError.cannotConnect`, `.noDataControl`, `.noSeat`, `.timedOut`,
    ///   `.connectionLost`, `.protocolError`.
    public convenience init(socketPath: String, before deadline: ContinuousClock.Instant) throws(WaylandError) {
        try self.init(connectingTo: socketPath, before: deadline)
        try makeDevice(before: deadline)
    }

    /// Makes the device and waits for its first events (the second round trip of `init`).
    func makeDevice(before deadline: ContinuousClock.Instant) throws(WaylandError) {
        try requestDevice()
        try roundTrip(before: deadline)
        if isFinished { throw .deviceFinished }
    }

    /// Connects and reads the registry (one round trip): `globals` is known, nothing is bound.
    private convenience init(connectingTo socketPath: String, before deadline: ContinuousClock.Instant)
        throws(WaylandError)
    {
        try self.init(wire: WaylandWire(connectingTo: socketPath), before: deadline)
    }

    /// Asks for the registry on `wire` and waits for its globals (for tests: a scripted
    /// compositor at the other end of a socket pair).
    init(wire: WaylandWire, before deadline: ContinuousClock.Instant) throws(WaylandError) {
        self.wire = wire
        // Every other property has its initial value: from here on a failure runs `deinit`.
        registry = make(.registry)
        wire.request(WaylandObject.displayID, WaylandObject.getRegistry, "n", words: [registry])
        try roundTrip(before: deadline)
    }

    /// Binds the data-control manager and the first seat and asks for the device; its first
    /// events come with the next round trip's answer.
    func requestDevice() throws(WaylandError) {
        guard let (chosen, managerGlobal) = DataControlProtocol.choose(among: globals) else { throw .noDataControl }
        guard let seatGlobal = globals.first(where: { $0.interface == "wl_seat" }) else { throw .noSeat }
        dataControl = chosen
        manager = bind(managerGlobal, as: .manager)
        managerVersion = managerGlobal.version
        // Version 1: paste reads none of the seat's events and sends it no request.
        let seat = bind(WaylandGlobal(name: seatGlobal.name, interface: seatGlobal.interface, version: 1), as: .seat)
        device = make(.device)
        wire.request(manager, WaylandObject.getDataDevice, "no", words: [device, seat])
    }

    /// `wl_registry.bind` of `global` at its version, as a new object of `kind`.
    private func bind(_ global: WaylandGlobal, as kind: WaylandObject) -> UInt32 {
        let id = make(kind)
        // A new_id without a fixed interface goes on the wire as interface, version, id.
        wire.request(
            registry, WaylandObject.bind, "usun", words: [global.name, global.version, id], string: global.interface)
        return id
    }

    /// A new id for an object of `kind` this client makes.
    private func make(_ kind: WaylandObject) -> UInt32 {
        let id = nextID
        nextID += 1
        objects[id] = kind
        return id
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
    /// - Throws: `WaylandError.cannotConnect`, `.timedOut`, `.connectionLost`, `.protocolError`.
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
        session.wire.flushIfPossible()
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
            shutdown(session.wire.socket, Int32(SHUT_RDWR)) == 0
        } ?? false
    }

    /// Sends the device a request its protocol does not have, which a compositor answers with
    /// `wl_display.error` and the connection's end, and waits for that answer (for tests of the
    /// error's line against a real compositor).
    func provokeProtocolError(before deadline: ContinuousClock.Instant) throws(WaylandError) {
        wire.request(device, Self.undefinedOpcode)
        try roundTrip(before: deadline)
    }

    /// An opcode no data-control device has (it has three requests).
    static let undefinedOpcode: UInt16 = 99

    /// Waits for the device `probe` asked for, then handles what has arrived since.
    func awaitDevice(before deadline: ContinuousClock.Instant) throws(WaylandError) {
        guard let sync = deviceSync.take() else { return }
        try awaitSync(sync, before: deadline)
        if isFinished { throw .deviceFinished }
        // Events in the socket after the sync's answer (a copy made since): handled now, so the
        // selection is the compositor's latest.
        try dispatchArrived()
        if isFinished { throw .deviceFinished }
    }

    deinit {
        // Abandoned: the socket is closed and the compositor's objects are the child's; sending
        // a destroy now could only reach another descriptor given the same number.
        guard !isAbandoned else { return }
        for pending in pendingSends { close(pending.reader) }
        // The destroy requests, sent if the socket takes them (the compositor frees the
        // objects when the connection closes in any case); the wire closes itself after.
        if let source { wire.request(source, WaylandObject.destroy) }
        for offer in offerTypes.keys { wire.request(offer, WaylandObject.destroy) }
        if device != 0 { wire.request(device, WaylandObject.destroy) }
        if manager != 0 { wire.request(manager, WaylandObject.destroyManager) }
        wire.flushIfPossible()
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
    /// Sends `…_offer_v1.receive`: the owner writes to the other end of the returned descriptor
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
        // The wire duplicates the descriptor when it queues the request: ours to close.
        wire.request(offer, WaylandObject.receive, "sh", string: mimeType, descriptor: theirs.rawValue)
        _ = consume theirs
        try wire.flush(before: deadline)
        return ours
    }

    private func offer(of selection: SeatSelection) -> UInt32? {
        switch selection {
        case .regular: regularOffer
        case .primary: primaryOffer
        }
    }

    // MARK: - Writing

    /// Makes the source and offers `mimeTypes`, without setting it as a selection: sent now (if
    /// the socket takes it), so the compositor handles it while the caller waits for something
    /// else (the hotkey's upload), and after that only `set_selection` and its round trip are
    /// left (`setSelection`). Until then nothing on the seat changes:
    /// released unset, the source goes with the session.
    ///
    /// - Parameter mimeTypes: the types offered first; `setSelection`'s must begin with them.
    public func prepareSource(offering mimeTypes: [String]) {
        precondition(source == nil, "WaylandInterop: one source per session")
        offerOnSource(mimeTypes)
        wire.flushIfPossible()
    }

    /// Makes the source if there is none, and offers those of `mimeTypes` not offered yet
    /// (`mimeTypes` begins with those).
    private func offerOnSource(_ mimeTypes: [String]) {
        let made: UInt32
        if let source {
            made = source
        } else {
            made = make(.source)
            wire.request(manager, WaylandObject.createDataSource, "n", words: [made])
            source = made
        }
        precondition(
            mimeTypes.starts(with: sourceTypes), "WaylandInterop: the types offered must begin with those prepared")
        for type in mimeTypes.dropFirst(sourceTypes.count) {
            wire.request(made, WaylandObject.offerType, "s", string: type)
        }
        sourceTypes = mimeTypes
    }

    /// Makes a source offering `mimeTypes` (or offers the rest on the one `prepareSource`
    /// made), sets it as `selection`, and confirms it with a round trip: no `cancelled` by then
    /// means the seat's selection is ours.
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
        precondition(sourceData == nil, "WaylandInterop: one selection per source")
        if selection == .primary, !hasPrimarySelection { throw .noPrimarySelection }
        offerOnSource(mimeTypes)
        sourceData = data
        self.writeTimeout = writeTimeout
        requestSetSelection(selection, to: source)
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
        if selection == .primary, !hasPrimarySelection { throw .noPrimarySelection }
        requestSetSelection(selection, to: nil)
        try roundTrip(before: deadline)
    }

    /// `set_primary_selection` came with wlr-data-control version 2 (ext has it from the start):
    /// sent on a version 1 device it would be a protocol error that ends the connection.
    private var hasPrimarySelection: Bool { dataControl == .ext || managerVersion >= 2 }

    /// `…_device_v1.set_selection` or `set_primary_selection` of `source` (nil: none).
    private func requestSetSelection(_ selection: SeatSelection, to source: UInt32?) {
        let opcode = selection == .primary ? WaylandObject.setPrimarySelection : WaylandObject.setSelection
        wire.request(device, opcode, "?o", words: [source ?? 0])
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
            try dispatch(before: nil)
        }
    }

    // MARK: - Handing over to a forked child

    /// The connection's socket and the descriptors of readers waiting for `serve`: what a
    /// forked child that serves this session must keep open.
    public var descriptorsToKeep: [Int32] {
        [wire.socket] + pendingSends.map(\.reader)
    }

    /// Gives the connection up without a word on it, in the parent of a forked child that goes
    /// on with this session (the X11 side's `Display.abandon`): the socket and the waiting
    /// readers' descriptors are closed here, nothing is sent (a destroy request would end the
    /// child's source), and nothing is freed: the caller is about to leave. Any later use of
    /// the session is a programming error.
    public func abandon() {
        precondition(!isAbandoned, "WaylandInterop: session abandoned twice")
        isAbandoned = true
        wire.abandon()
        for pending in pendingSends { close(pending.reader) }
        pendingSends = []
    }

    /// Drops the session without closing or sending anything: a copy inherited through `fork`,
    /// whose socket is the parent's (or was closed, its number perhaps reused).
    fileprivate func forget() {
        isAbandoned = true
        wire.forget()
    }

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
            try dispatch(before: deadline)
        }
        return offeredTypes(selection)
    }

    /// Lets `interrupter` end this session's waits from another thread: it gets a descriptor
    /// of the connection's socket of its own (`dup`), which it shuts down on `interrupt`.
    ///
    /// - Returns: false when `interrupter` was interrupted already (the caller then stops).
    public func attach(_ interrupter: DataControlInterrupter) -> Bool {
        interrupter.attach(socket: wire.socket)
    }

    // MARK: - Events

    /// Handles the events read and whole, in order.
    ///
    /// - Returns: whether there was one.
    private func handleEvents() throws(WaylandError) -> Bool {
        var handled = false
        while var event = try wire.next() {
            handled = true
            try handle(&event)
            wire.consume(event)
        }
        return handled
    }

    /// Gives one event its meaning (wayland.xml and protocols/*.xml say what each carries).
    private func handle(_ event: inout WaylandEvent) throws(WaylandError) {
        let id = event.object
        // Not known: an object destroyed meanwhile (an offer replaced, a callback answered).
        // Only a source's `send` carries a descriptor, and sources stay known.
        guard let kind = objects[id] else { return }
        switch (kind, event.opcode) {
        case (.display, WaylandObject.error):
            try wire.decode(&event, "?ou?s")
            let object = event.word(0)
            throw wire.fail(
                .protocolError(
                    interface: objects[object].map(interfaceName) ?? "object \(object)", code: event.word(1),
                    message: event.string(2) ?? ""))
        case (.display, WaylandObject.deleteID):
            try wire.decode(&event, "u")
            // The compositor is done with it: an id this client made stays unused (`nextID`).
            let deleted = event.word(0)
            if deleted != source { objects[deleted] = nil }
        case (.registry, WaylandObject.global):
            try wire.decode(&event, "usu")
            globals.append(
                WaylandGlobal(name: event.word(0), interface: event.string(1) ?? "", version: event.word(2)))
        case (.registry, _), (.seat, _):
            // `global_remove`; the seat's capabilities: nothing paste needs.
            break
        case (.callback, WaylandObject.done):
            syncsDone += 1
            objects[id] = nil
        case (.device, WaylandObject.dataOffer):
            try wire.decode(&event, "n")
            let offer = event.word(0)
            objects[offer] = .offer
            offerTypes[offer] = []
        case (.device, WaylandObject.selection):
            try wire.decode(&event, "?o")
            selectionChanged(.regular, to: event.word(0))
        case (.device, WaylandObject.finished):
            isFinished = true
        case (.device, WaylandObject.primarySelection):
            try wire.decode(&event, "?o")
            selectionChanged(.primary, to: event.word(0))
        case (.offer, WaylandObject.offerType):
            try wire.decode(&event, "s")
            if let type = event.string(0) { offerTypes[id]?.append(type) }
        case (.source, WaylandObject.send):
            try wire.decode(&event, "sh")
            let reader = event.descriptor(1)
            guard id == source, let type = event.string(0) else {
                close(reader)
                return
            }
            send(type, to: reader)
        case (.source, WaylandObject.cancelled):
            if id == source { isCancelled = true }
        default:
            // An event the protocol does not have (libwayland ends the connection the same way).
            throw wire.fail(.connectionLost(errno: Errno(rawValue: EPROTO)))
        }
    }

    /// The interface of an object of `kind`, for a protocol error's message.
    private func interfaceName(_ kind: WaylandObject) -> String {
        let prefix = dataControl == .ext ? "ext_data_control_" : "zwlr_data_control_"
        return switch kind {
        case .display: "wl_display"
        case .registry: "wl_registry"
        case .callback: "wl_callback"
        case .seat: "wl_seat"
        case .manager: prefix + "manager_v1"
        case .device: prefix + "device_v1"
        case .source: prefix + "source_v1"
        case .offer: prefix + "offer_v1"
        }
    }

    private func selectionChanged(_ selection: SeatSelection, to id: UInt32) {
        let offer = id == 0 ? nil : id
        let previous: UInt32?
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
            objects[previous] = nil
            wire.request(previous, WaylandObject.destroy)
        }
    }

    private func send(_ type: String, to fd: Int32) {
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

    // MARK: - Round trips and dispatching

    /// Sends a `wl_display.sync` and dispatches until its `done`: every request before it is
    /// handled and every event it caused has arrived.
    private func roundTrip(before deadline: ContinuousClock.Instant) throws(WaylandError) {
        try awaitSync(requestSync(), before: deadline)
    }

    /// Queues a `wl_display.sync` (sent with the next flush).
    private func requestSync() -> PendingSync {
        wire.request(WaylandObject.displayID, WaylandObject.sync, "n", words: [make(.callback)])
        syncsSent += 1
        return PendingSync(target: syncsSent)
    }

    /// Dispatches until `sync` is answered.
    private func awaitSync(_ sync: PendingSync, before deadline: ContinuousClock.Instant) throws(WaylandError) {
        while syncsDone < sync.target { try dispatch(before: deadline) }
    }

    /// Handles the events read, or else sends what is queued, waits for events until
    /// `deadline` and handles them.
    private func dispatch(before deadline: ContinuousClock.Instant?) throws(WaylandError) {
        if try handleEvents() { return }
        try wire.flush(before: deadline)
        guard try wire.wait(for: .readable, before: deadline) else { throw .timedOut }
        _ = try wire.read()
        _ = try handleEvents()
    }

    /// Handles what is read and what the socket holds, without waiting.
    private func dispatchArrived() throws(WaylandError) {
        _ = try handleEvents()
        while try wire.read() { _ = try handleEvents() }
    }
}

@available(*, unavailable, message: "a Wayland connection belongs to one thread")
extension DataControlSession: Sendable {}

// MARK: - The objects

/// What an object of a session is, and the opcodes of the requests and events paste uses
/// (wayland.xml; protocols/*.xml, where ext and wlr number theirs alike).
enum WaylandObject {
    case display, registry, callback, seat, manager, device, source, offer

    /// `wl_display`, the one object that exists before any request.
    static let displayID: UInt32 = 1

    // Requests.
    /// `wl_display.sync`.
    static let sync: UInt16 = 0
    /// `wl_display.get_registry`.
    static let getRegistry: UInt16 = 1
    /// `wl_registry.bind`.
    static let bind: UInt16 = 0
    /// The manager's `create_data_source`.
    static let createDataSource: UInt16 = 0
    /// The manager's `get_data_device`.
    static let getDataDevice: UInt16 = 1
    /// The manager's `destroy`.
    static let destroyManager: UInt16 = 2
    /// The device's `set_selection`.
    static let setSelection: UInt16 = 0
    /// The device's `set_primary_selection` (wlr since version 2).
    static let setPrimarySelection: UInt16 = 2
    /// The `destroy` of a device, a source and an offer.
    static let destroy: UInt16 = 1
    /// The source's `offer` request and the offer's `offer` event: a MIME type.
    static let offerType: UInt16 = 0
    /// The offer's `receive`.
    static let receive: UInt16 = 0

    // Events.
    /// `wl_display.error`.
    static let error: UInt16 = 0
    /// `wl_display.delete_id`.
    static let deleteID: UInt16 = 1
    /// `wl_registry.global`.
    static let global: UInt16 = 0
    /// `wl_callback.done`.
    static let done: UInt16 = 0
    /// The device's `data_offer`, `selection`, `finished` and `primary_selection`.
    static let dataOffer: UInt16 = 0
    static let selection: UInt16 = 1
    static let finished: UInt16 = 2
    static let primarySelection: UInt16 = 3
    /// The source's `send` and `cancelled`.
    static let send: UInt16 = 0
    static let cancelled: UInt16 = 1
}

/// A sync sent and not yet answered: the count of answered syncs that means it is
/// (`DataControlSession.syncsDone`).
private struct PendingSync {
    let target: Int
}

// MARK: - The kept session

/// The session `DataControlSession.probe` keeps for the process's next `open` of the same
/// socket: a shared cache behind a `Mutex` (STYLE rule 23), one entry per socket.
///
/// `@unchecked Sendable`: the session is not (a connection belongs to one thread), but it is
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
