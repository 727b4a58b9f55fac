#if canImport(Glibc)
    import Glibc
#endif

/// Small, exact file reads for config and secret files, without Foundation.
public enum FileReader {
    /// Reads a whole file as UTF-8 text, with its permission bits.
    ///
    /// - Returns: the text (invalid UTF-8 repaired) and `st_mode`, or the `errno` of the failure.
    public static func readText(_ path: String) -> Result<(String, UInt32), SystemError> {
        readBytes(path, limit: 16 << 20).map { (String(decoding: $0.0, as: UTF8.self), $0.1) }
    }

    /// Reads a whole file, refusing more than `limit` bytes (`EFBIG`).
    public static func readBytes(_ path: String, limit: Int) -> Result<([UInt8], UInt32), SystemError> {
        let descriptor = unsafe open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.current) }
        defer { close(descriptor) }
        var status = stat()
        guard unsafe fstat(descriptor, &status) == 0 else { return .failure(.current) }
        if status.st_mode & S_IFMT == S_IFDIR { return .failure(SystemError(EISDIR)) }
        var bytes: [UInt8] = []
        do {
            try forEachChunk(of: descriptor, chunkSize: 64 << 10) { chunk in
                bytes += chunk
                if bytes.count > limit { throw SystemError(EFBIG) }
            }
        } catch let error as SystemError {
            return .failure(error)
        } catch {
            preconditionFailure("only SystemError is thrown here")
        }
        return .success((bytes, UInt32(status.st_mode)))
    }

    /// Reads a descriptor to its end in chunks, handing each to `body`: the one read loop of
    /// paste (EINTR retried; a non-blocking descriptor with nothing yet is waited for with `poll`).
    ///
    /// - Throws: `SystemError` when `read` fails, or whatever `body` throws.
    public static func forEachChunk(
        of descriptor: Int32, chunkSize: Int = 1 << 20, _ body: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = unsafe chunk.withUnsafeMutableBytes { unsafe read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN:
                    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    _ = unsafe poll(&entry, 1, -1)
                    continue
                default: throw SystemError.current
                }
            }
            if count == 0 { return }
            try body(chunk[0..<count])
        }
    }

    /// `forEachChunk(of:)` over a file opened read-only for the call.
    ///
    /// - Throws: `SystemError` when the file cannot be opened or read, or whatever `body` throws.
    public static func forEachChunk(
        ofFile path: String, chunkSize: Int = 1 << 20, _ body: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        let descriptor = unsafe open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError.current }
        defer { close(descriptor) }
        try forEachChunk(of: descriptor, chunkSize: chunkSize, body)
    }
}
