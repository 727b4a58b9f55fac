// The two ways a C call reports failure, turned into typed errors in one place
// (swift-system's `valueOrErrno(retryOnInterrupt:)`).

/// Runs `call` until it does not fail with `EINTR` (when `retryOnInterrupt`), and returns its
/// result, or `Errno.current` when it returned -1.
///
/// For calls that return -1 and set `errno` (`open`, `read`, `write`, `fsync`, `flock`, ...).
@inline(__always)
func valueOrErrno<I: FixedWidthInteger>(
    retryOnInterrupt: Bool = true, _ call: () -> I
) throws(Errno) -> I {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno.current
        if !(retryOnInterrupt && error == .interrupted) { throw error }
    }
}

/// `valueOrErrno` for calls whose success value means nothing (0 on success).
@inline(__always)
func nothingOrErrno<I: FixedWidthInteger>(retryOnInterrupt: Bool = true, _ call: () -> I) throws(Errno) {
    _ = try valueOrErrno(retryOnInterrupt: retryOnInterrupt, call)
}

/// For calls that return the error number itself, 0 on success (`posix_spawn`, `pthread_*`).
@inline(__always)
func nothingOrReturnedErrno(_ code: Int32) throws(Errno) {
    if code != 0 { throw Errno(rawValue: code) }
}
