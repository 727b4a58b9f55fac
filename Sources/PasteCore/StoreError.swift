import SystemInterop

/// A failure of paste's local stores: the history file, the outbox, their locks and folders.
///
/// Every case carries the path it was about and, where a system call failed, its `errno`; the
/// message is composed only when shown. All of them end the run with `EX_IOERR` (74), except a
/// record that cannot be encoded, which is a bug in paste (70).
public enum StoreError: PasteError, Equatable, Sendable {
    /// A folder could not be created (`mkdir`).
    case cannotCreateFolder(path: String, errno: Errno)
    /// A file could not be opened or created (`open`).
    case cannotOpen(path: String, errno: Errno)
    /// A file could not be read (`read`, `fstat`).
    case cannotRead(path: String, errno: Errno)
    /// A file could not be written, synced or renamed into place (`write`, `fsync`, `rename`).
    case cannotWrite(path: String, errno: Errno)
    /// A lock could not be taken (`flock`).
    case cannotLock(path: String, errno: Errno)
    /// A file could not be removed (`unlink`).
    case cannotRemove(path: String, errno: Errno)
    /// A metadata file exists but does not hold what paste writes there.
    case corruptMetadata(path: String)
    /// A record could not be encoded as JSON (a bug: records hold only strings and numbers).
    case cannotEncode(path: String)

    /// The path the failure was about.
    public var path: String {
        switch self {
        case .cannotCreateFolder(let path, _), .cannotOpen(let path, _), .cannotRead(let path, _),
            .cannotWrite(let path, _), .cannotLock(let path, _), .cannotRemove(let path, _),
            .corruptMetadata(let path), .cannotEncode(let path):
            path
        }
    }

    /// The `Errno` of the failed system call, when one failed.
    public var errno: Errno? {
        switch self {
        case .cannotCreateFolder(_, let code), .cannotOpen(_, let code), .cannotRead(_, let code),
            .cannotWrite(_, let code), .cannotLock(_, let code), .cannotRemove(_, let code):
            code
        case .corruptMetadata, .cannotEncode:
            nil
        }
    }

    public var message: String {
        switch self {
        case .cannotCreateFolder(let path, let code):
            "cannot create folder '\(path)': \(code.message)"
        case .cannotOpen(let path, let code):
            "cannot open '\(path)': \(code.message)"
        case .cannotRead(let path, let code):
            "cannot read '\(path)': \(code.message)"
        case .cannotWrite(let path, let code):
            "cannot write '\(path)': \(code.message)"
        case .cannotLock(let path, let code):
            "cannot lock '\(path)': \(code.message)"
        case .cannotRemove(let path, let code):
            "cannot remove '\(path)': \(code.message)"
        case .corruptMetadata(let path):
            "cannot read '\(path)': it is not an outbox metadata file"
        case .cannotEncode(let path):
            "cannot encode a record for '\(path)'"
        }
    }

    public var hint: String? {
        switch self {
        case .corruptMetadata(let path):
            "move '\(path)' and its content file out of the outbox, then run paste --retry again"
        case .cannotWrite(_, .noSpace):
            "the disk is full; free some space"
        default:
            nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .cannotEncode: .internalError
        default: .ioError
        }
    }

    /// Runs SystemInterop calls, turning the `Errno` they throw into the store error `failure`
    /// makes of it (which keeps it as its payload).
    static func attempt<Result: ~Copyable>(
        _ failure: (Errno) -> StoreError, _ body: () throws(Errno) -> Result
    ) throws(StoreError) -> Result {
        do {
            return try body()
        } catch {
            throw failure(error)
        }
    }
}
