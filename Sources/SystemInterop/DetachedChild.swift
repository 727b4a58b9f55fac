/// A helper process started detached from its caller, with two sockets: the one set-up the
/// clipboard's owners (X11 and Wayland) and the desktop notifier share, spawned or forked.
///
/// The child's stdin carries what the caller sends (then end of file), its stdout carries back
/// a status (one byte, then it closes); its stderr is /dev/null; it runs in a session of its own
/// and holds none of the caller's descriptors once it has closed the inherited ones, so
/// `url=$(paste …)` returns at once. Sockets rather than pipes: a write to a child that is gone
/// fails with EPIPE instead of blocking. Frozen, as `SocketPair` is, so other modules may take
/// its parts apart (`let input = launched.input`).
@frozen
public struct DetachedChild: ~Copyable {
    /// The child; it stays the caller's child (tests reap it).
    public let process: ChildProcess
    /// The caller's end of the child's stdin.
    public var input: FileDescriptor
    /// The caller's end of the child's stdout.
    public var status: FileDescriptor

    /// Why a detached child could not be started.
    public enum Failure: Error, Equatable, Sendable {
        /// A socket pair could not be made.
        case sockets(Errno)
        /// `posix_spawn` failed.
        case spawn(Errno)
    }

    /// Spawns `executable` (`posix_spawn`, in a new session) with the two sockets.
    ///
    /// - Parameter currentDirectory: where the child starts; nil for the caller's.
    public static func spawn(
        _ executable: String, arguments: [String], environment: [String: String], currentDirectory: String? = nil
    ) throws(Failure) -> DetachedChild {
        let input = try makeSocketPair()
        let status = try makeSocketPair()
        let inputOurs = input.first
        let inputTheirs = input.second
        let statusOurs = status.first
        let statusTheirs = status.second
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(
                executable, arguments: arguments, environment: environment,
                standardInput: .descriptor(inputTheirs.rawValue), standardOutput: .descriptor(statusTheirs.rawValue),
                standardError: .null, newSession: true, currentDirectory: currentDirectory)
        } catch {
            throw .spawn(error)
        }
        _ = consume inputTheirs
        _ = consume statusTheirs
        return DetachedChild(process: child, input: inputOurs, status: statusOurs)
    }

    /// A socket pair, its failure as a `Failure`.
    private static func makeSocketPair() throws(Failure) -> SocketPair {
        do { return try FileDescriptor.makeSocketPair() } catch { throw .sockets(error) }
    }

    /// Forks a child that runs `body` with the two sockets as its stdin and stdout, then
    /// `_exit`s with what it returns (never the parent's atexit handlers or stdio buffers); it
    /// never returns into the caller's code. Call only while the process has one thread.
    ///
    /// - Returns: nil when a socket or `fork` fails (the caller then spawns).
    public static func fork(running body: () -> Int32) -> DetachedChild? {
        guard let input = try? FileDescriptor.makeSocketPair(), let status = try? FileDescriptor.makeSocketPair()
        else { return nil }
        let inputOurs = input.first
        let inputTheirs = input.second
        let statusOurs = status.first
        let statusTheirs = status.second
        switch try? CurrentProcess.fork() {
        case .child:
            // Only the steps that make it a process of its own, then the body, then _exit.
            _ = consume inputOurs
            _ = consume statusOurs
            try? inputTheirs.duplicate(onto: .input)
            try? statusTheirs.duplicate(onto: .output)
            StandardStream.error.redirectToNull()
            // Its command line is the parent's: none of the run's arguments stays readable there.
            CurrentProcess.eraseArguments()
            CurrentProcess.startSession()
            CurrentProcess.exitImmediately(body())
        case .parent(let child):
            return DetachedChild(process: child, input: inputOurs, status: statusOurs)
        case nil:
            return nil
        }
    }
}
