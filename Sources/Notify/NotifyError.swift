import DBusInterop

/// Why a notification could not be shown or followed.
public enum NotifyError: Error, Equatable, Sendable {
    /// The session bus, or the notification server on it, failed (no bus, no server, no answer
    /// in time): the bus's error.
    case bus(BusError)
    /// The server answered `member` with something the spec does not allow.
    case unexpectedReply(member: String)
    /// The server shows no buttons (no `actions` capability), and a question needs them.
    case noActions

    /// One line saying what went wrong.
    public var description: String {
        switch self {
        case .bus(.failed(_, "org.freedesktop.DBus.Error.ServiceUnknown", _)),
            .bus(.failed(_, "org.freedesktop.DBus.Error.NameHasNoOwner", _)):
            "no notification server on the session bus"
        case .bus(let error): error.description
        case .unexpectedReply(let member): "the notification server gave an unexpected answer to \(member)"
        case .noActions: "the notification server shows no buttons (no 'actions' capability)"
        }
    }
}
