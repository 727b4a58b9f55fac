import PasteCore

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the commands of `${cmd:…}` references: `posix_spawn`, no shell, stdin from
/// `/dev/null`, stderr discarded, stdout read to its end within a deadline.
///
/// Interim home: this belongs in SystemInterop (spawn, descriptors, poll with deadlines) once
/// that module exists; it repeats the few calls `Clipboard/ChildProcess.swift` makes, because
/// that type is internal to Clipboard and about clipboard helpers.
struct CommandRunner: CommandRunning {
    /// The most output read: far more than any token or password.
    static let maximumOutput = 1 << 20
    /// How often a quiet child is checked for having exited (its stdout may be held open by
    /// something it started, such as an agent it forked, so end of file alone cannot tell).
    static let exitCheckInterval: Duration = .milliseconds(50)

    func run(_ arguments: [String], environment: [String: String], timeout: Duration) -> Result<[UInt8], CommandFailure>
    {
        guard let program = arguments.first, let path = Self.locate(program, path: environment["PATH"]) else {
            return .failure(.notFound)
        }
        var descriptors: [Int32] = [0, 0]
        guard
            unsafe socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &descriptors) == 0
        else { return .failure(.cannotStart(reason: Self.describe(errno))) }
        let (reading, writing) = (descriptors[0], descriptors[1])
        defer { _ = close(reading) }

        var actions = unsafe posix_spawn_file_actions_t()
        unsafe posix_spawn_file_actions_init(&actions)
        defer { unsafe posix_spawn_file_actions_destroy(&actions) }
        unsafe posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        unsafe posix_spawn_file_actions_adddup2(&actions, writing, 1)
        unsafe posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        var attributes = posix_spawnattr_t()
        unsafe posix_spawnattr_init(&attributes)
        defer { unsafe posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        unsafe sigemptyset(&emptyMask)
        var defaulted = sigset_t()
        unsafe sigemptyset(&defaulted)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD] { unsafe sigaddset(&defaulted, signal) }
        unsafe posix_spawnattr_setsigmask(&attributes, &emptyMask)
        unsafe posix_spawnattr_setsigdefault(&attributes, &defaulted)
        // Its own process group, so a timeout stops whatever it started too.
        unsafe posix_spawnattr_setpgroup(&attributes, 0)
        unsafe posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = unsafe arguments.map { unsafe strdup($0) } + [nil]
        let envp = unsafe environment.map { unsafe strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            unsafe argv.forEach { unsafe free($0) }
            unsafe envp.forEach { unsafe free($0) }
        }
        var pid: pid_t = 0
        let status = unsafe argv.withUnsafeBufferPointer { argvBuffer in
            unsafe envp.withUnsafeBufferPointer { envpBuffer in
                unsafe posix_spawn(&pid, path, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
            }
        }
        _ = close(writing)
        guard status == 0 else {
            return .failure(status == ENOENT ? .notFound : .cannotStart(reason: Self.describe(status)))
        }
        return collect(from: reading, child: pid, deadline: .now + timeout, timeout: timeout)
    }

    /// Reads the child's stdout until it ends (or the child exits), then reaps the child.
    private func collect(from descriptor: Int32, child: pid_t, deadline: ContinuousClock.Instant, timeout: Duration)
        -> Result<[UInt8], CommandFailure>
    {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        var exitStatus: Int32?
        var isOpen = true
        while isOpen {
            let left = deadline - .now
            if left <= .zero { return stop(child, timeout: timeout) }
            let slice = min(left, Self.exitCheckInterval)
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = unsafe poll(
                &poller, 1,
                Int32(slice.components.seconds * 1000 + slice.components.attoseconds / 1_000_000_000_000_000 + 1))
            if ready > 0 {
                let count = unsafe chunk.withUnsafeMutableBytes { unsafe read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    output += chunk[0..<count]
                    if output.count > Self.maximumOutput {
                        _ = stop(child, timeout: timeout)
                        return .failure(.tooMuchOutput(limit: Self.maximumOutput))
                    }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    isOpen = false
                }
            } else if let ended = Self.exitStatusIfEnded(child) {
                // Exited, while something it started still holds the pipe: take what is there.
                exitStatus = ended
                isOpen = false
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                while true {
                    let count = unsafe chunk.withUnsafeMutableBytes {
                        unsafe read(descriptor, $0.baseAddress, $0.count)
                    }
                    guard count > 0, output.count <= Self.maximumOutput else { break }
                    output += chunk[0..<count]
                }
            }
        }
        if exitStatus == nil {
            while exitStatus == nil {
                if let ended = Self.exitStatusIfEnded(child) {
                    exitStatus = ended
                } else if deadline - .now <= .zero {
                    return stop(child, timeout: timeout)
                } else {
                    var nothing = pollfd(fd: -1, events: 0, revents: 0)
                    _ = unsafe poll(
                        &nothing, 1, Int32(Self.exitCheckInterval.components.attoseconds / 1_000_000_000_000_000))
                }
            }
        }
        switch exitStatus! {
        case 0: return .success(output)
        case let code where code > 128: return .failure(.killed(signal: code - 128))
        case let code: return .failure(.exited(status: code))
        }
    }

    /// Kills the child's process group and reaps the child.
    private func stop(_ child: pid_t, timeout: Duration) -> Result<[UInt8], CommandFailure> {
        _ = kill(-child, SIGKILL)
        var status: Int32 = 0
        while unsafe waitpid(child, &status, 0) < 0 && errno == EINTR {}
        return .failure(.timedOut(seconds: Int(timeout.components.seconds)))
    }

    /// The exit status if the child has ended (128 + signal when killed). Wraps `waitpid(WNOHANG)`.
    private static func exitStatusIfEnded(_ child: pid_t) -> Int32? {
        var status: Int32 = 0
        guard unsafe waitpid(child, &status, WNOHANG) == child else { return nil }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// `program` itself when it names a path, else the first executable of that name in `PATH`.
    static func locate(_ program: String, path: String?) -> String? {
        if program.contains("/") { return unsafe access(program, X_OK) == 0 ? program : nil }
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + program
            var status = stat()
            guard unsafe stat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if unsafe access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    private static func describe(_ code: Int32) -> String { unsafe String(cString: strerror(code)) }
}
