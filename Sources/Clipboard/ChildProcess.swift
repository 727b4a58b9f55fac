import Glibc

/// The few POSIX process and descriptor calls the clipboard needs, each wrapped once.
///
/// Processes are started with `posix_spawn`, never `fork`: the caller may already run threads
/// (Dispatch, Swift concurrency), and a forked copy of a threaded process may only call
/// async-signal-safe functions. Descriptors we create are close-on-exec, so a child gets only
/// what the file actions give it.
enum ChildProcess {
    /// `POSIX_SPAWN_SETSID` (glibc ≥ 2.26): `<spawn.h>` declares it only under `_GNU_SOURCE`,
    /// which Swift's Glibc module does not define, so its value (0x80 in glibc) is repeated here.
    static let spawnSetSessionFlag: Int32 = 0x80

    /// What a child's standard descriptor is connected to.
    enum Stream {
        /// `/dev/null`.
        case null
        /// This descriptor of ours (dup'ed into place in the child).
        case descriptor(Int32)
    }

    /// Starts `path` with `arguments` (argv[0] included) and `environment`.
    ///
    /// Wraps `posix_spawn` with `POSIX_SPAWN_SETSID` when `newSession` (the child leaves our
    /// terminal's session and process group), a cleared signal mask and default dispositions for
    /// the signals a caller may have changed. Our own descriptors are close-on-exec; descriptors
    /// the caller inherited are closed by the child (`StandardStreams.closeInherited`).
    /// - Returns: the child's pid, or the `errno` of the failure.
    static func spawn(
        _ path: String, arguments: [String], environment: [String: String],
        stdin: Stream, stdout: Stream, stderr: Stream, newSession: Bool
    ) -> Result<pid_t, Errno> {
        var actions = unsafe posix_spawn_file_actions_t()
        unsafe posix_spawn_file_actions_init(&actions)
        defer { unsafe posix_spawn_file_actions_destroy(&actions) }
        for (target, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .null:
                unsafe posix_spawn_file_actions_addopen(
                    &actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let descriptor):
                unsafe posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }

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
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if newSession { flags |= spawnSetSessionFlag }
        unsafe posix_spawnattr_setflags(&attributes, Int16(flags))

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
        return status == 0 ? .success(pid) : .failure(Errno(status))
    }

    /// Waits for `pid` to end and returns its status (128 + signal when killed). Wraps `waitpid`.
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while unsafe waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return exitStatus(fromWaitStatus: status)
    }

    /// The exit status of a finished child if it has ended, without blocking. Wraps
    /// `waitpid(WNOHANG)`.
    static func exitStatusIfEnded(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let result = unsafe waitpid(pid, &status, WNOHANG)
        return result == pid ? exitStatus(fromWaitStatus: status) : nil
    }

    /// WEXITSTATUS, or 128 + WTERMSIG (the macros are not imported into Swift).
    private static func exitStatus(fromWaitStatus status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}

/// An `errno` value.
struct Errno: Error, Equatable {
    let rawValue: Int32
    init(_ rawValue: Int32) { self.rawValue = rawValue }
    /// The calling thread's current `errno`.
    static var current: Errno { Errno(errno) }
}

/// The `strerror` text for an `errno` value.
func errorText(_ code: Int32) -> String {
    unsafe String(cString: strerror(code))
}

/// Owned file descriptors with the few operations we need; closed on deinit.
final class FileDescriptor {
    let rawValue: Int32
    private var isClosed = false

    init(_ rawValue: Int32) { self.rawValue = rawValue }
    deinit { close() }

    /// Closes it now. Wraps `close(2)`.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(rawValue)
    }

    /// A connected pair of close-on-exec, stream sockets (`socketpair(AF_UNIX, SOCK_STREAM)`).
    ///
    /// Used instead of pipes: `send(MSG_NOSIGNAL)` reports a vanished reader as `EPIPE` instead
    /// of killing the caller with `SIGPIPE` (libraries must not change signal dispositions), and
    /// `SOCK_CLOEXEC` is atomic where `pipe2(O_CLOEXEC)` is `_GNU_SOURCE`-only in Swift's Glibc
    /// (a `pipe` + `fcntl` pair would race with a spawn on another thread). The child reads and
    /// writes them like pipes.
    static func socketPair() -> Result<(FileDescriptor, FileDescriptor), Errno> {
        var descriptors: [Int32] = [0, 0]
        guard
            unsafe socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &descriptors) == 0
        else { return .failure(.current) }
        return .success((FileDescriptor(descriptors[0]), FileDescriptor(descriptors[1])))
    }

    /// Makes reads and writes return `EAGAIN` instead of blocking (`fcntl(F_SETFL, O_NONBLOCK)`).
    func setNonBlocking() {
        let flags = fcntl(rawValue, F_GETFL)
        _ = fcntl(rawValue, F_SETFL, flags | O_NONBLOCK)
    }

    /// Waits until the descriptor is ready for `events` or `deadline` passes. Wraps `poll(2)`.
    /// - Returns: false at the deadline.
    func wait(for events: Int16, before deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = deadline - .now
            if left <= .zero { return false }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var descriptor = pollfd(fd: rawValue, events: events, revents: 0)
            let ready = unsafe poll(&descriptor, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }  // Let the read or write report it.
        }
    }

    /// Sends all of `bytes` on a non-blocking socket before `deadline`, without `SIGPIPE`.
    func sendAll(_ bytes: [UInt8], before deadline: ContinuousClock.Instant) -> Result<Void, Errno> {
        var offset = 0
        while offset < bytes.count {
            let sent = unsafe bytes.withUnsafeBytes { buffer in
                unsafe send(rawValue, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EINTR) {
                if !wait(for: Int16(POLLOUT), before: deadline) { return .failure(Errno(ETIMEDOUT)) }
            } else {
                return .failure(.current)
            }
        }
        return .success(())
    }

    /// Reads to end of file, waiting at most until `deadline` for each piece.
    /// - Returns: the bytes, or a failure (`ETIMEDOUT` when the writer went quiet).
    func readAll(idleDeadline timeout: Duration) -> Result<[UInt8], Errno> {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if !wait(for: Int16(POLLIN), before: .now + timeout) { return .failure(Errno(ETIMEDOUT)) }
            let count = unsafe chunk.withUnsafeMutableBytes { unsafe Glibc.read(rawValue, $0.baseAddress, $0.count) }
            if count > 0 {
                result.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                return .success(result)
            } else if errno != EINTR && errno != EAGAIN {
                return .failure(.current)
            }
        }
    }

    /// Reads one byte, waiting until `deadline`.
    /// - Returns: the byte, nil at end of file, or a failure (`ETIMEDOUT` at the deadline).
    func readByte(before deadline: ContinuousClock.Instant) -> Result<UInt8?, Errno> {
        while true {
            if !wait(for: Int16(POLLIN), before: deadline) { return .failure(Errno(ETIMEDOUT)) }
            var byte: UInt8 = 0
            let count = unsafe Glibc.read(rawValue, &byte, 1)
            if count == 1 { return .success(byte) }
            if count == 0 { return .success(nil) }
            if errno != EINTR && errno != EAGAIN { return .failure(.current) }
        }
    }
}

/// Operations on the helper's own standard descriptors.
enum StandardStreams {
    /// Reads descriptor `descriptor` to end of file, growing the buffer geometrically.
    static func readAll(_ descriptor: Int32) -> Result<[UInt8], Errno> {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = unsafe chunk.withUnsafeMutableBytes { unsafe Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                result.append(contentsOf: chunk[0..<count])
                if count == chunk.count && chunk.count < 1 << 22 {
                    chunk = [UInt8](repeating: 0, count: chunk.count * 4)
                }
            } else if count == 0 {
                return .success(result)
            } else if errno != EINTR {
                return .failure(.current)
            }
        }
    }

    /// Writes one byte to `descriptor` (ignoring a reader that left). Wraps `write(2)`.
    static func writeByte(_ byte: UInt8, to descriptor: Int32) {
        var value = byte
        while unsafe Glibc.write(descriptor, &value, 1) < 0 && errno == EINTR {}
    }

    /// Points `descriptor` at `/dev/null`, dropping whatever it held (`open` + `dup2`).
    static func detach(_ descriptor: Int32) {
        let null = unsafe open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
        guard null >= 0 else {
            _ = close(descriptor)
            return
        }
        _ = dup2(null, descriptor)
        if null != descriptor { _ = close(null) }
    }

    /// Closes every descriptor from 3 up: ones our caller's caller leaked to it without
    /// close-on-exec (`posix_spawn_file_actions_addclosefrom_np` is `_GNU_SOURCE`-only).
    static func closeInherited(keeping kept: Int32? = nil) {
        // The open descriptors are listed in /proc/self/fd: closing those few is much cheaper
        // than calling close() on every number up to the limit (20,000 calls here, milliseconds
        // on the hotkey path). Without /proc, fall back to the loop.
        if let folder = unsafe opendir("/proc/self/fd") {
            let own = unsafe dirfd(folder)
            var open: [Int32] = []
            while let entry = unsafe readdir(folder) {
                let name = unsafe withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    unsafe String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if let descriptor = Int32(name), descriptor >= 3, descriptor != own, descriptor != kept {
                    open.append(descriptor)
                }
            }
            _ = unsafe closedir(folder)
            for descriptor in open { _ = close(descriptor) }
            return
        }
        let limit = min(Int32(clamping: sysconf(Int32(_SC_OPEN_MAX))), 1 << 16)
        guard limit > 3 else { return }
        for descriptor in 3..<limit where descriptor != kept { _ = close(descriptor) }
    }

    /// Whether this process runs one thread only (`/proc/self/task` has one entry): the
    /// condition for `fork` without `exec` (STYLE rule 21). False when it cannot be told.
    static func isSingleThreaded() -> Bool {
        guard let folder = unsafe opendir("/proc/self/task") else { return false }
        defer { _ = unsafe closedir(folder) }
        var threads = 0
        while let entry = unsafe readdir(folder) {
            let isDot = unsafe withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
            if !isDot { threads += 1 }
        }
        return threads == 1
    }

    /// Leaves the working directory so the helper pins no mount point. Wraps `chdir("/")`.
    static func leaveWorkingDirectory() {
        _ = unsafe chdir("/")
    }
}
