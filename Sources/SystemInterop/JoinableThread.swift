internal import Glibc

/// A thread of our own for blocking or long work beside the calling thread, joined before its
/// owner goes on: `join()` returns what the body returned.
///
/// Why not Dispatch or a task: the Swift concurrency pool is not for blocking work (STYLE rule
/// 22), and Dispatch's worker threads outlive the work given them, so the process would stay
/// threaded and could no longer fork its clipboard owner (rule 21). Once `join()` returns, the
/// thread is gone from the process as the kernel counts threads (`num_threads` in
/// `/proc/self/stat`, `CurrentProcess.threadCount()`): a process that was single-threaded
/// before `init` is single-threaded again and may fork.
///
/// The thread starts with every signal blocked, so signals keep going to the threads that
/// wait for them (an interrupted `poll` on the calling thread, say).
///
/// Wraps `pthread_create` and `pthread_join`. Owned by one thread; `deinit` joins a thread not
/// yet joined, so no path leaves one running (its body must then be able to finish on its own:
/// close what it waits on first).
public final class JoinableThread<Result: Sendable> {
    private let handle: pthread_t
    private let outcome: ThreadOutcome<Result>
    private var isJoined = false

    /// How long `join` waits for the kernel to release a thread that has ended (microseconds,
    /// as a rule; the bound only keeps a broken `/proc` from hanging the caller).
    static var releaseDeadline: Duration { .seconds(1) }

    /// Starts a thread running `body`.
    ///
    /// - Throws: `Errno` when `pthread_create` fails (`EAGAIN`: no resources or a thread limit).
    public init(_ body: @escaping @Sendable () -> Result) throws(Errno) {
        let outcome = ThreadOutcome<Result>()
        self.outcome = outcome
        let start = ThreadStart {
            outcome.kernelID = CurrentProcess.currentThreadKernelID
            outcome.value = body()
        }
        // The new thread inherits the creator's signal mask: block everything around the
        // creation, so it never runs a moment with signals open, then restore ours.
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(start).toOpaque()
        let code = pthread_create(
            &thread, nil,
            { context in
                // The retain taken for the thread is given back here, once the body has run.
                let start = Unmanaged<ThreadStart>.fromOpaque(context!).takeRetainedValue()
                start.run()
                return nil
            }, context)
        guard code == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(context).release()
            throw Errno(rawValue: code)
        }
        handle = thread
    }

    deinit {
        if !isJoined { waitForEnd() }
    }

    /// Waits for the thread to end and returns what its body returned; the thread is then gone
    /// from the process (see the type's summary). Call once.
    public func join() -> Result {
        precondition(!isJoined, "a thread is joined once")
        waitForEnd()
        guard let value = outcome.value else { preconditionFailure("a joined thread left no result") }
        return value
    }

    /// `pthread_join`, then the wait for the kernel to release the thread.
    ///
    /// `pthread_join` returns when the kernel clears the thread's id (`CLONE_CHILD_CLEARTID`,
    /// early in `do_exit`), a little before the thread is released and stops counting in
    /// `num_threads`; a fork decided in between would see two threads and spawn instead. So
    /// this also waits (bounded, yielding) until `/proc/self/task/TID` is gone.
    private func waitForEnd() {
        isJoined = true
        let code = pthread_join(handle, nil)
        precondition(code == 0, "pthread_join failed: \(Errno(rawValue: code))")
        guard let kernelID = outcome.kernelID else { return }
        let path = "/proc/self/task/\(kernelID)"
        let deadline = ContinuousClock.now + Self.releaseDeadline
        while access(path, F_OK) == 0 && ContinuousClock.now < deadline { sched_yield() }
    }
}

@available(*, unavailable, message: "a thread is joined by the thread that started it")
extension JoinableThread: Sendable {}

/// What the thread runs: a non-generic box, since the C start routine cannot name `Result`.
private final class ThreadStart: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Where the thread leaves its result and kernel id.
private final class ThreadOutcome<Result: Sendable>: @unchecked Sendable {
    // Safe: the started thread writes both fields and then ends; the starting thread reads them
    // only after `pthread_join` has returned, which synchronizes with the thread's end (POSIX
    // "Memory Synchronization": pthread_join is among the functions that order memory).
    var value: Result?
    var kernelID: Int32?
}
