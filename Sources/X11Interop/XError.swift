/// A failure reported by Xlib or the X server, translated out of C.
public enum XError: Error, Equatable, Sendable {
    /// `XOpenDisplay` returned NULL: no server at that name, or it refused us.
    case cannotOpenDisplay(name: String)
    /// The server answered a request with an error (an `XErrorEvent`, copied out of C).
    case protocolError(XProtocolError)
    /// A reply the protocol promises did not come before the deadline.
    case timedOut(waitingFor: String, seconds: Double)
}

/// The fields of an X protocol error (`XErrorEvent`) that remain meaningful after it is handled.
public struct XProtocolError: Equatable, Sendable, CustomStringConvertible {
    /// The error code (`BadWindow` = 3, `BadAtom` = 5, `BadAlloc` = 11, ...).
    public var code: UInt8
    /// The major opcode of the failed request (`X_ChangeProperty` = 18, ...).
    public var requestCode: UInt8
    /// The minor opcode (extensions only).
    public var minorCode: UInt8
    /// The resource the request named (window, atom, ...).
    public var resourceID: UInt
    /// The server's text for `code`, from `XGetErrorText`.
    public var text: String

    public var description: String {
        "X error \(code) (\(text)) in request \(requestCode).\(minorCode) on resource 0x\(String(resourceID, radix: 16))"
    }
}
