internal import CSystemShims
internal import Glibc

/// The running process: its environment and identity, fork and exec, leaving, and the steps a
/// detached child takes to let go of its parent's session, descriptors and folder.
public enum CurrentProcess {
    // MARK: - Identity and environment

    /// The process id. Wraps `getpid`.
    public static var id: Int32 { getpid() }

    /// The real user id. Wraps `getuid`.
    public static var userID: UInt32 { getuid() }

    /// The effective user id: the owner of every file this process creates. Wraps `geteuid`.
    public static var effectiveUserID: UInt32 { geteuid() }

    /// The process environment as a dictionary. Reads `environ`.
    ///
    /// Each entry is split at its first `=` byte by byte: a `String` search would walk grapheme
    /// clusters, which made this a measurable part of a hotkey press. Entries without `=` are
    /// skipped; a later duplicate name wins.
    public static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let length = strlen(entry)
            entry.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                let whole = UnsafeBufferPointer(start: bytes, count: length)
                if let equals = whole.firstIndex(of: UInt8(ascii: "=")) {
                    let name = String(decoding: UnsafeBufferPointer(rebasing: whole[..<equals]), as: UTF8.self)
                    let value = String(decoding: UnsafeBufferPointer(rebasing: whole[(equals + 1)...]), as: UTF8.self)
                    result[name] = value
                }
            }
            cursor += 1
        }
        return result
    }

    // MARK: - Threads

    /// How many threads the process runs (`num_threads` in `/proc/self/stat`); nil when that
    /// cannot be read.
    ///
    /// One `open`, one `read` and one `close`: listing `/proc/self/task` takes two more calls,
    /// and this is asked on the hotkey path before every fork.
    public static func threadCount() -> Int? {
        guard let file = try? FileDescriptor.open("/proc/self/stat", .readOnly) else { return nil }
        // The line is a few hundred bytes (the command name is at most 16); /proc makes it whole
        // in one read.
        var line = [UInt8](repeating: 0, count: 1024)
        guard let count = try? line.withMutableBytes({ (buffer) throws(Errno) in try file.read(into: buffer) }) else {
            return nil
        }
        return threadCount(fromStatLine: line[..<count])
    }

    /// `num_threads`, the 20th field of a `/proc/PID/stat` line (proc(5)): the 18th after the
    /// command name, which is in parentheses and may itself hold spaces and parentheses.
    static func threadCount(fromStatLine line: ArraySlice<UInt8>) -> Int? {
        guard let close = line.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let numThreadsAfterName = 17
        var field = -1
        var value: Int?
        var index = close + 1
        // A byte scan: no array of fields and no strings, on the hotkey path.
        while index < line.endIndex {
            let byte = line[index]
            if byte == UInt8(ascii: " ") {
                if field == numThreadsAfterName { break }
                field += 1
            } else if field == numThreadsAfterName {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = (value ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += 1
        }
        return field == numThreadsAfterName ? value : nil
    }

    /// Whether the process runs exactly one thread: the condition for `fork` without `exec`.
    /// False when it cannot be told.
    ///
    /// One system call, asked in the window between the clipboard taken and the hotkey's exit:
    /// `unshare(CLONE_VM)`, which changes nothing in a process no other thread shares and fails
    /// (`EINVAL`) in any other. Where a seccomp filter refuses `unshare` (`EPERM`), the count in
    /// `/proc/self/stat` decides (three calls). A flag set when paste starts a thread would not
    /// do: libcurl's resolver, libdispatch and the Swift runtime start threads of their own.
    public static var isSingleThreaded: Bool {
        switch csystem_is_single_threaded() {
        case 1: true
        case 0: false
        default: threadCount() == 1
        }
    }

    /// The calling thread's kernel id: the name of its entry in `/proc/self/task`.
    /// Wraps `gettid`.
    public static var currentThreadKernelID: Int32 { csystem_gettid() }

    // MARK: - Fork and exec

    /// Which side of a `fork` the caller is on.
    public enum ForkResult: Sendable {
        /// The new process.
        case child
        /// The original process; the child is this one.
        case parent(ChildProcess)
    }

    /// Forks. Wraps `fork`.
    ///
    /// Only while the process runs one thread (`isSingleThreaded`): a forked copy of a threaded
    /// process holds whatever locks the other threads held at that instant (the allocator's, the
    /// Swift runtime's) and may only call async-signal-safe functions until it execs, while
    /// paste's children run Swift code (STYLE rule 21). Callers check first, usually before
    /// other work they would not do for a spawned child; debug builds check again here (a
    /// precondition, like swift-system's debug-only ones), release builds spend no system call
    /// on it.
    ///
    /// The child starts with the default disposition of every signal the parent caught with
    /// `Signal.catchArrivals()` (a handler that only counts would keep a selection owner alive
    /// through `SIGTERM`).
    /// - Throws: `Errno` when `fork` fails (`EAGAIN`, `ENOMEM`).
    public static func fork() throws(Errno) -> ForkResult {
        assert(isSingleThreaded, "fork() from a process with more than one thread")
        let pid = try valueOrErrno(retryOnInterrupt: false) { Glibc.fork() }
        guard pid != 0 else {
            csystem_restore_caught_signals()
            return .child
        }
        return .parent(ChildProcess(id: pid))
    }

    /// Forks a child that leaves the caller's session first thing (`detachAsOwner`), holding
    /// `SIGHUP` blocked until it has: the caller may end before the child runs at all (a
    /// hotkey's parent leaves at the fork), and when the caller led its session (under
    /// `script -c`, `xterm -e`) its terminal hangs up its process group as it ends, which the
    /// child is still in. Without the block the child died of that `SIGHUP` in 18 of 20 runs
    /// under `script -c` (issue 44, session 13). The parent's mask is put back at once.
    /// - Throws: `Errno` when `fork` fails.
    public static func forkLeavingSession() throws(Errno) -> ForkResult {
        var hangup = sigset_t()
        sigemptyset(&hangup)
        sigaddset(&hangup, SIGHUP)
        var previous = sigset_t()
        _ = pthread_sigmask(SIG_BLOCK, &hangup, &previous)
        let result: ForkResult
        do {
            result = try fork()
        } catch {
            _ = pthread_sigmask(SIG_SETMASK, &previous, nil)
            throw error
        }
        if case .parent = result { _ = pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return result
    }

    /// Replaces the process with `executable`, passing `arguments` (argv[0] included) and the
    /// current environment. Wraps `execv`.
    ///
    /// When `arguments` are the process's own (`CommandLine.arguments`), its argv is passed on
    /// as the kernel gave it, byte for byte: `CommandLine.arguments` replaced every byte that is
    /// not UTF-8 (a Latin-1 `-d` delimiter, a file name), and a hand-off must run exactly what
    /// it was given (issue 45, item 10).
    ///
    /// - Returns: Only when that fails: why.
    public static func replace(with executable: String, arguments: [String]) -> Errno {
        if arguments == CommandLine.arguments {
            execv(executable, CommandLine.unsafeArgv)
            return Errno.current
        }
        var cStrings = arguments.map { strdup($0) }
        cStrings.append(nil)
        execv(executable, &cStrings)
        let error = Errno.current
        cStrings.forEach { free($0) }
        return error
    }

    /// The process's arguments (argv[0] included) as the kernel gave them, byte for byte:
    /// `CommandLine.arguments` replaced every byte that is not UTF-8 with U+FFFD, so a file
    /// name such as `caf\xe9.txt` could not be opened from it (issue 45, item 10).
    public static func argumentBytes() -> [[UInt8]] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(
                UnsafeBufferPointer(
                    start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
        }
    }

    /// The absolute path of the running program, `/proc/self/exe` resolved (what a desktop
    /// shortcut should run), or nil when it cannot be read. Wraps `readlink`.
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { readlink("/proc/self/exe", $0.baseAddress!, $0.count - 1) }
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: - Detaching (a child that outlives its parent)

    /// Blanks the process's command line after `argv[0]` in place, so `/proc/PID/cmdline` (and
    /// `ps`) of a forked child that outlives its parent shows no argument of the run that forked
    /// it (a title, a `--url` with a password). Each argument's bytes become NUL where the kernel
    /// put them; `CommandLine.arguments`, copied at start-up, keeps its values.
    public static func eraseArguments() {
        let count = Int(CommandLine.argc)
        guard count > 1 else { return }
        for index in 1..<count {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            memset(argument, 0, strlen(argument))
        }
    }

    /// Names the process as `ps`, `top` and `pgrep` show it (its main thread's name, at most 15
    /// bytes): a helper started as `/proc/self/exe` would otherwise show as `exe`. Wraps
    /// `prctl(PR_SET_NAME)`; a failure leaves the old name, which is harmless.
    public static func setName(_ name: String) {
        _ = csystem_set_thread_name(String(decoding: name.utf8.prefix(15), as: UTF8.self))
    }

    /// Makes the process the leader of a new session, without a controlling terminal.
    /// Wraps `setsid`; a process that already leads a group keeps its session.
    public static func startSession() {
        _ = setsid()
    }

    /// Leaves the working directory for `/`, so a long-lived child pins no mount point.
    /// Wraps `chdir`.
    public static func leaveWorkingDirectory() {
        _ = chdir("/")
    }

    /// Makes a forked child a clipboard owner that outlives its parent: out of the caller's
    /// stdio (so `url=$(paste)` returns when the parent does) and session, its command line
    /// blanked (none of the run's arguments stays readable in `/proc`), holding no descriptor
    /// but `kept`, and out of the working directory. The X11 and Wayland owners forked at the
    /// hotkey (`InheritedOwner`, `DataControlInheritedOwner`) both begin so.
    ///
    /// A child forked by `forkLeavingSession` holds `SIGHUP` blocked until its session is its
    /// own: a hangup that reached it before (sent to its parent's process group) was its
    /// parent's, and is dropped.
    public static func detachAsOwner(keepingAll kept: [Int32]) {
        startSession()
        Signal.hangup.discardPending()
        try? Signal.unblock([.hangup])
        for stream in [StandardStream.input, .output, .error] { stream.redirectToNull() }
        eraseArguments()
        closeInheritedDescriptors(keepingAll: kept)
        leaveWorkingDirectory()
    }

    /// Closes every descriptor from 3 up but `kept`: what our caller's caller leaked to us
    /// without close-on-exec (`posix_spawn_file_actions_addclosefrom_np` is `_GNU_SOURCE`-only).
    ///
    /// The open descriptors are listed in `/proc/self/fd`: closing those few is much cheaper
    /// than calling `close` on every number up to the limit (20,000 calls here, milliseconds on
    /// the hotkey path). Without `/proc`, it falls back to that loop. Meant for a child that is
    /// single-threaded (another thread could be given a number while the list is closed).
    public static func closeInheritedDescriptors(keeping kept: Int32? = nil) {
        closeInheritedDescriptors(keepingAll: kept.map { [$0] } ?? [])
    }

    /// Closes every descriptor from 3 up but those in `kept` (see
    /// `closeInheritedDescriptors(keeping:)`): a Wayland owner keeps its connection and the
    /// readers it has yet to answer.
    public static func closeInheritedDescriptors(keepingAll kept: [Int32]) {
        var open: [Int32] = []
        let listed: ()? = try? FileSystem.forEachEntry(ofDirectory: "/proc/self/fd") { name, listing in
            if let descriptor = Int32(String(decoding: name, as: UTF8.self)), descriptor >= 3,
                !kept.contains(descriptor), descriptor != listing
            {
                open.append(descriptor)
            }
        }
        if listed != nil {
            for descriptor in open { _ = close(descriptor) }
            return
        }
        let limit = min(Int32(clamping: sysconf(Int32(_SC_OPEN_MAX))), 1 << 16)
        guard limit > 3 else { return }
        for descriptor in 3..<limit where !kept.contains(descriptor) { _ = close(descriptor) }
    }

    // MARK: - Leaving

    /// Flushes C stdio and ends the process now, without running exit handlers.
    /// Wraps `fflush(NULL)` + `_exit`.
    ///
    /// The libraries' handlers have no work that matters (OpenSSL's frees its tables one by
    /// one: half a percent of a hotkey run), and every file paste writes is written, synced and
    /// closed before it leaves.
    public static func exit(_ status: Int32) -> Never {
        fflush(nil)
        _exit(status)
    }

    /// Ends the process now, flushing nothing. Wraps `_exit`.
    ///
    /// For a forked child: its stdio buffers are copies of the parent's, not its own to flush.
    public static func exitImmediately(_ status: Int32) -> Never {
        _exit(status)
    }

    // MARK: - Time

    /// Blocks the calling thread for `duration`. Wraps `nanosleep`, resuming after a signal
    /// with the time that is left.
    public static func sleep(for duration: Duration) {
        sleep(for: duration, unless: { false })
    }

    /// Blocks the calling thread for `duration`, or less when a signal interrupts the wait and
    /// `isStopped` then says so. Wraps `nanosleep`, resuming after any other signal with the
    /// time that is left.
    ///
    /// - Returns: false when the wait was cut short.
    @discardableResult
    public static func sleep(for duration: Duration, unless isStopped: () -> Bool) -> Bool {
        guard duration > .zero else { return true }
        if isStopped() { return false }
        let (seconds, nanoseconds) = duration.secondsAndNanoseconds
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            if isStopped() { return false }
            request = remaining
        }
        return true
    }

    // MARK: - Allocator

    /// Tunes glibc's allocator: blocks up to `mmapThreshold` bytes come from the heap and are
    /// reused once freed instead of being mapped and unmapped each time, and the heap is given
    /// back to the system only past `trimThreshold` free bytes at its top.
    /// Wraps `mallopt(M_MMAP_THRESHOLD)` and `mallopt(M_TRIM_THRESHOLD)`.
    public static func tuneAllocator(mmapThreshold: Int32, trimThreshold: Int32) {
        _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold)
        _ = mallopt(M_TRIM_THRESHOLD, trimThreshold)
    }
}
