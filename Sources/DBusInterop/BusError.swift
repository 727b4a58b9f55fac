import SystemInterop

/// Why a D-Bus operation failed.
///
/// The one error type of DBusInterop: libdbus's `DBusError` (a name and a message) and the
/// connection's descriptor errors are translated here, so nothing of libdbus escapes the module.
public enum BusError: Error, Equatable, Sendable {
    /// No session bus address was given (`DBUS_SESSION_BUS_ADDRESS` unset or empty).
    case noAddress
    /// The address could not be connected to: libdbus's error name and message.
    case cannotConnect(address: String, name: String, message: String)
    /// The bus or the peer did not answer `member` before the deadline.
    case timedOut(member: String)
    /// The peer answered `member` with an error: its D-Bus error name and message
    /// (`org.freedesktop.DBus.Error.ServiceUnknown` when nothing owns the destination).
    case failed(member: String, name: String, message: String)
    /// A reply did not have the arguments expected (`signature` is what it had).
    case unexpectedReply(member: String, signature: String)
    /// The connection was closed by the bus.
    case disconnected
    /// libdbus could not allocate a message or queue it.
    case outOfMemory
    /// Waiting on the connection's descriptor failed.
    case wait(Errno)

    /// One line saying what went wrong, for the layers above to wrap.
    public var description: String {
        switch self {
        case .noAddress: "no session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
        case .cannotConnect(let address, _, let message):
            "cannot connect to the session bus at '\(address)': \(message)"
        case .timedOut(let member): "no answer to \(member) in time"
        case .failed(let member, let name, let message): "\(member) failed: \(message.isEmpty ? name : message)"
        case .unexpectedReply(let member, let signature): "unexpected answer to \(member) ('\(signature)')"
        case .disconnected: "the session bus closed the connection"
        case .outOfMemory: "out of memory for a D-Bus message"
        case .wait(let errno): "cannot wait on the session bus: \(errno.message)"
        }
    }
}
