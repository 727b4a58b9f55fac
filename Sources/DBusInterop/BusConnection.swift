internal import CDBus
import SystemInterop

/// A private connection to a message bus: the one owner of a libdbus `DBusConnection *`.
///
/// Opened with `dbus_connection_open_private` and registered with the bus by its `Hello`
/// (spec: "Message Bus Messages"), closed and released with `dbus_connection_close` and
/// `dbus_connection_unref` in `deinit`. Private, so nothing else in the process shares it, and
/// never the shared `dbus_bus_get` connection, whose default is to `_exit` the process when the
/// bus goes away.
///
/// Every wait has a deadline and waits with SystemInterop's `poll` on the connection's socket;
/// libdbus itself only moves bytes without blocking (`dbus_connection_read_write` with a zero
/// timeout), so no call here blocks longer than its deadline. A connection belongs to the one
/// thread that uses it (STYLE rule 19): it is deliberately not `Sendable`, and it must not be
/// used from the Swift concurrency pool, since its waits block the calling thread.
public final class BusConnection {
    /// The libdbus handle, valid until `deinit`.
    private let handle: OpaquePointer
    /// The name the bus gave this connection in its `Hello` reply (`:1.42`).
    public private(set) var uniqueName = ""
    /// Signals read while waiting for a reply, delivered first by `nextSignal`.
    private var queuedSignals: [BusSignal] = []

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        dbus_connection_close(handle)
        dbus_connection_unref(handle)
    }

    /// Connects to the bus at `address` and registers with it.
    ///
    /// Wraps `dbus_connection_open_private`, then calls `org.freedesktop.DBus.Hello` and tells
    /// libdbus the unique name it returned (`dbus_bus_set_unique_name`). The address is passed
    /// explicitly: this never reads `DBUS_SESSION_BUS_ADDRESS` itself.
    /// - Parameters:
    ///   - address: a D-Bus server address (`unix:path=/run/user/1000/bus`).
    ///   - deadline: when to give up on the bus's answer.
    /// - Throws: `BusError.noAddress` for an empty address, `.cannotConnect` when nothing
    ///   listens there, `.timedOut` when the bus does not answer in time.
    public static func open(address: String, before deadline: ContinuousClock.Instant) throws(BusError)
        -> BusConnection
    {
        guard !address.isEmpty else { throw .noAddress }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let handle = dbus_connection_open_private(address, &error) else {
            let (name, message) = taken(&error)
            throw .cannotConnect(address: address, name: name, message: message)
        }
        // A private connection does not exit the process on disconnection unless told to; say so
        // anyway, since that default is the opposite for the shared one.
        dbus_connection_set_exit_on_disconnect(handle, 0)
        let connection = BusConnection(handle: handle)
        let reply = try connection.call(
            BusMethodCall(
                destination: BusConnection.busName, path: "/org/freedesktop/DBus", interface: BusConnection.busName,
                member: "Hello"),
            before: deadline)
        guard let name = reply.first?.stringValue else {
            throw .unexpectedReply(member: "Hello", signature: reply.map(\.signature).joined())
        }
        connection.uniqueName = name
        _ = dbus_bus_set_unique_name(handle, name)
        return connection
    }

    /// The bus's own name and interface (`org.freedesktop.DBus`).
    static let busName = "org.freedesktop.DBus"

    // MARK: - Calls

    /// Calls a method and waits for its reply.
    ///
    /// Wraps `dbus_message_new_method_call` and `dbus_connection_send`; the reply is the message
    /// whose reply serial is the call's (`dbus_message_get_reply_serial`). Signals that arrive
    /// meanwhile are kept for `nextSignal`.
    /// - Returns: the reply's arguments.
    /// - Throws: `BusError.failed` with the error the peer answered, `.timedOut` at the
    ///   deadline, `.disconnected` when the bus went away.
    @discardableResult
    public func call(_ call: BusMethodCall, before deadline: ContinuousClock.Instant) throws(BusError) -> [BusValue] {
        try reply(to: call, before: deadline).arguments
    }

    /// Calls a method and waits for its reply, with the reply's sender: the unique name of the
    /// connection that owned the called name and answered (`dbus_message_get_sender`), which
    /// the peer's later signals carry too, where a well-known name can change hands.
    ///
    /// - Returns: the reply's sender and arguments.
    /// - Throws: as `call(_:before:)`.
    public func reply(to call: BusMethodCall, before deadline: ContinuousClock.Instant) throws(BusError) -> BusReply {
        guard
            let message = dbus_message_new_method_call(call.destination, call.path, call.interface, call.member)
        else { throw .outOfMemory }
        defer { dbus_message_unref(message) }
        try BusConnection.append(call.arguments, to: message)
        var serial: dbus_uint32_t = 0
        guard dbus_connection_send(handle, message, &serial) != 0 else { throw .outOfMemory }
        guard
            let reply = try receive(before: deadline, where: { dbus_message_get_reply_serial($0) == serial })
        else { throw .timedOut(member: call.member) }
        defer { dbus_message_unref(reply) }
        let arguments = BusConnection.arguments(of: reply)
        if dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR {
            let name = dbus_message_get_error_name(reply).map { String(cString: $0) } ?? ""
            throw .failed(member: call.member, name: name, message: arguments.first?.stringValue ?? "")
        }
        return BusReply(sender: dbus_message_get_sender(reply).map { String(cString: $0) }, arguments: arguments)
    }

    /// Asks the bus to route the signals a match rule describes to this connection.
    ///
    /// Calls `org.freedesktop.DBus.AddMatch` (spec: "Match Rules") rather than `dbus_bus_add_match`,
    /// which blocks without a deadline.
    /// - Parameter rule: such as `type='signal',interface='org.freedesktop.Notifications'`.
    public func addMatch(_ rule: String, before deadline: ContinuousClock.Instant) throws(BusError) {
        try call(
            BusMethodCall(
                destination: BusConnection.busName, path: "/org/freedesktop/DBus", interface: BusConnection.busName,
                member: "AddMatch", arguments: [.string(rule)]),
            before: deadline)
    }

    /// The next signal this connection receives (one its match rules route to it, or one sent to
    /// it alone), waiting until `deadline`.
    ///
    /// - Parameter deadline: when to stop waiting; nil waits as long as the connection lives.
    /// - Returns: the signal, or nil at the deadline.
    /// - Throws: `BusError.disconnected` when the bus went away.
    public func nextSignal(before deadline: ContinuousClock.Instant?) throws(BusError) -> BusSignal? {
        if !queuedSignals.isEmpty { return queuedSignals.removeFirst() }
        guard
            let message = try receive(
                before: deadline, where: { dbus_message_get_type($0) == DBUS_MESSAGE_TYPE_SIGNAL })
        else { return nil }
        defer { dbus_message_unref(message) }
        return BusConnection.signal(from: message)
    }

    /// Forgets the signals received but not yet taken (`nextSignal`) that `isStale` names: those
    /// that arrived before a reply, once the reply made them mean nothing (a notification shown
    /// again in place of one whose closing is still queued).
    public func discardQueuedSignals(where isStale: (BusSignal) -> Bool) {
        queuedSignals.removeAll(where: isStale)
    }

    // MARK: - Moving messages

    /// Moves bytes until a message `isWanted` accepts arrives, keeping the signals before it.
    ///
    /// One round is `dbus_connection_read_write(…, 0)` (write what is queued, read what has come,
    /// never blocking), then every whole message is taken with `dbus_connection_pop_message`;
    /// when none is wanted, the socket (`dbus_connection_get_unix_fd`) is waited on with `poll`
    /// until it is readable, or writable while messages wait to go out. During the
    /// authentication handshake the socket is writable while the bus has not answered yet, so
    /// those few rounds do not sleep: a local bus answers in well under a millisecond.
    /// - Returns: the message (the caller unrefs it), or nil at the deadline.
    private func receive(
        before deadline: ContinuousClock.Instant?, where isWanted: (OpaquePointer) -> Bool
    ) throws(BusError) -> OpaquePointer? {
        while true {
            let isOpen = dbus_connection_read_write(handle, 0) != 0
            while let message = dbus_connection_pop_message(handle) {
                if dbus_message_is_signal(message, BusConnection.localInterface, "Disconnected") != 0 {
                    dbus_message_unref(message)
                    throw .disconnected
                }
                if isWanted(message) { return message }
                if dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL {
                    queuedSignals.append(BusConnection.signal(from: message))
                }
                // Anything else (a method call to us, a late reply) has no taker: dropped.
                dbus_message_unref(message)
            }
            guard isOpen, dbus_connection_get_is_connected(handle) != 0 else { throw .disconnected }
            var socket: Int32 = -1
            guard dbus_connection_get_unix_fd(handle, &socket) != 0, socket >= 0 else { throw .disconnected }
            let readiness: FileDescriptor.Readiness =
                dbus_connection_has_messages_to_send(handle) != 0 ? .readableOrWritable : .readable
            let isReady: Bool
            do {
                isReady = try FileDescriptor.withUnowned(socket) { (descriptor) throws(Errno) -> Bool in
                    try descriptor.wait(for: readiness, before: deadline)
                }
            } catch {
                throw .wait(error)
            }
            if !isReady { return nil }
        }
    }

    /// libdbus's interface for what happens to the connection itself
    /// (`DBUS_INTERFACE_LOCAL`): its `Disconnected` signal is the last message.
    static let localInterface = "org.freedesktop.DBus.Local"

    /// A received signal as a value. Reads `dbus_message_get_sender`, `…_get_path`,
    /// `…_get_interface` and `…_get_member`.
    private static func signal(from message: OpaquePointer) -> BusSignal {
        func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        return BusSignal(
            sender: text(dbus_message_get_sender(message)), path: text(dbus_message_get_path(message)) ?? "",
            interface: text(dbus_message_get_interface(message)) ?? "",
            member: text(dbus_message_get_member(message)) ?? "", arguments: arguments(of: message))
    }

    /// The error's name and message, then frees it (`dbus_error_free`).
    private static func taken(_ error: inout CDBus.DBusError) -> (name: String, message: String) {
        let name = error.name.map { String(cString: $0) } ?? ""
        let message = error.message.map { String(cString: $0) } ?? ""
        dbus_error_free(&error)
        return (name, message)
    }
}

@available(*, unavailable, message: "a bus connection belongs to the thread that uses it")
extension BusConnection: Sendable {}
