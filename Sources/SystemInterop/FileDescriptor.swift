internal import CSystemShims
internal import Glibc

/// An open file descriptor with exactly one owner, closed when the owner lets it go.
///
/// The one descriptor type of paste (swift-system's `FileDescriptor`, made noncopyable so the
/// compiler proves there is one owner). Every descriptor it opens is close-on-exec, so a spawned
/// or exec'd program gets only what it is given on purpose. Calls retry `EINTR` unless told not
/// to, and report failures as `Errno`.
///
/// `deinit` closes the descriptor and ignores the result (`close` releases the number even when
/// it fails); call `close()` where a failure matters, or `release()` to hand the number on.
public struct FileDescriptor: ~Copyable {
    /// The C descriptor number, valid while this value lives.
    public let rawValue: Int32

    /// Takes ownership of an open descriptor: it is closed when this value goes away.
    public init(adopting rawValue: Int32) {
        precondition(rawValue >= 0, "not a descriptor: \(rawValue)")
        self.rawValue = rawValue
    }

    deinit { _ = Glibc.close(rawValue) }

    /// Closes the descriptor now. Wraps `close`.
    ///
    /// `EINTR` is not retried: on Linux the number is released whatever `close` returns, and a
    /// second `close` could close a descriptor another thread has just been given.
    /// - Throws: `Errno` when the kernel reports a failure (for a file: a delayed write error).
    public consuming func close() throws(Errno) {
        let raw = rawValue
        discard self
        try nothingOrErrno(retryOnInterrupt: false) { Glibc.close(raw) }
    }

    /// Gives up ownership without closing, returning the number to the caller, who must close it.
    public consuming func release() -> Int32 {
        let raw = rawValue
        discard self
        return raw
    }

    /// Lends a descriptor this process holds but does not own here (a standard stream, a number
    /// a caller passes along) as a `FileDescriptor` for the length of `body`; it is not closed.
    public static func withUnowned<Result, Failure: Error>(
        _ rawValue: Int32, _ body: (borrowing FileDescriptor) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let descriptor = FileDescriptor(adopting: rawValue)
        let outcome: Swift.Result<Result, Failure>
        do { outcome = .success(try body(descriptor)) } catch { outcome = .failure(error) }
        _ = descriptor.release()
        return try outcome.get()
    }
}

@available(*, unavailable, message: "a descriptor has one owner; hand it over with `consume`")
extension FileDescriptor: Sendable {}

// MARK: - Opening

extension FileDescriptor {
    /// How a file is opened: for reading, writing or both.
    public enum AccessMode: Sendable {
        /// `O_RDONLY`.
        case readOnly
        /// `O_WRONLY`.
        case writeOnly
        /// `O_RDWR`.
        case readWrite

        var rawValue: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    /// What `open` does besides opening; `O_CLOEXEC` is always added.
    public struct OpenOptions: OptionSet, Sendable {
        /// The `O_…` flags.
        public let rawValue: Int32
        /// Options from `O_…` flags.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `O_CREAT`: create the file when it is missing (with the given permissions).
        public static let create = OpenOptions(rawValue: O_CREAT)
        /// `O_EXCL`: with `create`, fail with `EEXIST` when the file exists (reserves a name).
        public static let exclusive = OpenOptions(rawValue: O_EXCL)
        /// `O_APPEND`: every write goes to the end of the file.
        public static let append = OpenOptions(rawValue: O_APPEND)
        /// `O_TRUNC`: empty the file.
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// `O_DIRECTORY`: fail unless the path is a directory (opened to `fsync` it).
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
        /// `O_NOFOLLOW`: fail with `ELOOP` when the last component is a symbolic link.
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// `O_NONBLOCK`: reads and writes return `EAGAIN` instead of waiting.
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        /// `O_DIRECT`: writes bypass the page cache (buffers, lengths and offsets must be
        /// aligned; see `TeeWriter`).
        public static let direct = OpenOptions(rawValue: csystem_o_direct())
    }

    /// Opens or creates a file. Wraps `open`, with `O_CLOEXEC` added.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - access: Read, write or both.
    ///   - options: `create`, `exclusive`, `append`, ...
    ///   - permissions: The mode of a file `create` makes (the umask applies; see
    ///     `setPermissions` to set it exactly).
    ///   - retryOnInterrupt: Whether to try again after `EINTR` (a FIFO's open can block).
    /// - Throws: `Errno` (`noSuchFileOrDirectory`, `fileExists`, `tooManySymbolicLinks`, ...).
    public static func open(
        _ path: String, _ access: AccessMode, options: OpenOptions = [],
        permissions: FilePermissions = .ownerReadWrite, retryOnInterrupt: Bool = true
    ) throws(Errno) -> FileDescriptor {
        let flags = access.rawValue | options.rawValue | O_CLOEXEC
        let raw = try valueOrErrno(retryOnInterrupt: retryOnInterrupt) {
            Glibc.open(path, flags, permissions.rawValue)
        }
        return FileDescriptor(adopting: raw)
    }

    /// Opens a path given as the bytes the kernel knows it by, close-on-exec: a name from argv
    /// that is not UTF-8 (`caf\xe9.txt`), which a `String` could not carry unchanged (issue 45,
    /// item 10). Wraps `open`.
    ///
    /// - Throws: `Errno` as `open(2)` reports it (`ENOENT` for a missing file); `EINVAL` for a
    ///   path holding a NUL byte, which no file's name can.
    public static func open(
        pathBytes path: [UInt8], _ access: AccessMode, options: OpenOptions = [], retryOnInterrupt: Bool = true
    ) throws(Errno) -> FileDescriptor {
        guard !path.contains(0) else { throw Errno(rawValue: EINVAL) }
        let flags = access.rawValue | options.rawValue | O_CLOEXEC
        let terminated = path.map { CChar(bitPattern: $0) } + [0]
        let raw = try valueOrErrno(retryOnInterrupt: retryOnInterrupt) {
            terminated.withUnsafeBufferPointer { Glibc.open($0.baseAddress!, flags, 0) }
        }
        return FileDescriptor(adopting: raw)
    }

    /// A connected pair of stream sockets, both close-on-exec.
    /// Wraps `socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC)`.
    ///
    /// Used where another program reads or writes what would be a pipe: `sendAll` reports a
    /// vanished reader as `EPIPE` instead of killing the caller with `SIGPIPE` (libraries must
    /// not change signal dispositions), and `SOCK_CLOEXEC` is atomic where `pipe2(O_CLOEXEC)` is
    /// `_GNU_SOURCE`-only in Swift's Glibc (a `pipe` + `fcntl` pair would race a spawn on another
    /// thread). The other program reads and writes it like a pipe.
    public static func makeSocketPair() throws(Errno) -> SocketPair {
        var descriptors: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        try nothingOrErrno { socketpair(AF_UNIX, type, 0, &descriptors) }
        return SocketPair(
            first: FileDescriptor(adopting: descriptors[0]), second: FileDescriptor(adopting: descriptors[1]))
    }
}

/// Two connected sockets (`FileDescriptor.makeSocketPair`); take each end out by name
/// (`let ours = pair.first`). Frozen, so other modules may take the ends apart.
@frozen
public struct SocketPair: ~Copyable {
    /// One end, usually the one this process keeps.
    public var first: FileDescriptor
    /// The other end, usually the one handed to a child.
    public var second: FileDescriptor
}

/// The permission bits of a file (`mode_t`'s low twelve bits).
public struct FilePermissions: RawRepresentable, Hashable, Sendable {
    /// The bits, as `mode_t` holds them.
    public let rawValue: UInt32
    /// Permissions from `mode_t` bits (`0o600`).
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `0600`: the owner reads and writes; nobody else anything. Every file paste stores.
    public static let ownerReadWrite = FilePermissions(rawValue: 0o600)
    /// `0700`: the owner only, all access. Every folder paste creates.
    public static let ownerAll = FilePermissions(rawValue: 0o700)
}
