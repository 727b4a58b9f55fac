internal import Glibc
internal import CSystemShims

/// What `stat` tells about a file: its kind, size, permissions and identity.
public struct FileStatus: Sendable, Equatable {
    /// What kind of file it is (`st_mode & S_IFMT`).
    public enum Kind: Sendable, Equatable {
        /// `S_IFREG`.
        case regular
        /// `S_IFDIR`.
        case directory
        /// `S_IFIFO`: a pipe.
        case fifo
        /// `S_IFSOCK`.
        case socket
        /// `S_IFCHR`: a terminal, `/dev/null`, ...
        case characterDevice
        /// `S_IFBLK`.
        case blockDevice
        /// `S_IFLNK` (only from `lstat`).
        case symbolicLink
    }

    /// The kind of file.
    public var kind: Kind
    /// `st_mode`: the kind and the permission bits.
    public var mode: UInt32
    /// `st_size` in bytes.
    public var size: Int64
    /// `st_dev`: the device the file is on.
    public var device: UInt64
    /// `st_ino`: the file's number on its device.
    public var inode: UInt64
    /// `st_uid`: the user who owns the file.
    public var ownerID: UInt32
    /// `st_mtim`: when the file's content last changed, as time since 1970-01-01 UTC.
    public var modificationTime: Duration
    /// `st_nlink`: how many names the file has; 0 for an open file whose last name was removed
    /// or renamed over (the history's appender checks it: `History.append`).
    public var linkCount: UInt64

    /// The permission bits (`st_mode & 0o7777`).
    public var permissions: FilePermissions { FilePermissions(rawValue: mode & 0o7777) }

    /// Whether both describe the very same file (same device and inode).
    public func isSameFile(as other: FileStatus) -> Bool {
        device == other.device && inode == other.inode
    }

    init(_ status: stat) {
        mode = UInt32(status.st_mode)
        size = Int64(status.st_size)
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        ownerID = UInt32(status.st_uid)
        linkCount = UInt64(status.st_nlink)
        modificationTime =
            .seconds(Int64(status.st_mtim.tv_sec)) + .nanoseconds(Int64(status.st_mtim.tv_nsec))
        kind =
            switch status.st_mode & S_IFMT {
            case S_IFDIR: .directory
            case S_IFIFO: .fifo
            case S_IFSOCK: .socket
            case S_IFCHR: .characterDevice
            case S_IFBLK: .blockDevice
            case S_IFLNK: .symbolicLink
            default: .regular
            }
    }
}

// MARK: - Descriptor metadata

extension FileDescriptor {
    /// The file's kind, size and identity. Wraps `fstat`.
    public func status() throws(Errno) -> FileStatus {
        var status = stat()
        try nothingOrErrno { fstat(rawValue, &status) }
        return FileStatus(status)
    }

    /// Sets the file's permission bits exactly, whatever the umask. Wraps `fchmod`.
    public func setPermissions(_ permissions: FilePermissions) throws(Errno) {
        try nothingOrErrno { fchmod(rawValue, permissions.rawValue) }
    }

    /// Flushes the file's data and metadata to the device (for a directory: its entries).
    /// Wraps `fsync`.
    public func sync() throws(Errno) {
        try nothingOrErrno { fsync(rawValue) }
    }

    /// The file offset (where the next `read` starts). Wraps `lseek(0, SEEK_CUR)`.
    public func currentOffset() throws(Errno) -> Int64 {
        Int64(try valueOrErrno { lseek(rawValue, 0, SEEK_CUR) })
    }

    /// Moves the file offset to `offset` from the start. Wraps `lseek(SEEK_SET)`.
    public func seek(to offset: Int64) throws(Errno) {
        try nothingOrErrno { lseek(rawValue, off_t(offset), SEEK_SET) }
    }

    /// Makes reads and writes return `EAGAIN` instead of waiting. Wraps `fcntl(F_SETFL)`.
    ///
    /// The reads and writes here wait with `poll` themselves (with deadlines where given).
    public func setNonBlocking() throws(Errno) {
        let flags = try valueOrErrno { fcntl(rawValue, F_GETFL) }
        try nothingOrErrno { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Grows this pipe's buffer to at least `capacity` bytes (never shrinks it); the capacity it
    /// has afterwards. Wraps `fcntl(F_GETPIPE_SZ)` and `fcntl(F_SETPIPE_SZ)`.
    ///
    /// The kernel rounds up to a power-of-two number of pages and refuses more than
    /// `/proc/sys/fs/pipe-max-size` (1 MiB by default) to an unprivileged process, or beyond
    /// the user's pipe quota (`EPERM`); the capacity is a pipe's, so both its ends see it.
    /// - Throws: `Errno` (`EBADF` when this is not a pipe, `EPERM` over the limits).
    @discardableResult
    public func growPipeCapacity(to capacity: Int) throws(Errno) -> Int {
        let current = Int(try valueOrErrno { fcntl(rawValue, csystem_f_getpipe_sz()) })
        guard current < capacity else { return current }
        return Int(try valueOrErrno { fcntl(rawValue, csystem_f_setpipe_sz(), Int32(capacity)) })
    }

    /// Clears `O_DIRECT`, so later writes go through the page cache. Wraps `fcntl(F_SETFL)`.
    func clearDirect() throws(Errno) {
        let flags = try valueOrErrno { fcntl(rawValue, F_GETFL) }
        try nothingOrErrno { fcntl(rawValue, F_SETFL, flags & ~FileDescriptor.OpenOptions.direct.rawValue) }
    }

    /// Makes `stream` refer to this descriptor's open file, closing what it referred to.
    /// Wraps `dup2`; the copy is not close-on-exec (a child is meant to keep it).
    public func duplicate(onto stream: StandardStream) throws(Errno) {
        try nothingOrErrno { dup2(rawValue, stream.rawValue) }
    }
}

// MARK: - Locks

extension FileDescriptor {
    /// How an advisory lock is shared.
    public enum LockKind: Sendable {
        /// Many holders at once (readers). `LOCK_SH`.
        case shared
        /// One holder, excluding every other (writers). `LOCK_EX`.
        case exclusive

        var operation: Int32 {
            switch self {
            case .shared: LOCK_SH
            case .exclusive: LOCK_EX
            }
        }
    }

    /// Takes an advisory lock on the file, waiting for it. Wraps `flock`, retrying `EINTR`.
    ///
    /// The lock belongs to this descriptor's open file description: two descriptors opened
    /// separately on one file exclude each other even inside one process, and the lock goes
    /// when the descriptor is closed (or the process dies), so a crash never leaves one behind.
    public func lock(_ kind: LockKind) throws(Errno) {
        try nothingOrErrno { flock(rawValue, kind.operation) }
    }

    /// Lets go of the lock this descriptor's open file description holds. Wraps
    /// `flock(LOCK_UN)`, retrying `EINTR`.
    ///
    /// Closing the descriptor is not always enough: a child that another thread is spawning
    /// holds a copy of every descriptor from its `clone` until its `exec` (or `closefrom`), and
    /// the lock stays with the open file description while any copy of it is open. Unlocking
    /// releases it at once, whatever copies there are.
    public func unlock() throws(Errno) {
        try nothingOrErrno { flock(rawValue, LOCK_UN) }
    }

    /// Takes the lock if no other holder conflicts, without waiting. Wraps `flock(LOCK_NB)`.
    ///
    /// - Returns: false when another open file description holds a conflicting lock.
    public func tryLock(_ kind: LockKind) throws(Errno) -> Bool {
        do {
            try nothingOrErrno { flock(rawValue, kind.operation | LOCK_NB) }
            return true
        } catch  where error == .wouldBlock {
            return false
        }
    }
}
