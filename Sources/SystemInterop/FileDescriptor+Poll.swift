internal import Glibc

/// What `poll` reported for one descriptor (`pollfd.revents`).
package struct PollEvents: OptionSet, Sendable {
    package var rawValue: Int16

    /// Events as `poll` returned them.
    package init(rawValue: Int16) {
        self.rawValue = rawValue
    }

    /// `POLLERR`, `POLLHUP` or `POLLNVAL`: the descriptor failed, its peer hung up, or it is not
    /// open. The next read or write would say which.
    package var isBroken: Bool {
        rawValue & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
    }
}

extension FileDescriptor {
    /// Waits until a descriptor is ready or `deadline` passes: the one poll-with-deadline loop,
    /// for the descriptors a library owns (an X connection's socket, libcurl's) as well as ours
    /// (`wait(for:before:)`). Wraps `poll`.
    ///
    /// An interrupted `poll` is called again with the time that is left, so a signal never
    /// stretches the deadline, unless `stopsOnInterrupt` answers true: then `Errno.interrupted`
    /// is thrown, for a caller that ends its work on a signal.
    /// - Parameters:
    ///   - rawDescriptor: the descriptor; not closed, not owned.
    ///   - deadline: when to give up; nil waits as long as it takes.
    ///   - stopsOnInterrupt: asked when a signal interrupted the wait.
    /// - Returns: what `poll` reported (readiness includes `POLLHUP`/`POLLERR`), or nil at the
    ///   deadline.
    package static func poll(
        rawDescriptor: Int32, for readiness: Readiness, before deadline: ContinuousClock.Instant?,
        stopsOnInterrupt: () -> Bool = { false }
    ) throws(Errno) -> PollEvents? {
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline - .now
                if left <= .zero { return nil }
                timeout = pollMilliseconds(left)
            }
            var entry = pollfd(fd: rawDescriptor, events: readiness.events, revents: 0)
            do {
                if try valueOrErrno(retryOnInterrupt: false, { Glibc.poll(&entry, 1, timeout) }) > 0 {
                    return PollEvents(rawValue: entry.revents)
                }
            } catch  where error == .interrupted {
                if stopsOnInterrupt() { throw error }
            }
        }
    }
}
