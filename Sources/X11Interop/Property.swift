/// A window property's value, copied out of Xlib.
public struct Property: Sendable, Equatable {
    /// The property's type (`UTF8_STRING`, `ATOM`, `INCR`, ...).
    public var type: Atom
    /// 8, 16 or 32: the size of one item as the server stores it.
    public var format: Int
    /// The items of a format-8 property (or the native-endian shorts of a format-16 one).
    public var bytes: [UInt8]
    /// The items of a format-32 property. Xlib hands them over as C `long` (8 bytes on LP64), not
    /// as 4-byte values; they are widened to `UInt` here.
    public var values: [UInt]

    /// Makes a property value (mostly for tests and fakes).
    public init(type: Atom, format: Int, bytes: [UInt8] = [], values: [UInt] = []) {
        self.type = type
        self.format = format
        self.bytes = bytes
        self.values = values
    }

    /// The format-32 items read as atoms (for `ATOM` and `ATOM_PAIR` lists such as `TARGETS`).
    public var atoms: [Atom] { values.map(Atom.init(rawValue:)) }
}

/// How `changeProperty` combines new data with a property's current value.
public enum PropertyMode: Sendable {
    /// `PropModeReplace`.
    case replace
    /// `PropModeAppend`: add to the end (creates the property when missing).
    case append
}
