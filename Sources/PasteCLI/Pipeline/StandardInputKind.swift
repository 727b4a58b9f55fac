import SystemInterop

/// What stdin is, which decides where the text comes from.
public enum StandardInputKind: Sendable, Equatable {
    /// A pipe or a socket: stream it.
    case stream
    /// A regular file of this many bytes from the current offset.
    case file(size: Int64)
    /// A terminal, /dev/null, or closed: not text for us (a launcher started paste).
    case none

    /// Classifies `stdin`, descriptor 0 unless a test's streams say another (`fstat`, and
    /// `lseek` for a file's offset).
    public static func current(_ stdin: StandardStream = .input) -> StandardInputKind {
        guard let status = try? stdin.status() else { return .none }
        switch status.kind {
        case .fifo, .socket: return .stream
        case .regular:
            let offset = (try? stdin.currentOffset()) ?? 0
            return .file(size: max(0, status.size - max(offset, 0)))
        default: return .none
        }
    }
}
