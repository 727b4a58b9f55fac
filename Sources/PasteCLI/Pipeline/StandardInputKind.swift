import SystemInterop

/// What stdin is, which decides where the text comes from.
public enum StandardInputKind: Sendable, Equatable {
    /// A pipe or a socket: stream it.
    case stream
    /// A regular file of this many bytes from the current offset.
    case file(size: Int64)
    /// A terminal, /dev/null, or closed: not text for us (a launcher started paste).
    case none

    /// Classifies descriptor 0 (`fstat`, and `lseek` for a file's offset).
    public static func current() -> StandardInputKind {
        guard let status = try? StandardStream.input.status() else { return .none }
        switch status.kind {
        case .fifo, .socket: return .stream
        case .regular:
            let offset = (try? StandardStream.input.currentOffset()) ?? 0
            return .file(size: max(0, status.size - max(offset, 0)))
        default: return .none
        }
    }
}
