internal import CSystemShims
internal import Glibc

/// A POSIX signal.
///
/// paste changes signal dispositions in one way only: `catchArrivals()`, for a run that must
/// stop cleanly on `SIGINT`/`SIGTERM`/`SIGHUP` while it uploads. The handler only counts, a
/// blocking call it interrupts returns `EINTR` (calls made with `retryOnInterrupt: false` see
/// it), and the code that polls (`arrivalCount`, e.g. from libcurl's progress callback) decides
/// what to do. Children never keep that handler: a spawned child gets default dispositions
/// (`ChildProcess.spawn`), a forked one gets them back at once (`CurrentProcess.fork`). Children
/// are ended with `kill`, and sockets are written with `MSG_NOSIGNAL` instead of ignoring
/// `SIGPIPE`.
public struct Signal: Hashable, Sendable {
    /// The C signal number.
    public let rawValue: Int32

    /// Names a signal by its C number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `SIGHUP`: the terminal went away.
    public static let hangup = Signal(rawValue: SIGHUP)
    /// `SIGINT`: Ctrl+C.
    public static let interrupt = Signal(rawValue: SIGINT)
    /// `SIGQUIT`.
    public static let quit = Signal(rawValue: SIGQUIT)
    /// `SIGKILL`: ends a process; cannot be caught.
    public static let kill = Signal(rawValue: SIGKILL)
    /// `SIGUSR1`: free for the program's own use (tests interrupt threads with it).
    public static let user1 = Signal(rawValue: SIGUSR1)
    /// `SIGPIPE`: a write to a pipe or socket nobody reads.
    public static let pipe = Signal(rawValue: SIGPIPE)
    /// `SIGALRM`.
    public static let alarm = Signal(rawValue: SIGALRM)
    /// `SIGTERM`: a polite request to end.
    public static let terminate = Signal(rawValue: SIGTERM)
    /// `SIGCHLD`: a child ended.
    public static let child = Signal(rawValue: SIGCHLD)

    /// The signals a spawned child gets with their default disposition, whatever the caller set.
    static let defaultedInChildren: [Signal] = [.pipe, .interrupt, .terminate, .hangup, .quit, .child]

    /// Catches this signal from now on: each arrival is counted, and a blocking call it
    /// interrupts returns `EINTR` (the handler is installed without `SA_RESTART`). A signal the
    /// process ignores (`SIG_IGN`: what `nohup` does to SIGHUP, or a shell to SIGINT for a
    /// background job) stays ignored: whoever started the process said so.
    /// Wraps `sigaction` through `csystem_catch_signal` (a C handler: async-signal-safe).
    ///
    /// - Returns: false when the signal was left ignored.
    @discardableResult
    public func catchArrivals() throws(Errno) -> Bool {
        let result = csystem_catch_signal(rawValue)
        if result < 0 { throw Errno.current }
        return result == 0
    }

    /// Ignores this signal from now on (`SIG_IGN`), for a process of paste's own that writes to
    /// pipes of other programs (the Wayland selection owner: a reader that goes away must not
    /// end it). Wraps `signal(SIG_IGN)`; a spawned child gets the default back
    /// (`defaultedInChildren`).
    public func ignore() {
        _ = Glibc.signal(rawValue, SIG_IGN)
    }

    /// Drops an arrival of this signal that waits blocked, keeping the signal's disposition:
    /// setting `SIG_IGN` discards a pending signal (POSIX `sigaction`), and the old action is
    /// put back at once. Wraps `signal` twice; for a signal the process does not catch (a
    /// forked child's, whose caught signals were given their default back).
    public func discardPending() {
        let previous = Glibc.signal(rawValue, SIG_IGN)
        _ = Glibc.signal(rawValue, previous)
    }

    /// How many times the signal arrived since `catchArrivals()`.
    public var arrivalCount: Int { Int(csystem_signal_count(rawValue)) }

    /// Gives every signal caught with `catchArrivals()` its default disposition back.
    /// Wraps `sigaction(SIG_DFL)` through `csystem_restore_caught_signals`.
    ///
    /// Arrivals already counted stay counted; a signal that arrives later takes its default
    /// action (most end the process).
    public static func restoreCaughtToDefault() {
        csystem_restore_caught_signals()
    }

    /// Blocks `signals` on the calling thread: they wait (pending) until unblocked, or go to
    /// another thread that does not block them. Wraps `pthread_sigmask(SIG_BLOCK)`.
    ///
    /// A thread starts with its creator's mask: Dispatch's worker threads block nearly every
    /// signal, so a thread started from one must unblock what it means to receive.
    public static func block(_ signals: [Signal]) throws(Errno) {
        try changeMask(SIG_BLOCK, signals)
    }

    /// Unblocks `signals` on the calling thread. Wraps `pthread_sigmask(SIG_UNBLOCK)`.
    public static func unblock(_ signals: [Signal]) throws(Errno) {
        try changeMask(SIG_UNBLOCK, signals)
    }

    private static func changeMask(_ how: Int32, _ signals: [Signal]) throws(Errno) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal.rawValue) }
        try nothingOrReturnedErrno(pthread_sigmask(how, &set, nil))
    }
}

/// A thread of this process, to send a signal to that thread alone.
public struct ThreadID: Sendable {
    let rawValue: pthread_t

    /// The calling thread. Wraps `pthread_self`.
    public static var current: ThreadID { ThreadID(rawValue: pthread_self()) }

    /// Sends `signal` to this thread. Wraps `pthread_kill`.
    public func send(_ signal: Signal) throws(Errno) {
        try nothingOrReturnedErrno(pthread_kill(rawValue, signal.rawValue))
    }
}
