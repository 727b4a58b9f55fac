#if canImport(Glibc)
    import Glibc
#endif

/// What stdin is, which decides where the text comes from.
public enum StandardInputKind: Sendable, Equatable {
    /// A pipe or a socket: stream it.
    case stream
    /// A regular file of this many bytes from the current offset.
    case file(size: Int64)
    /// A terminal, /dev/null, or closed: not text for us (a launcher started paste).
    case none
}

/// The process's standard streams, written with plain `write(2)` (no buffering to lose on exit).
public enum StandardStreams {
    /// Classifies descriptor 0 with `fstat`.
    public static func inputKind() -> StandardInputKind {
        var status = stat()
        guard unsafe fstat(0, &status) == 0 else { return .none }
        switch status.st_mode & S_IFMT {
        case S_IFIFO, S_IFSOCK: return .stream
        case S_IFREG:
            let offset = lseek(0, 0, SEEK_CUR)
            return .file(size: max(0, Int64(status.st_size) - Int64(max(offset, 0))))
        default: return .none
        }
    }

    /// Whether a descriptor is a terminal.
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Writes all of `text` to a descriptor, retrying short writes and EINTR.
    public static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = unsafe bytes.withUnsafeMutableBytes {
                unsafe Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += count
        }
    }

    /// Writes to stdout.
    public static func out(_ text: String) { write(text, to: 1) }
    /// Writes to stderr.
    public static func err(_ text: String) { write(text, to: 2) }
}
