internal import Glibc

/// An error number a system call reported, with its message.
///
/// The one error type of SystemInterop (swift-system's `Errno`, cut to what paste uses). Every
/// wrapper that can fail throws it, typed; modules above map it into their own error enums and
/// keep it as the payload, so the message is composed only when an error is shown.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C `errno` value.
    public let rawValue: Int32

    /// Makes an error from a C `errno` value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`, right after a call failed. Reads the C `errno`.
    static var current: Errno { Errno(rawValue: Glibc.errno) }

    // MARK: - The values paste tests for

    /// `EPERM`: the operation is not permitted.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// `ENOENT`: no such file or directory.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// `EINTR`: a signal interrupted the call.
    public static let interrupted = Errno(rawValue: EINTR)
    /// `EIO`: a low-level input/output error.
    public static let ioError = Errno(rawValue: EIO)
    /// `EBADF`: not an open descriptor.
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// `EAGAIN` (= `EWOULDBLOCK`): a non-blocking call would block, or a lock is held elsewhere.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `EACCES`: permission denied.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// `EEXIST`: the file exists.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// `ENOTDIR`: a path component is not a directory.
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// `ENOTEMPTY`: the directory still holds something.
    public static let directoryNotEmpty = Errno(rawValue: ENOTEMPTY)
    /// `EISDIR`: the path is a directory.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// `EINVAL`: an invalid argument (also: a file system that cannot do what was asked).
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// `EFBIG`: the file is too large.
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    /// `ENOSPC`: no space left on the device.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// `EROFS`: a read-only file system.
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    /// `EPIPE`: the reading end is gone.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// `ELOOP`: too many symbolic links, or a symbolic link where `O_NOFOLLOW` forbids one.
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
    /// `ETIMEDOUT`: a deadline passed (paste's own waits report it too).
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    /// `ECHILD`: no such child process.
    public static let noChildProcess = Errno(rawValue: ECHILD)
    /// `ESRCH`: no such process.
    public static let noSuchProcess = Errno(rawValue: ESRCH)
    /// `ENXIO`: no such device or address (a FIFO opened for writing, without waiting, that
    /// nobody reads).
    public static let noDeviceOrAddress = Errno(rawValue: ENXIO)

    // MARK: - Message

    /// The C library's text for the error, its first letter lowercased to sit mid-sentence the
    /// way paste prints it (`no such file or directory`); an acronym stays (`I/O error`).
    ///
    /// Wraps `strerror`, whose glibc table entries are static and copied here at once. Computed
    /// only when asked for, so a failure that is handled costs no text.
    public var message: String {
        guard let pointer = strerror(rawValue) else { return "error \(rawValue)" }
        let text = String(cString: pointer)
        guard let first = text.first else { return "error \(rawValue)" }
        let second = text.dropFirst().first
        guard second?.isLowercase ?? true || second == " " else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// The message (`no such file or directory`).
    public var description: String { message }
}
