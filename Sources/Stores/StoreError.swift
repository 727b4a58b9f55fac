import PasteCore
import SystemInterop

/// A failure of paste's local stores: the history file, the outbox, their locks and folders.
///
/// Every case carries what it was about (a path, or an outbox entry's id) and, where a system
/// call failed, its `errno`; the message is composed only when shown. Most end the run with
/// `EX_IOERR` (74); see `exitStatus`.
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
    /// A file of the state folder is not a regular file: a FIFO, a device, a socket, a folder,
    /// or a symbolic link (which paste never follows there). Never opened for reading, so a
    /// FIFO cannot hang a run.
    case notRegularFile(path: String, kind: FileStatus.Kind)
    /// Where a folder of paste's own should be there is something else (a regular file, a
    /// symbolic link).
    case notAFolder(path: String, kind: FileStatus.Kind)
    /// A file or folder of paste's state belongs to another user.
    case notOwned(path: String, ownerID: UInt32)
    /// An outbox entry's content is not the length its metadata recorded (damaged on disk).
    case incompleteContent(path: String, expected: Int64, actual: Int64)
    /// No outbox entry has this id (or name).
    case noSuchEntry(id: String)
    /// The id is the start of several entries' ids.
    case ambiguousEntry(id: String, matches: [String])
    /// Another run holds the entry: it is being written or sent right now.
    case entryBusy(id: String)

    /// The path the failure was about; for the entry cases, the id given.
    public var path: String {
        switch self {
        case .cannotCreateFolder(let path, _), .cannotOpen(let path, _), .cannotRead(let path, _),
            .cannotWrite(let path, _), .cannotLock(let path, _), .cannotRemove(let path, _),
            .corruptMetadata(let path), .cannotEncode(let path), .notRegularFile(let path, _),
            .notAFolder(let path, _), .notOwned(let path, _), .incompleteContent(let path, _, _):
            path
        case .noSuchEntry(let id), .ambiguousEntry(let id, _), .entryBusy(let id):
            id
        }
    }

    /// The `Errno` of the failed system call, when one failed.
    public var errno: Errno? {
        switch self {
        case .cannotCreateFolder(_, let code), .cannotOpen(_, let code), .cannotRead(_, let code),
            .cannotWrite(_, let code), .cannotLock(_, let code), .cannotRemove(_, let code):
            code
        default:
            nil
        }
    }

    public var message: String {
        switch self {
        case .cannotCreateFolder(let path, let code):
            "cannot create folder '\(shownPath: path)': \(code.message)"
        case .cannotOpen(let path, let code):
            "cannot open '\(shownPath: path)': \(code.message)"
        case .cannotRead(let path, let code):
            "cannot read '\(shownPath: path)': \(code.message)"
        case .cannotWrite(let path, let code):
            "cannot write '\(shownPath: path)': \(code.message)"
        case .cannotLock(let path, let code):
            "cannot lock '\(shownPath: path)': \(code.message)"
        case .cannotRemove(let path, let code):
            "cannot remove '\(shownPath: path)': \(code.message)"
        case .corruptMetadata(let path):
            "cannot read '\(shownPath: path)': it is not an outbox metadata file"
        case .cannotEncode(let path):
            "cannot encode a record for '\(shownPath: path)'"
        case .notRegularFile(let path, .symbolicLink):
            "'\(shownPath: path)' is a symbolic link; paste does not follow links in its state folder"
        case .notRegularFile(let path, let kind):
            "'\(shownPath: path)' is \(Self.describe(kind)), not a regular file"
        case .notAFolder(let path, let kind):
            "'\(shownPath: path)' is \(Self.describe(kind)), not a folder"
        case .notOwned(let path, let ownerID):
            "'\(shownPath: path)' belongs to another user (uid \(ownerID))"
        case .incompleteContent(let path, let expected, let actual):
            "'\(shownPath: path)' holds \(actual) bytes, not the \(expected) that were stored"
        case .noSuchEntry(let id):
            "no outbox entry '\(shown: id)'"
        case .ambiguousEntry(let id, let matches):
            "'\(shown: id)' is the start of \(matches.count) outbox entries' ids"
        case .entryBusy(let id):
            "outbox entry \(shown: id) is being written or sent by another paste run"
        }
    }

    public var hint: String? {
        switch self {
        case .corruptMetadata(let path):
            "move '\(shownPath: path)' and its content file out of the outbox, then run paste --retry again"
        case .cannotWrite(_, .noSpace):
            "the disk is full; free some space"
        case .notRegularFile, .notAFolder:
            "move it away; paste makes its own files there"
        case .notOwned(let path, _):
            "paste keeps its state private: use a folder of your own (XDG_STATE_HOME), or remove '\(shownPath: path)'"
        case .noSuchEntry:
            "'paste --outbox' lists the entries and their ids"
        case .ambiguousEntry:
            "give more of the id"
        default:
            nil
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .cannotEncode: .internalError
        case .noSuchEntry: .noInput
        case .ambiguousEntry: .usage
        case .entryBusy: .temporaryFailure
        default: .ioError
        }
    }

    /// How a kind of file reads in a message (`a FIFO`).
    static func describe(_ kind: FileStatus.Kind) -> String {
        switch kind {
        case .regular: "a regular file"
        case .directory: "a folder"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .symbolicLink: "a symbolic link"
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

/// The text of a run could not be put in the outbox: the run says so instead of claiming that
/// the text waits there (`paste: the text could not be saved: REASON`, status 74).
///
/// PasteCLI throws it when `Outbox.create` (or an append, or recording a failure) throws; the
/// store's own error is kept whole as `failure`.
public struct TextNotSaved: PasteError, Equatable {
    /// Why the outbox could not take the text.
    public var failure: StoreError
    /// Whether the text came from a selection that still holds it (said in the hint).
    public var isOnClipboard: Bool

    /// Wraps a store failure.
    public init(failure: StoreError, isOnClipboard: Bool) {
        self.failure = failure
        self.isOnClipboard = isOnClipboard
    }

    public var message: String { "the text could not be saved: \(failure.message)" }

    public var hint: String? {
        let kept = isOnClipboard ? "the clipboard still holds the text" : nil
        switch (kept, failure.hint) {
        case (let kept?, let own?): return kept + "\n" + own
        case (let kept?, nil): return kept
        case (nil, let own): return own
        }
    }

    public var exitStatus: ExitStatus { .ioError }
}

extension StoreError {
    /// Retryable: a local failure, nothing was sent (`OutboxFailure`'s table).
    public var disposition: Disposition { Disposition(.retryLater, exitStatus: exitStatus) }
}
