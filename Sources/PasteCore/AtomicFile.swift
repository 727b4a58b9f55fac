import Glibc

/// Whole-file writes that are atomic and durable, and the few file primitives the stores share.
///
/// `write(_:to:)` follows the classic recipe: write a temporary file in the same folder (so the
/// rename stays on one file system), `fsync` it, `rename` it over the target (atomic under POSIX),
/// then `fsync` the folder so the new directory entry survives a crash. A reader sees either the
/// old file or the new one, never a mix; a crash leaves at worst a hidden `.<name>.tmp-…` file.
public enum AtomicFile {
    /// The permissions of every file paste stores: the owner only.
    public static let filePermissions: mode_t = 0o600
    /// The permissions of every folder paste creates: the owner only.
    public static let folderPermissions: mode_t = 0o700

    /// Replaces the file at `path` with `bytes`, atomically and durably.
    ///
    /// - Parameters:
    ///   - bytes: The whole new content.
    ///   - path: The file to replace or create. Its folder is created (0700) when missing.
    ///   - permissions: The new file's mode, set exactly (independent of the umask).
    /// - Throws: `StoreError` naming the temporary file or the folder that failed.
    public static func write(
        _ bytes: [UInt8], to path: String, permissions: mode_t = filePermissions
    ) throws(StoreError) {
        let folder = folderOf(path)
        try createFolder(folder)
        let temporaryPath =
            folder + "/." + nameOf(path) + ".tmp-\(getpid())-"
            + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        do {
            let file = try FileDescriptor.open(
                temporaryPath, O_WRONLY | O_CREAT | O_EXCL, permissions: permissions)
            try file.setPermissions(permissions)
            try file.write(bytes)
            try file.sync()
            try rename(temporaryPath, to: path)
        } catch {
            _ = unsafe unlink(temporaryPath)
            throw error
        }
        try syncFolder(folder)
    }

    /// Reads a whole file, or returns nil when it does not exist.
    ///
    /// - Throws: `StoreError.cannotOpen` / `.cannotRead` for any failure other than `ENOENT`.
    public static func read(_ path: String) throws(StoreError) -> [UInt8]? {
        guard let file = try FileDescriptor.openIfPresent(path, O_RDONLY) else { return nil }
        return try file.readAll()
    }

    /// Creates a folder and any missing parents, each with mode 0700 (like `mkdir -p -m 700`).
    ///
    /// Existing folders are left as they are. Wraps `mkdir`.
    /// - Throws: `StoreError.cannotCreateFolder` with the first component that failed.
    public static func createFolder(_ path: String) throws(StoreError) {
        if isFolder(path) { return }
        let parent = folderOf(path)
        if parent != path && !parent.isEmpty { try createFolder(parent) }
        if unsafe mkdir(path, folderPermissions) != 0 {
            let code = Glibc.errno
            if code == EEXIST && isFolder(path) { return }
            throw .cannotCreateFolder(path: path, errno: code)
        }
    }

    /// Flushes a folder's directory entries to disk, so a rename or create in it is durable.
    ///
    /// Wraps `open(O_DIRECTORY)` + `fsync`. `EINVAL` (a file system that cannot sync folders) is
    /// not an error.
    public static func syncFolder(_ path: String) throws(StoreError) {
        let folder = try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY)
        do {
            try folder.sync()
        } catch {
            if error.errno == EINVAL { return }
            throw error
        }
    }

    /// Renames a file, replacing the target. Wraps `rename`.
    static func rename(_ from: String, to: String) throws(StoreError) {
        if unsafe Glibc.rename(from, to) != 0 { throw .cannotWrite(path: to, errno: Glibc.errno) }
    }

    /// Removes a file; a file already gone is not an error. Wraps `unlink`.
    static func remove(_ path: String) throws(StoreError) {
        if unsafe unlink(path) != 0 && Glibc.errno != ENOENT {
            throw .cannotRemove(path: path, errno: Glibc.errno)
        }
    }

    /// Whether `path` names a folder (following symbolic links). Wraps `stat`.
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return unsafe stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
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

/// An open file descriptor with exactly one owner; `close` runs when the owner goes away.
///
/// The stores' only handle on files. Every call retries `EINTR` and turns `errno` into a
/// `StoreError` naming `path`.
struct FileDescriptor: ~Copyable {
    /// The raw descriptor, valid until this value is consumed.
    let rawValue: Int32
    /// The path it was opened with, for error messages.
    let path: String

    private init(rawValue: Int32, path: String) {
        self.rawValue = rawValue
        self.path = path
    }

    deinit { _ = Glibc.close(rawValue) }

    /// Opens a file with `O_CLOEXEC` added. Wraps `open`.
    ///
    /// - Parameters:
    ///   - permissions: The mode for a file that `O_CREAT` creates (the umask still applies).
    static func open(
        _ path: String, _ flags: Int32, permissions: mode_t = AtomicFile.filePermissions
    ) throws(StoreError) -> FileDescriptor {
        while true {
            let fd = unsafe Glibc.open(path, flags | O_CLOEXEC, permissions)
            if fd >= 0 { return FileDescriptor(rawValue: fd, path: path) }
            let code = Glibc.errno
            if code != EINTR { throw .cannotOpen(path: path, errno: code) }
        }
    }

    /// Opens a file, or returns nil when it does not exist (`ENOENT`).
    static func openIfPresent(
        _ path: String, _ flags: Int32, permissions: mode_t = AtomicFile.filePermissions
    ) throws(StoreError) -> FileDescriptor? {
        do {
            return try open(path, flags, permissions: permissions)
        } catch {
            if error.errno == ENOENT { return nil }
            throw error
        }
    }

    /// Writes all of `bytes`, continuing after short writes. Wraps `write`.
    func write(_ bytes: [UInt8]) throws(StoreError) {
        var offset = 0
        while offset < bytes.count {
            let written = unsafe bytes.withUnsafeBytes { buffer in
                unsafe Glibc.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                let code = Glibc.errno
                if code == EINTR { continue }
                throw .cannotWrite(path: path, errno: code)
            }
            offset += written
        }
    }

    /// Reads from the current offset to the end of the file. Wraps `read`.
    func readAll() throws(StoreError) -> [UInt8] {
        let chunk = 64 * 1024
        var result: [UInt8] = []
        while true {
            let start = result.count
            result.append(contentsOf: repeatElement(0, count: chunk))
            let got = unsafe result.withUnsafeMutableBytes { buffer in
                unsafe Glibc.read(rawValue, buffer.baseAddress! + start, chunk)
            }
            if got < 0 {
                result.removeLast(chunk)
                let code = Glibc.errno
                if code == EINTR { continue }
                throw .cannotRead(path: path, errno: code)
            }
            result.removeLast(chunk - got)
            if got == 0 { return result }
        }
    }

    /// The byte at `offset`, or nil past the end. Wraps `pread`.
    func byte(at offset: Int) throws(StoreError) -> UInt8? {
        var value: UInt8 = 0
        while true {
            let got = unsafe pread(rawValue, &value, 1, off_t(offset))
            if got == 1 { return value }
            if got == 0 { return nil }
            let code = Glibc.errno
            if code != EINTR { throw .cannotRead(path: path, errno: code) }
        }
    }

    /// The file's size and identity. Wraps `fstat`.
    func status() throws(StoreError) -> stat {
        var info = stat()
        if unsafe fstat(rawValue, &info) != 0 {
            throw .cannotRead(path: path, errno: Glibc.errno)
        }
        return info
    }

    /// Sets the file's mode exactly. Wraps `fchmod`.
    func setPermissions(_ permissions: mode_t) throws(StoreError) {
        if fchmod(rawValue, permissions) != 0 { throw .cannotWrite(path: path, errno: Glibc.errno) }
    }

    /// Flushes the file's data and metadata to disk. Wraps `fsync`.
    func sync() throws(StoreError) {
        while fsync(rawValue) != 0 {
            let code = Glibc.errno
            if code != EINTR { throw .cannotWrite(path: path, errno: code) }
        }
    }
}
