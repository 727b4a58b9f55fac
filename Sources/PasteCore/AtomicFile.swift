import SystemInterop

/// Whole-file writes that are atomic and durable, and the few file primitives the stores share.
///
/// `write(_:to:)` follows the classic recipe: write a temporary file in the same folder (so the
/// rename stays on one file system), `fsync` it, `rename` it over the target (atomic under POSIX),
/// then `fsync` the folder so the new directory entry survives a crash. A reader sees either the
/// old file or the new one, never a mix; a crash leaves at worst a hidden `.<name>.tmp-…` file.
///
/// The system calls are SystemInterop's; here their `Errno` becomes a `StoreError` naming the
/// path, with the `Errno` kept as its payload.
public enum AtomicFile {
    /// The permissions of every file paste stores: the owner only.
    public static let filePermissions = FilePermissions.ownerReadWrite
    /// The permissions of every folder paste creates: the owner only.
    public static let folderPermissions = FilePermissions.ownerAll

    /// Replaces the file at `path` with `bytes`, atomically and durably.
    ///
    /// - Parameters:
    ///   - bytes: The whole new content.
    ///   - path: The file to replace or create. Its folder is created (0700) when missing.
    ///   - permissions: The new file's mode, set exactly (independent of the umask).
    /// - Throws: `StoreError` naming the temporary file or the folder that failed.
    public static func write(
        _ bytes: [UInt8], to path: String, permissions: FilePermissions = filePermissions
    ) throws(StoreError) {
        let folder = folderOf(path)
        try createFolder(folder)
        let temporaryPath =
            folder + "/." + nameOf(path) + ".tmp-\(CurrentProcess.id)-"
            + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        do {
            let file = try open(temporaryPath, .writeOnly, options: [.create, .exclusive], permissions: permissions)
            try StoreError.attempt({ .cannotWrite(path: temporaryPath, errno: $0) }) { () throws(Errno) in
                try file.setPermissions(permissions)
                try file.writeAll(bytes)
                try file.sync()
            }
            try StoreError.attempt({ .cannotWrite(path: path, errno: $0) }) { () throws(Errno) in
                try FileSystem.rename(temporaryPath, to: path)
            }
        } catch {
            try? FileSystem.removeFile(temporaryPath)
            throw error
        }
        try syncFolder(folder)
    }

    /// Reads a whole file, or returns nil when it does not exist.
    ///
    /// - Throws: `StoreError.cannotOpen` / `.cannotRead` for any failure other than `ENOENT`.
    public static func read(_ path: String) throws(StoreError) -> [UInt8]? {
        guard let file = try openIfPresent(path, .readOnly) else { return nil }
        return try StoreError.attempt({ .cannotRead(path: path, errno: $0) }) { () throws(Errno) in
            try file.readAll()
        }
    }

    /// Creates a folder and any missing parents, each with mode 0700 (like `mkdir -p -m 700`).
    ///
    /// Existing folders are left as they are. Wraps `mkdir`.
    /// - Throws: `StoreError.cannotCreateFolder` with the first component that failed.
    public static func createFolder(_ path: String) throws(StoreError) {
        if FileSystem.isDirectory(path) { return }
        let parent = folderOf(path)
        if parent != path && !parent.isEmpty { try createFolder(parent) }
        do {
            try FileSystem.createDirectory(path, permissions: folderPermissions)
        } catch {
            if error == .fileExists && FileSystem.isDirectory(path) { return }
            throw .cannotCreateFolder(path: path, errno: error)
        }
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

    /// Removes a file; a file already gone is not an error. Wraps `unlink`.
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

    /// Opens a file, or returns nil when it does not exist (`ENOENT`).
    static func openIfPresent(
        _ path: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = []
    ) throws(StoreError) -> FileDescriptor? {
        do {
            return try FileDescriptor.open(path, access, options: options)
        } catch {
            if error == .noSuchFileOrDirectory { return nil }
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
