internal import CSystemShims
internal import Glibc

/// A process this process started, known by its pid.
///
/// A child stays one until it is waited for: `waitForExit` (or `exitStatusIfEnded` once it
/// has ended) reaps it.
public struct ChildProcess: Sendable, Hashable {
    /// The pid.
    public let id: Int32

    /// Names a child by its pid.
    public init(id: Int32) { self.id = id }

    /// What a spawned child's standard descriptor is connected to.
    public enum Redirection: Sendable {
        /// `/dev/null`.
        case null
        /// This descriptor of ours, `dup2`ed into place in the child.
        case descriptor(Int32)
        /// Closed in the child.
        case closed
    }

    /// Starts `path` with `arguments` (argv[0] included) and exactly `environment`.
    ///
    /// Wraps `posix_spawn` with a cleared signal mask and default dispositions for the signals a
    /// caller may have changed (`SIGPIPE`, `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`, `SIGCHLD`),
    /// and `POSIX_SPAWN_SETSID` when `newSession` (the child leaves our terminal's session and
    /// process group), starting in `currentDirectory` when one is given. The child gets only
    /// the three descriptors given here: every other one is closed in it (`closefrom(3)`), so a
    /// pipe another thread opened at the same moment without close-on-exec never leaks into it
    /// (and never keeps that pipe's reader waiting for an end of file).
    /// - Throws: `Errno` from `posix_spawn` (`noSuchFileOrDirectory` for a missing program).
    public static func spawn(
        _ path: String, arguments: [String], environment: [String: String],
        standardInput: Redirection, standardOutput: Redirection, standardError: Redirection, newSession: Bool,
        currentDirectory: String? = nil
    ) throws(Errno) -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, redirection) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
            switch redirection {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let descriptor):
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case .closed:
                posix_spawn_file_actions_addclose(&actions, target)
            }
        }
        csystem_spawn_addclosefrom(&actions, 3)
        if let currentDirectory { csystem_spawn_addchdir(&actions, currentDirectory) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var defaulted = sigset_t()
        sigemptyset(&defaulted)
        for signal in Signal.defaultedInChildren { sigaddset(&defaulted, signal.rawValue) }
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaulted)
        var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if newSession { flags |= csystem_posix_spawn_setsid() }
        posix_spawnattr_setflags(&attributes, flags)

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = argv.withUnsafeBufferPointer { argvBuffer in
            envp.withUnsafeBufferPointer { envpBuffer in
                posix_spawn(&pid, path, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
            }
        }
        try nothingOrReturnedErrno(status)
        return ChildProcess(id: pid)
    }

    /// Waits for the child to end and reaps it. Wraps `waitpid`, retrying `EINTR`.
    ///
    /// - Returns: Its exit status, or 128 + the signal that ended it (as a shell reports it);
    ///   -1 when it is not our child (already reaped).
    public func waitForExit() -> Int32 {
        var status: Int32 = 0
        guard (try? valueOrErrno({ waitpid(id, &status, 0) })) != nil else { return -1 }
        return Self.exitStatus(fromWaitStatus: status)
    }

    /// The child's exit status if it has ended (reaping it), nil while it runs.
    /// Wraps `waitpid(WNOHANG)`.
    public func exitStatusIfEnded() -> Int32? {
        var status: Int32 = 0
        guard (try? valueOrErrno({ waitpid(id, &status, WNOHANG) })) == id else { return nil }
        return Self.exitStatus(fromWaitStatus: status)
    }

    /// Sends `signal` to the child. Wraps `kill`.
    public func send(_ signal: Signal) throws(Errno) {
        try nothingOrErrno { kill(id, signal.rawValue) }
    }

    /// Sends `signal` to the child's process group, so what it started gets it too: a child
    /// spawned with `newSession` leads a group of its own. Wraps `kill` with the negated pid.
    public func sendToGroup(_ signal: Signal) throws(Errno) {
        try nothingOrErrno { kill(-id, signal.rawValue) }
    }

    /// `WEXITSTATUS`, or 128 + `WTERMSIG` (the macros are not imported into Swift).
    static func exitStatus(fromWaitStatus status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
