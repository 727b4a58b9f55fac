import PasteCore
import SystemInterop

/// An advisory lock on a file, held from creation until the owner is released.
///
/// Wraps `flock(2)` (`FileDescriptor.lock`). The lock belongs to this object's own open file
/// description, so two `FileLock`s on the same file exclude each other even inside one process
/// (threads included), and the kernel drops the lock when the process dies: a crash never leaves
/// a stale lock. Releasing is unlocking, then closing the descriptor, which `deinit` does: a
/// closed descriptor alone would leave the lock held through the copy a child spawned by
/// another thread has until its `exec` (`FileDescriptor.unlock`), and the next claim of an
/// entry just released would find it busy.
public final class FileLock {
    /// How a lock is shared.
    public typealias Kind = FileDescriptor.LockKind

    /// The locked file.
    public let path: String
    /// How it is held.
    public let kind: Kind
    /// The descriptor whose open file description holds the lock.
    let file: FileDescriptor

    private init(file: consuming FileDescriptor, path: String, kind: Kind) {
        self.path = path
        self.kind = kind
        self.file = file
    }

    // `flock(LOCK_UN)` on a descriptor we hold fails only for a bad descriptor, which ours is not.
    deinit { try? file.unlock() }

    /// Takes a lock on `path`, creating the file (0600) when missing, and waits for it.
    ///
    /// Wraps `open(O_CREAT | O_NOFOLLOW | O_NONBLOCK)` + `fstat` + `flock`, retrying `EINTR`:
    /// the lock file must be a regular file of this user (see `AtomicFile.openRegular`), so a
    /// link planted in its place is never followed and a FIFO never waited on.
    /// - Throws: `StoreError.cannotOpen`, `.notRegularFile`, `.notOwned` or `.cannotLock`.
    public convenience init(path: String, kind: Kind = .exclusive) throws(StoreError) {
        guard let file = try AtomicFile.openRegular(path, .readWrite, options: .create) else {
            throw .cannotOpen(path: path, errno: .noSuchFileOrDirectory)
        }
        try StoreError.attempt({ .cannotLock(path: path, errno: $0) }) { () throws(Errno) in try file.lock(kind) }
        self.init(file: file, path: path, kind: kind)
    }

    /// Takes a lock on `path` if nobody else holds a conflicting one, without waiting.
    ///
    /// Wraps `flock(LOCK_NB)`, on a regular file of this user opened as `init(path:kind:)` does.
    /// - Parameters:
    ///   - creating: Whether to create the file when it is missing. When false, a missing file
    ///     returns nil.
    /// - Returns: The lock, or nil when another holder has it (`EWOULDBLOCK`).
    /// - Throws: `StoreError.cannotOpen`, `.notRegularFile`, `.notOwned` or `.cannotLock` for
    ///   any other failure.
    public static func attempt(
        path: String, kind: Kind = .exclusive, creating: Bool = true
    ) throws(StoreError) -> FileLock? {
        guard
            let file =
                creating
                ? try AtomicFile.openRegular(path, .readWrite, options: .create)
                : try AtomicFile.openRegular(path, .readOnly)
        else { return nil }
        let isLocked = try StoreError.attempt({ .cannotLock(path: path, errno: $0) }) { () throws(Errno) in
            try file.tryLock(kind)
        }
        guard isLocked else { return nil }
        return FileLock(file: file, path: path, kind: kind)
    }

    /// Creates `path` (0600, opened for reading and appending) and locks it exclusively, or
    /// returns nil when the path exists.
    ///
    /// Wraps `open(O_CREAT | O_EXCL | O_NOFOLLOW)` + `fchmod` + `flock(LOCK_EX)`. The name is
    /// reserved across processes by `O_EXCL`; the lock waits, since a recovery pass may lock a
    /// file in the instant between its creation and the creator's lock (and lets go at once of
    /// one so young).
    /// - Throws: `StoreError.cannotOpen`, `.cannotWrite` or `.cannotLock`.
    static func create(path: String) throws(StoreError) -> FileLock? {
        guard let file = try createExclusively(path) else { return nil }
        try StoreError.attempt({ .cannotWrite(path: path, errno: $0) }) { () throws(Errno) in
            try file.setPermissions(AtomicFile.filePermissions)
        }
        try StoreError.attempt({ .cannotLock(path: path, errno: $0) }) { () throws(Errno) in
            try file.lock(.exclusive)
        }
        return FileLock(file: file, path: path, kind: .exclusive)
    }

    /// `open(O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND)`; nil when the path exists.
    private static func createExclusively(_ path: String) throws(StoreError) -> FileDescriptor? {
        do {
            return try FileDescriptor.open(
                path, .readWrite, options: [.create, .exclusive, .noFollow, .append],
                permissions: AtomicFile.filePermissions)
        } catch {
            if error == .fileExists { return nil }
            throw .cannotOpen(path: path, errno: error)
        }
    }

    /// Whether `path` still names the very file this lock holds (same device and inode).
    ///
    /// A holder that removes or replaces the file before unlocking leaves later lockers holding a
    /// lock on a file nobody can find any more; they check this after locking and start over.
    /// The path is looked up without following a link: a link put in the file's place is not it.
    public var isStillLinked: Bool {
        guard let named = try? FileSystem.status(ofPath: path, followingSymbolicLinks: false),
            let held = try? file.status()
        else { return false }
        return named.isSameFile(as: held)
    }
}

@available(*, unavailable)
extension FileLock: Sendable {}
