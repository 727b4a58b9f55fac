internal import CSystemShims
internal import Glibc

/// Calls on paths rather than on open descriptors: status, rename, unlink, mkdir, access and
/// directory listings.
public enum FileSystem {
    /// The status of the file at `path`. Wraps `stat`, or `lstat` when not following links.
    ///
    /// - Parameter followingSymbolicLinks: false to describe a symbolic link itself.
    public static func status(ofPath path: String, followingSymbolicLinks: Bool = true) throws(Errno) -> FileStatus {
        var status = stat()
        if followingSymbolicLinks {
            try nothingOrErrno { stat(path, &status) }
        } else {
            try nothingOrErrno { lstat(path, &status) }
        }
        return FileStatus(status)
    }

    /// Whether `path` names a directory (following symbolic links). Wraps `stat`.
    public static func isDirectory(_ path: String) -> Bool {
        (try? status(ofPath: path))?.kind == .directory
    }

    /// Renames a file, atomically replacing `destination` when it exists. Wraps `rename`.
    public static func rename(_ source: String, to destination: String) throws(Errno) {
        try nothingOrErrno { Glibc.rename(source, destination) }
    }

    /// Removes a file (not a directory). Wraps `unlink`.
    public static func removeFile(_ path: String) throws(Errno) {
        try nothingOrErrno { unlink(path) }
    }

    /// Removes an empty directory. Wraps `rmdir`.
    ///
    /// - Throws: `Errno` (`ENOTEMPTY` when something is still in it).
    public static func removeDirectory(_ path: String) throws(Errno) {
        try nothingOrErrno { rmdir(path) }
    }

    /// Removes a file in a detached process, once this process has released its `flock` locks
    /// on it (at the latest when it exits): for a large file whose removal makes the file
    /// system free many blocks, which can take a while (on ext4 mounted with `discard`, about
    /// 0.2 s per GiB waiting for the device), so this process need not wait for it.
    ///
    /// Wraps `csystem_unlink_when_released` (a double `fork`; the grandchild takes an exclusive
    /// `flock` on the file, truncates it, then unlinks it: the name is gone only once the blocks
    /// are freed). Only for a file nothing else locks or replaces:
    /// the grandchild removes whatever `path` names once it gets the lock.
    /// - Throws: `Errno` when the process could not be started (nothing was removed).
    public static func removeFileWhenReleased(_ path: String) throws(Errno) {
        try nothingOrErrno(retryOnInterrupt: false) { csystem_unlink_when_released(path) }
    }

    /// Creates one directory. Wraps `mkdir`.
    ///
    /// - Parameter permissions: Its mode (the umask applies).
    public static func createDirectory(_ path: String, permissions: FilePermissions = .ownerAll) throws(Errno) {
        try nothingOrErrno { mkdir(path, permissions.rawValue) }
    }

    /// What `isAccessible` checks.
    public enum Access: Sendable {
        /// `R_OK`.
        case read
        /// `X_OK`.
        case execute

        var mode: Int32 {
            switch self {
            case .read: R_OK
            case .execute: X_OK
            }
        }
    }

    /// Whether the real user may read or execute `path`. Wraps `access`.
    public static func isAccessible(_ path: String, for access: Access) -> Bool {
        Glibc.access(path, access.mode) == 0
    }

    /// The names in a directory, without `.` and `..`, in the order the file system gives.
    /// Wraps `opendir`/`readdir`/`closedir`.
    public static func entries(ofDirectory path: String) throws(Errno) -> [String] {
        var names: [String] = []
        try forEachEntry(ofDirectory: path) { name, _ in names.append(String(decoding: name, as: UTF8.self)) }
        return names
    }

    /// Calls `body` with each name in a directory but `.` and `..` (its bytes, valid during the
    /// call) and the descriptor the listing itself holds, without making a `String` of any.
    /// Wraps `opendir`/`dirfd`/`readdir`/`closedir`.
    static func forEachEntry(
        ofDirectory path: String, _ body: (UnsafeRawBufferPointer, _ listingDescriptor: Int32) -> Void
    ) throws(Errno) {
        guard let directory = opendir(path) else { throw .current }
        defer { closedir(directory) }
        let own = dirfd(directory)
        while let entry = readdir(directory) {
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let name = UnsafeRawBufferPointer(rebasing: raw.prefix { $0 != 0 })
                let isDots =
                    name.elementsEqual([UInt8(ascii: ".")])
                    || name.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")])
                if !isDots { body(name, own) }
            }
        }
    }

    /// The reason to show when `readFile` refused a file that is not a regular one.
    public static let notRegularFileReason = "not a regular file (a FIFO, socket or device)"

    /// The reason to show for a failure of `readFile`.
    public static func reason(readingFile error: Errno) -> String {
        error == .invalidArgument ? notRegularFileReason : error.message
    }

    /// What `readFile` returns: the bytes and the status of the file they came from.
    public struct Contents: Sendable {
        /// The whole file.
        public var bytes: [UInt8]
        /// Its status when it was opened (kind, permission bits, ...).
        public var status: FileStatus
    }

    /// Reads a whole file, refusing more than `limit` bytes. Wraps `open(O_NONBLOCK)` + `fstat`
    /// + `read`.
    ///
    /// Opened without blocking and checked before a byte is read: a FIFO's open would wait for
    /// a writer (forever, for a config named by `--config`), so one opens at once here and is
    /// refused, as are sockets and devices.
    /// - Throws: `Errno.isDirectory` for a directory, `.invalidArgument` for anything else
    ///   that is not a regular file (`notRegularFileReason` says so), `.fileTooLarge` past
    ///   `limit`, or the `open`/`read` failure.
    public static func readFile(_ path: String, limit: Int = .max) throws(Errno) -> Contents {
        let file = try FileDescriptor.open(path, .readOnly, options: .nonBlocking)
        let status = try file.status()
        if status.kind == .directory { throw .isDirectory }
        if status.kind != .regular { throw .invalidArgument }
        var bytes: [UInt8] = []
        do {
            try file.forEachChunk(chunkSize: readChunkSize(forFileOf: status.size)) { chunk in
                bytes += chunk
                if bytes.count > limit { throw Errno.fileTooLarge }
            }
        } catch let error as Errno {
            throw error
        } catch {
            preconditionFailure("only Errno is thrown here: \(error)")
        }
        return Contents(bytes: bytes, status: status)
    }

    /// The buffer `readFile` reads into: the file's size and one byte more (the read that sees
    /// the end), from 512 bytes to 64 KiB. A config of a few lines no longer has 64 KiB zeroed
    /// for it at every start (issue 44; the heap's pages are touched later all the same, so
    /// the page faults stay); a file that grew since `fstat` is read on to its end all the same.
    static func readChunkSize(forFileOf size: Int64) -> Int {
        Int(min(max(size, 511), (64 << 10) - 1)) + 1
    }

    /// Reads a file in chunks, handing each to `body` (see `FileDescriptor.forEachChunk`).
    ///
    /// - Throws: `Errno` when the file cannot be opened or read, or whatever `body` throws.
    public static func forEachChunk(
        ofFile path: String, chunkSize: Int = 1 << 20, _ body: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        let file = try FileDescriptor.open(path, .readOnly)
        try file.forEachChunk(chunkSize: chunkSize, body)
    }
}
