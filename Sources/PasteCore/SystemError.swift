#if canImport(Glibc)
    import Glibc
#endif

/// An `errno` value with its text, as returned by a failed system call.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `errno` code.
    public var code: Int32

    /// Makes an error from a code.
    public init(_ code: Int32) { self.code = code }

    /// The current `errno`.
    public static var current: SystemError { SystemError(errno) }

    /// `strerror` text, lowercased the way paste prints it (`no such file or directory`).
    public var description: String {
        guard let text = unsafe strerror(code) else { return "error \(code)" }
        let message = unsafe String(cString: text)
        guard let first = message.first else { return message }
        return first.lowercased() + message.dropFirst()
    }
}
