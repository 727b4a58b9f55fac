/// One D-Bus value, with its type: what a message carries as an argument.
///
/// The D-Bus specification's type system, cut to what paste sends and reads (spec: "Type
/// System"). A value knows its own signature, except an array's elements, which an empty array
/// must still name.
public indirect enum BusValue: Equatable, Sendable {
    /// `y`.
    case byte(UInt8)
    /// `b`.
    case boolean(Bool)
    /// `i`.
    case int32(Int32)
    /// `u`.
    case uint32(UInt32)
    /// `s`: UTF-8 with no NUL.
    case string(String)
    /// `o`.
    case objectPath(String)
    /// `v`: a value of any type, with its signature beside it on the wire.
    case variant(BusValue)
    /// `a…`: elements of one type, spelled `elementSignature` (`s`, `{sv}`, `y`).
    case array(elementSignature: String, [BusValue])
    /// `ay` read or written as one block (`dbus_message_iter_append_fixed_array`): an image's
    /// pixels are hundreds of kilobytes, not worth a value each.
    case bytes([UInt8])
    /// `(…)`.
    case structure([BusValue])
    /// `{kv}`: only as an element of an array (a dictionary).
    case dictionaryEntry(key: BusValue, value: BusValue)

    /// The value's D-Bus signature (spec: "Signatures").
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int32: "i"
        case .uint32: "u"
        case .string: "s"
        case .objectPath: "o"
        case .variant: "v"
        case .array(let element, _): "a" + element
        case .bytes: "ay"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .dictionaryEntry(let key, let value): "{" + key.signature + value.signature + "}"
        }
    }

    /// An `a{sv}` dictionary, the usual shape of "hints" and "properties".
    public static func stringDictionary(_ entries: [(String, BusValue)]) -> BusValue {
        .array(
            elementSignature: "{sv}", entries.map { .dictionaryEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    /// An `as` array.
    public static func strings(_ strings: [String]) -> BusValue {
        .array(elementSignature: "s", strings.map { .string($0) })
    }

    // MARK: - Reading

    /// The string, when this is one (or an object path).
    public var stringValue: String? {
        switch self {
        case .string(let text), .objectPath(let text): text
        default: nil
        }
    }

    /// The number, when this is a `u`.
    public var uint32Value: UInt32? {
        if case .uint32(let number) = self { return number }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayElements: [BusValue]? {
        if case .array(_, let elements) = self { return elements }
        return nil
    }
}

/// A method call to send: where it goes and what it carries.
public struct BusMethodCall: Sendable {
    /// The bus name it goes to (`org.freedesktop.Notifications`).
    public var destination: String
    /// The object (`/org/freedesktop/Notifications`).
    public var path: String
    /// The interface the member belongs to.
    public var interface: String
    /// The method's name.
    public var member: String
    /// The arguments, in order.
    public var arguments: [BusValue]

    /// Describes a call.
    public init(destination: String, path: String, interface: String, member: String, arguments: [BusValue] = []) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}

/// A method's reply: who sent it and what it carries.
public struct BusReply: Equatable, Sendable {
    /// The unique name of the connection that answered (`:1.42`), when the bus said: the peer
    /// that owned the called name at that moment.
    public var sender: String?
    /// The reply's arguments, in order.
    public var arguments: [BusValue]

    /// Describes a reply (for a test, or one read off the wire).
    public init(sender: String?, arguments: [BusValue]) {
        self.sender = sender
        self.arguments = arguments
    }
}

/// A signal received on a connection.
public struct BusSignal: Equatable, Sendable {
    /// The unique name of the connection that sent it (`:1.42`), when the bus said.
    public var sender: String?
    /// The object it came from.
    public var path: String
    /// Its interface.
    public var interface: String
    /// Its name.
    public var member: String
    /// Its arguments, in order.
    public var arguments: [BusValue]

    /// Describes a signal (for a test, or one read off the wire).
    public init(sender: String?, path: String, interface: String, member: String, arguments: [BusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}
