import PasteCore
import SystemInterop

/// Whole-file writes that are atomic (and durable when asked), and the file primitives the
/// stores share, hardened against what may sit in a state folder.
///
/// `write(_:to:)` follows the classic recipe: write a temporary file in the same folder (so the
/// rename stays on one file system), `fsync` it, `rename` it over the target (atomic under POSIX),
/// then `fsync` the folder so the new directory entry survives a crash. A reader sees either the
/// old file or the new one, never a mix; a crash leaves at worst a hidden `.<name>.tmp-…` file.
/// Without `durable`, the two `fsync`s are left out: the rename is still atomic, and what is in
/// the page cache survives a killed process (not a power cut).
///
/// Every file is opened with `O_NOFOLLOW` and checked with `fstat` before it is read: a symbolic
/// link planted in the state folder is never followed, and a FIFO or a device is an error, not a
/// hang (opened with `O_NONBLOCK`, which a FIFO's open would otherwise wait on). A file of
/// another user is refused; a file of ours readable by others is made 0600 again.
///
/// The system calls are SystemInterop's; here their `Errno` becomes a `StoreError` naming the
/// path, with the `Errno` kept as its payload.
public enum AtomicFile {
    /// The permissions of every file paste stores: the owner only.
    public static let filePermissions = FilePermissions.ownerReadWrite
    /// The permissions of every folder paste creates: the owner only.
    public static let folderPermissions = FilePermissions.ownerAll

    /// Permission bits that let anyone but the owner in.
    static let othersBits: UInt32 = 0o077

    /// Replaces the file at `path` with `bytes`, atomically (and durably, by default).
    ///
    /// - Parameters:
    ///   - bytes: The whole new content.
    ///   - path: The file to replace or create. Its folder is created (0700) when missing.
    ///   - permissions: The new file's mode, set exactly (independent of the umask).
    ///   - durable: Whether to `fsync` the file and its folder, so the write survives a power
    ///     cut; without it, it survives a killed process.
    /// - Throws: `StoreError` naming the temporary file or the folder that failed.
    public static func write(
        _ bytes: [UInt8], to path: String, permissions: FilePermissions = filePermissions, durable: Bool = true
    ) throws(StoreError) {
        let folder = folderOf(path)
        try createFolder(folder)
        let temporaryPath = temporaryPath(for: path)
        do {
            // O_EXCL never follows a link, so nothing planted can take the write elsewhere.
            let file = try open(
                temporaryPath, .writeOnly, options: [.create, .exclusive, .noFollow], permissions: permissions)
            try StoreError.attempt({ .cannotWrite(path: temporaryPath, errno: $0) }) { () throws(Errno) in
                try file.setPermissions(permissions)
                try file.writeAll(bytes)
                if durable { try file.sync() }
            }
            // `rename` replaces a link itself, never what it points to.
            try StoreError.attempt({ .cannotWrite(path: path, errno: $0) }) { () throws(Errno) in
                try FileSystem.rename(temporaryPath, to: path)
            }
        } catch {
            try? FileSystem.removeFile(temporaryPath)
            throw error
        }
        if durable { try syncFolder(folder) }
    }

    /// Writes `bytes` to a new temporary file at `temporaryPath` (created exclusively, never
    /// through a link, not `fsync`ed), to be renamed into place by the caller later: the first
    /// half of a non-durable `write`, for a caller with something to do in between.
    ///
    /// - Throws: `StoreError` naming the temporary file (which is removed again).
    static func writeTemporary(
        _ bytes: [UInt8], at temporaryPath: String, permissions: FilePermissions = filePermissions
    ) throws(StoreError) {
        do {
            let file = try open(
                temporaryPath, .writeOnly, options: [.create, .exclusive, .noFollow], permissions: permissions)
            try StoreError.attempt({ .cannotWrite(path: temporaryPath, errno: $0) }) { () throws(Errno) in
                try file.setPermissions(permissions)
                try file.writeAll(bytes)
            }
        } catch {
            try? FileSystem.removeFile(temporaryPath)
            throw error
        }
    }

    /// The hidden temporary name `write` uses for `path`: `.NAME.tmp-PID-RANDOM` beside it.
    static func temporaryPath(for path: String) -> String {
        temporaryPath(for: path, tag: "\(CurrentProcess.id)-" + String(UInt64.random(in: 0...UInt64.max), radix: 36))
    }

    /// A hidden temporary name beside `path`, `.NAME.tmp-TAG`: no listing shows it, and recovery
    /// removes it once it is stranded.
    static func temporaryPath(for path: String, tag: String) -> String {
        folderOf(path) + "/." + nameOf(path) + temporaryMarker + tag
    }

    /// What every temporary file's name holds after the name it stands for.
    static let temporaryMarker = ".tmp-"

    /// Reads a whole regular file, or returns nil when it does not exist.
    ///
    /// - Parameter limit: The most bytes read; the rest is left (metadata files are small).
    ///   The buffer grows with what is read (`readAll`), not to the limit: a buffer of the
    ///   limit zeroed a mebibyte for each entry's few hundred bytes of metadata (1.5 ms of a
    ///   hotkey press with 20 entries in the outbox).
    /// - Throws: `StoreError.notRegularFile` for a link, FIFO or device, `.notOwned`,
    ///   `.cannotOpen` / `.cannotRead` for any failure other than `ENOENT`.
    public static func read(_ path: String, limit: Int? = nil) throws(StoreError) -> [UInt8]? {
        guard let file = try openRegular(path, .readOnly) else { return nil }
        return try StoreError.attempt({ .cannotRead(path: path, errno: $0) }) { () throws(Errno) in
            var bytes = try file.readAll(limit: limit)
            if let limit, bytes.count > limit { bytes.removeSubrange(limit...) }
            return bytes
        }
    }

    /// Creates a folder and any missing parents, each with mode 0700 (like `mkdir -p -m 700`).
    ///
    /// Existing folders are left as they are. Wraps `mkdir`.
    /// - Throws: `StoreError.cannotCreateFolder` with the first component that failed, or
    ///   `.notAFolder` when something else stands where the folder should be.
    public static func createFolder(_ path: String) throws(StoreError) {
        if FileSystem.isDirectory(path) { return }
        let parent = folderOf(path)
        if parent != path && !parent.isEmpty { try createFolder(parent) }
        do {
            try FileSystem.createDirectory(path, permissions: folderPermissions)
        } catch {
            if error == .fileExists {
                if FileSystem.isDirectory(path) { return }
                if let status = try? FileSystem.status(ofPath: path, followingSymbolicLinks: false) {
                    throw .notAFolder(path: path, kind: status.kind)
                }
            }
            throw .cannotCreateFolder(path: path, errno: error)
        }
    }

    /// Creates a private folder (see `createFolder`) and checks it is paste's own: a real
    /// folder, not a symbolic link to one, owned by this user. A folder of ours that others may
    /// enter is made 0700 again (when that fails, on a read-only file system, it is left).
    ///
    /// Wraps `mkdir`, `lstat`, and `open(O_DIRECTORY | O_NOFOLLOW)` + `fchmod`.
    /// - Throws: `StoreError.notAFolder`, `.notOwned`, or the creation's failure.
    public static func createPrivateFolder(_ path: String) throws(StoreError) {
        try createFolder(path)
        try checkPrivateFolder(path)
    }

    /// Checks an existing folder the way `createPrivateFolder` does; false when it is missing.
    @discardableResult
    static func checkPrivateFolder(_ path: String) throws(StoreError) -> Bool {
        let status: FileStatus
        do {
            status = try FileSystem.status(ofPath: path, followingSymbolicLinks: false)
        } catch {
            if error == .noSuchFileOrDirectory { return false }
            throw .cannotOpen(path: path, errno: error)
        }
        guard status.kind == .directory else { throw .notAFolder(path: path, kind: status.kind) }
        guard status.ownerID == CurrentProcess.effectiveUserID else {
            throw .notOwned(path: path, ownerID: status.ownerID)
        }
        if status.mode & othersBits != 0,
            let folder = try? FileDescriptor.open(path, .readOnly, options: [.directory, .noFollow])
        {
            try? folder.setPermissions(folderPermissions)
        }
        return true
    }

    /// Flushes a folder's directory entries to disk, so a rename or create in it is durable.
    ///
    /// Wraps `open(O_DIRECTORY)` + `fsync`. `EINVAL` (a file system that cannot sync folders) is
    /// not an error.
    public static func syncFolder(_ path: String) throws(StoreError) {
        let folder = try open(path, .readOnly, options: .directory)
        do {
            try folder.sync()
        } catch {
            if error == .invalidArgument { return }
            throw .cannotWrite(path: path, errno: error)
        }
    }

    /// Removes a file; a file already gone is not an error. Wraps `unlink` (which removes a
    /// link itself, never what it points to).
    static func remove(_ path: String) throws(StoreError) {
        do {
            try FileSystem.removeFile(path)
        } catch {
            if error != .noSuchFileOrDirectory { throw .cannotRemove(path: path, errno: error) }
        }
    }

    /// Opens a file (close-on-exec), turning a failure into `StoreError.cannotOpen`.
    ///
    /// - Parameters:
    ///   - permissions: The mode for a file that `.create` creates (the umask still applies).
    static func open(
        _ path: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
        permissions: FilePermissions = filePermissions
    ) throws(StoreError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(path, access, options: options, permissions: permissions)
        } catch {
            throw .cannotOpen(path: path, errno: error)
        }
    }

    /// Opens a regular file of paste's own, or returns nil when it does not exist (`ENOENT`).
    ///
    /// Wraps `open(O_NOFOLLOW | O_NONBLOCK)` + `fstat`: a symbolic link fails to open (`ELOOP`),
    /// a FIFO opens at once (or fails with `ENXIO` for writing) instead of waiting for a
    /// partner, and anything but a regular file is refused before a byte is read. A file of
    /// another user is refused; one of ours that others may read is made 0600 again.
    /// - Parameters:
    ///   - options: More open options (`.create` makes a missing file, 0600).
    /// - Throws: `StoreError.notRegularFile`, `.notOwned`, or `.cannotOpen`.
    static func openRegular(
        _ path: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = []
    ) throws(StoreError) -> FileDescriptor? {
        guard let file = try openWithoutFollowing(path, access, options: options) else { return nil }
        let status = try StoreError.attempt({ .cannotRead(path: path, errno: $0) }) { () throws(Errno) in
            try file.status()
        }
        guard status.kind == .regular else { throw .notRegularFile(path: path, kind: status.kind) }
        guard status.ownerID == CurrentProcess.effectiveUserID else {
            throw .notOwned(path: path, ownerID: status.ownerID)
        }
        if status.mode & othersBits != 0 { try? file.setPermissions(filePermissions) }
        return file
    }

    /// `open(O_NOFOLLOW | O_NONBLOCK)`: nil for `ENOENT`; a link (`ELOOP`), a FIFO nobody reads
    /// (`ENXIO`) or a folder (`EISDIR`) is `StoreError.notRegularFile`.
    private static func openWithoutFollowing(
        _ path: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions
    ) throws(StoreError) -> FileDescriptor? {
        do {
            return try FileDescriptor.open(
                path, access, options: options.union([.noFollow, .nonBlocking]), permissions: filePermissions)
        } catch {
            if error == .noSuchFileOrDirectory { return nil }
            if error == .tooManySymbolicLinks || error == .noDeviceOrAddress || error == .isDirectory,
                let status = try? FileSystem.status(ofPath: path, followingSymbolicLinks: false),
                status.kind != .regular
            {
                throw .notRegularFile(path: path, kind: status.kind)
            }
            throw .cannotOpen(path: path, errno: error)
        }
    }

    /// The folder part of a path (`.` when there is none).
    static func folderOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last component of a path.
    static func nameOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
