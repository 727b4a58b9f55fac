internal import Glibc

/// The CPU time the calling thread has used, for measurements on a machine others share (where
/// wall time counts their work too).
public enum ThreadCPUClock {
    /// The calling thread's CPU time so far. Wraps `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`,
    /// which cannot fail for the calling thread's own clock.
    public static func now() -> Duration {
        var time = timespec()
        let status = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        precondition(status == 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed: errno \(errno)")
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
