internal import Glibc

/// One of the process's standard descriptors (stdin, stdout, stderr), which paste uses but
/// never closes.
///
/// Output is written with plain `write(2)`, unbuffered: nothing waits in a buffer to be lost on
/// exit. Reading goes through `withDescriptor`, which lends the stream as a `FileDescriptor`.
public struct StandardStream: Sendable, Hashable {
    /// The descriptor number: 0, 1 or 2 (or another descriptor the process keeps open).
    public let rawValue: Int32

    /// Names a descriptor this process holds and paste does not own.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Descriptor 0.
    public static let input = StandardStream(rawValue: 0)
    /// Descriptor 1.
    public static let output = StandardStream(rawValue: 1)
    /// Descriptor 2.
    public static let error = StandardStream(rawValue: 2)

    /// Lends the stream as a `FileDescriptor` for `body`; it stays open afterwards.
    public func withDescriptor<Result, Failure: Error>(
        _ body: (borrowing FileDescriptor) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try FileDescriptor.withUnowned(rawValue, body)
    }

    /// Writes all of `text`, ignoring failures (a closed stderr must not end the run).
    /// Wraps `write`.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = try? withDescriptor { (file) throws(Errno) in try file.writeAll(UnsafeRawBufferPointer(bytes)) }
        }
    }

    /// Whether the stream is a terminal. Wraps `isatty`.
    public var isTerminal: Bool { isatty(rawValue) == 1 }

    /// The status of what the stream is connected to. Wraps `fstat`.
    public func status() throws(Errno) -> FileStatus {
        try withDescriptor { (file) throws(Errno) in try file.status() }
    }

    /// The stream's file offset (where a regular file will be read from). Wraps `lseek`.
    public func currentOffset() throws(Errno) -> Int64 {
        try withDescriptor { (file) throws(Errno) in try file.currentOffset() }
    }

    /// Points the stream at `/dev/null`, dropping what it was connected to. Wraps `open` + `dup2`.
    ///
    /// When `/dev/null` cannot be opened the stream is closed instead: either way the process
    /// no longer holds what it inherited there.
    public func redirectToNull() {
        let access: FileDescriptor.AccessMode = rawValue == 0 ? .readOnly : .writeOnly
        guard let null = try? FileDescriptor.open("/dev/null", access) else {
            _ = Glibc.close(rawValue)
            return
        }
        if null.rawValue == rawValue {
            // The stream was closed, so /dev/null got its number: keep it, without close-on-exec.
            _ = fcntl(null.release(), F_SETFD, 0)
            return
        }
        try? null.duplicate(onto: self)
    }
}
