import Glibc

/// An advisory lock on a file, held from creation until the owner is released.
///
/// Wraps `flock(2)`. The lock belongs to this object's own open file description, so two
/// `FileLock`s on the same file exclude each other even inside one process (threads included),
/// and the kernel drops the lock when the process dies: a crash never leaves a stale lock.
/// Releasing is closing the descriptor, which `deinit` does; `flock` cannot fail to unlock.
public final class FileLock {
    /// How a lock is shared.
    public enum Kind: Sendable {
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

    /// The locked file.
    public let path: String
    /// How it is held.
    public let kind: Kind
    /// The descriptor whose open file description holds the lock.
    let file: FileDescriptor

    private init(file: consuming FileDescriptor, kind: Kind) {
        self.path = file.path
        self.kind = kind
        self.file = file
    }

    /// Takes a lock on `path`, creating the file (0600) when missing, and waits for it.
    ///
    /// Wraps `open(O_CREAT)` + `flock`, retrying `EINTR`.
    /// - Throws: `StoreError.cannotOpen` or `.cannotLock`.
    public convenience init(path: String, kind: Kind = .exclusive) throws(StoreError) {
        let file = try FileDescriptor.open(path, O_RDWR | O_CREAT)
        try FileLock.lock(file, operation: kind.operation)
        self.init(file: file, kind: kind)
    }

    /// Takes a lock on `path` if nobody else holds a conflicting one, without waiting.
    ///
    /// Wraps `flock(LOCK_NB)`.
    /// - Parameters:
    ///   - creating: Whether to create the file when it is missing. When false, a missing file
    ///     returns nil.
    /// - Returns: The lock, or nil when another holder has it (`EWOULDBLOCK`).
    /// - Throws: `StoreError.cannotOpen` or `.cannotLock` for any other failure.
    public static func attempt(
        path: String, kind: Kind = .exclusive, creating: Bool = true
    ) throws(StoreError) -> FileLock? {
        let file: FileDescriptor
        if creating {
            file = try FileDescriptor.open(path, O_RDWR | O_CREAT)
        } else {
            guard let existing = try FileDescriptor.openIfPresent(path, O_RDONLY) else { return nil }
            file = existing
        }
        do {
            try lock(file, operation: kind.operation | LOCK_NB)
        } catch {
            if error.errno == EWOULDBLOCK { return nil }
            throw error
        }
        return FileLock(file: file, kind: kind)
    }

    /// Whether `path` still names the very file this lock holds (same device and inode).
    ///
    /// A holder that removes or replaces the file before unlocking leaves later lockers holding a
    /// lock on a file nobody can find any more; they check this after locking and start over.
    public var isStillLinked: Bool {
        var named = stat()
        guard unsafe stat(path, &named) == 0, let held = try? file.status() else { return false }
        return named.st_dev == held.st_dev && named.st_ino == held.st_ino
    }

    private static func lock(_ file: borrowing FileDescriptor, operation: Int32) throws(StoreError) {
        while flock(file.rawValue, operation) != 0 {
            let code = Glibc.errno
            if code != EINTR { throw .cannotLock(path: file.path, errno: code) }
        }
    }
}

@available(*, unavailable)
extension FileLock: Sendable {}
