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
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = unsafe chunk.withUnsafeMutableBytes { unsafe read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.current)
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > limit { return .failure(SystemError(EFBIG)) }
        }
        return .success((bytes, UInt32(status.st_mode)))
    }
}
