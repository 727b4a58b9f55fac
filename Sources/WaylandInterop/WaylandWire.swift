internal import CWaylandProtocols
internal import Glibc
internal import SystemInterop

/// One connection to a compositor at the level of the wire: requests framed and sent, events
/// read and framed, descriptors beside them. The one owner of a `cwayland_wire`
/// (cwayland_wire.h), which it closes in `deinit`; what the messages mean is
/// `DataControlSession`'s.
///
/// The first failure sticks (`failure`): a request that cannot be queued, a lost or broken
/// connection, a protocol error the compositor reports. Every later `flush`, `read` or `next`
/// throws it, as libwayland's display error does.
final class WaylandWire {
    private let wire: OpaquePointer
    /// The failure that ended the connection, if one did.
    private(set) var failure: WaylandError?
    /// Whether the connection was given up without closing (`abandon`, `forget`).
    private var isLeft = false

    /// Connects to the compositor's socket at `socketPath`. Wraps `cwayland_wire_connect`.
    ///
    /// - Throws: `WaylandError.cannotConnect`.
    init(connectingTo socketPath: String) throws(WaylandError) {
        guard let wire = cwayland_wire_connect(socketPath) else {
            throw .cannotConnect(socket: socketPath, errno: Errno(rawValue: errno))
        }
        self.wire = wire
    }

    /// Takes `socket`, a connected stream socket, as the connection (for tests: one end of a
    /// socket pair, a scripted compositor at the other). Wraps `cwayland_wire_adopt`.
    init(adopting socket: consuming FileDescriptor) {
        guard let wire = cwayland_wire_adopt(socket.release()) else { fatalError("WaylandInterop: out of memory") }
        self.wire = wire
    }

    deinit {
        if !isLeft { cwayland_wire_close(wire) }
    }

    /// The connection's socket (the connection's to close).
    var socket: Int32 { cwayland_wire_socket(wire) }

    /// Closes the socket and nothing else, keeping the memory: the parent of a forked child
    /// that goes on with the connection (`DataControlSession.abandon`).
    func abandon() {
        isLeft = true
        close(socket)
    }

    /// Leaves everything as it is: a copy inherited through `fork` whose socket number may
    /// name something else by now.
    func forget() { isLeft = true }

    // MARK: - Requests

    /// Queues a request (sent at the next `flush`). `signature` names the arguments in order in
    /// libwayland's letters: `words` for i, u, o and n; `string` for the one s; `descriptor`
    /// for the one h (duplicated: the caller's stays the caller's). A request that cannot be
    /// queued becomes the connection's failure.
    func request(
        _ object: UInt32, _ opcode: UInt16, _ signature: String = "", words: [UInt32] = [], string: String? = nil,
        descriptor: Int32 = -1
    ) {
        guard failure == nil else { return }
        if cwayland_wire_marshal(wire, object, opcode, signature, words, string, descriptor) != 0 {
            failure = .connectionLost(errno: Errno(rawValue: errno))
        }
    }

    /// Sends what is queued, waiting while the socket is full.
    ///
    /// - Throws: `WaylandError.timedOut` at the deadline; the connection's failure.
    func flush(before deadline: ContinuousClock.Instant?) throws(WaylandError) {
        if let failure { throw failure }
        while cwayland_wire_flush(wire) != 0 {
            let code = errno
            guard code == EAGAIN else { throw fail(.connectionLost(errno: Errno(rawValue: code))) }
            if try !wait(for: .writable, before: deadline) { throw .timedOut }
        }
    }

    /// Sends what is queued if the socket takes it now, without waiting or throwing: the last
    /// requests of a connection about to close (their failure no longer matters).
    func flushIfPossible() { _ = cwayland_wire_flush(wire) }

    // MARK: - Events

    /// Reads what the socket holds, without waiting. Wraps `cwayland_wire_read`.
    ///
    /// - Returns: false when nothing had arrived.
    /// - Throws: `WaylandError.connectionLost` (`EPIPE` when the compositor closed it).
    func read() throws(WaylandError) -> Bool {
        if let failure { throw failure }
        let count = cwayland_wire_read(wire)
        if count > 0 { return true }
        if count == 0 { throw fail(.connectionLost(errno: .brokenPipe)) }
        let code = errno
        if code == EAGAIN { return false }
        throw fail(.connectionLost(errno: Errno(rawValue: code)))
    }

    /// Waits until the socket is `readiness` or `deadline` passes (nil: no limit).
    ///
    /// - Returns: false at the deadline.
    func wait(for readiness: FileDescriptor.Readiness, before deadline: ContinuousClock.Instant?) throws(WaylandError)
        -> Bool
    {
        do {
            return try FileDescriptor.withUnowned(socket) { (socket) throws(Errno) in
                try socket.wait(for: readiness, before: deadline)
            }
        } catch {
            throw fail(.connectionLost(errno: error))
        }
    }

    /// The next whole event read (its header: decode its arguments with `decode`, then
    /// `consume` it); nil when none has arrived whole. Wraps `cwayland_wire_next`.
    ///
    /// - Throws: `WaylandError.connectionLost(EPROTO)` for a header no compositor sends.
    func next() throws(WaylandError) -> WaylandEvent? {
        if let failure { throw failure }
        var message = cwayland_wire_message()
        switch cwayland_wire_next(wire, &message) {
        case 1: return WaylandEvent(message: message)
        case 0: return nil
        default: throw fail(.connectionLost(errno: Errno(rawValue: errno)))
        }
    }

    /// Fills `event`'s arguments by `signature` (a descriptor, 'h', becomes the caller's).
    /// Wraps `cwayland_wire_decode`.
    ///
    /// - Throws: `WaylandError.connectionLost(EPROTO)` when the event does not hold them.
    func decode(_ event: inout WaylandEvent, _ signature: String) throws(WaylandError) {
        if cwayland_wire_decode(wire, signature, &event.message) != 0 {
            throw fail(.connectionLost(errno: Errno(rawValue: errno)))
        }
    }

    /// Drops `event` (its strings with it). Wraps `cwayland_wire_consume`.
    func consume(_ event: WaylandEvent) {
        var message = event.message
        cwayland_wire_consume(wire, &message)
    }

    /// Ends the connection with `error` (the first failure stays).
    func fail(_ error: WaylandError) -> WaylandError {
        if failure == nil { failure = error }
        return failure ?? error
    }
}

@available(*, unavailable, message: "a Wayland connection belongs to one thread")
extension WaylandWire: Sendable {}

/// One event as `WaylandWire.next` framed it: the object it is for, its opcode, and once
/// decoded its arguments (strings valid until the event is consumed).
struct WaylandEvent {
    fileprivate var message: cwayland_wire_message

    /// The object the event is for.
    var object: UInt32 { message.object }
    /// Which of the object's events.
    var opcode: UInt16 { message.opcode }
    /// Its size in bytes, header included.
    var size: Int { Int(message.size) }

    /// The argument at `index` as a word (u, i, o, n).
    func word(_ index: Int) -> UInt32 { argument(index).u }

    /// The argument at `index` as a string, copied (nil for a null string).
    func string(_ index: Int) -> String? { argument(index).s.map { String(cString: $0) } }

    /// The argument at `index` as a descriptor (the caller's to close).
    func descriptor(_ index: Int) -> Int32 { argument(index).i }

    private func argument(_ index: Int) -> cwayland_wire_argument {
        switch index {
        case 0: message.arguments.0
        case 1: message.arguments.1
        case 2: message.arguments.2
        default: message.arguments.3
        }
    }
}
