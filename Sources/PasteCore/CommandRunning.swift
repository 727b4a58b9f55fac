import Synchronization

/// Runs the program of a `${cmd:…}` reference.
///
/// PasteCore starts no processes itself: PasteCLI implements this with `posix_spawn` and hands
/// it down in `Context`; tests hand down fakes.
public protocol CommandRunning: Sendable {
    /// Runs `arguments[0]` with the rest as its arguments and returns what it printed.
    ///
    /// The program is looked up on `PATH` from `environment` unless it names a path (has a
    /// `/`). It runs with `environment`, stdin from `/dev/null` and stderr discarded, never
    /// through a shell, and is killed (with everything it started) at `timeout`.
    func run(_ arguments: [String], environment: [String: String], timeout: Duration) -> Result<[UInt8], CommandFailure>
}

/// Why a command gave no value. Never carries the command's output (it may be a secret).
public enum CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No such program on `PATH` (or at the path given).
    case notFound
    /// The program could not be started (errno text).
    case cannotStart(reason: String)
    /// It exited with a non-zero status.
    case exited(status: Int32)
    /// A signal ended it.
    case killed(signal: Int32)
    /// It ran longer than the limit and was killed.
    case timedOut(seconds: Int)
    /// It printed more than anything a secret needs.
    case tooMuchOutput(limit: Int)
    /// It printed nothing (or only newlines).
    case printedNothing
    /// No runner was given (a library use without `Context.commandRunner`).
    case unavailable

    public var description: String {
        switch self {
        case .notFound: "not found on PATH"
        case .cannotStart(let reason): "cannot start: \(reason)"
        case .exited(let status): "exited with status \(status)"
        case .killed(let signal): "was killed by signal \(signal)"
        case .timedOut(let seconds): "did not finish within \(seconds)s and was stopped"
        case .tooMuchOutput(let limit): "printed more than \(limit) bytes"
        case .printedNothing: "printed nothing"
        case .unavailable: "cannot be run here"
        }
    }
}

/// Asks the person at the desktop, for ShareX's `{prompt:…}` and `{select:…}`.
///
/// PasteCLI implements it with the Alerts windows.
public protocol Asking: Sendable {
    /// Asks for one line of text. Returns nil when the person cancels.
    /// - Throws: when no window can be shown (why, as its part says it).
    func askText(title: String, initial: String) throws(PartError) -> String?

    /// Asks the person to choose one of `choices`. Returns the index, or nil when cancelled.
    /// - Throws: when no window can be shown.
    func choose(among choices: [String], title: String) throws(PartError) -> Int?
}

/// Values a run resolves once however often they are used: a command's output (by its text),
/// the person's answer to a question.
///
/// One per `Context`, shared by every builder of the run (a batch of files, `--retry` of many
/// entries). The only shared mutable state in PasteCore, behind a `Mutex`.
public final class RunCache: Sendable {
    private let values = Mutex<[String: String]>([:])

    public init() {}

    /// The value stored for `key`, if any.
    public func value(for key: String) -> String? {
        values.withLock { $0[key] }
    }

    /// Stores `value` for `key`.
    public func store(_ value: String, for key: String) {
        values.withLock { $0[key] = value }
    }
}
