import Foundation
import Synchronization
import Testing

@testable import SystemInterop

/// A temporary folder for one test, removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/system-interop-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside the folder.
    func file(_ name: String) -> String { path + "/" + name }
}

/// Runs `body` on a thread of its own (blocking calls must not run in the concurrency pool)
/// and lets the test wait for its result with a deadline.
final class Worker<Value: Sendable>: Sendable {
    /// The thread while the body runs (nil before it starts and once it has returned), and the
    /// result. One lock for both: a signal is only ever sent while the thread is known to be
    /// inside the body, never to a `pthread_t` that a finished thread left behind (glibc reuses
    /// them at once for new threads, which a parallel test may be blocked in).
    private let state = Mutex<(thread: ThreadID?, hasStarted: Bool, result: Result<Value, any Error>?)>(
        (nil, false, nil))

    init(_ body: @escaping @Sendable () throws -> Value) {
        Thread.detachNewThread { [self] in
            // The thread inherits the test runner's mask (Dispatch blocks nearly every signal):
            // let the tests' SIGUSR1 in, and keep SIGPIPE out (a test that fails part-way must
            // not end the whole run when its peer closes).
            try? Signal.unblock([.user1])
            try? Signal.block([.pipe])
            state.withLock { $0 = (ThreadID.current, true, nil) }
            let outcome = Result { try body() }
            state.withLock { $0 = (nil, true, outcome) }
        }
    }

    /// Whether the body has begun.
    var hasStarted: Bool { state.withLock { $0.hasStarted } }

    /// Whether the body has returned.
    var isDone: Bool { state.withLock { $0.result != nil } }

    /// Sends `signal` to the worker's thread while its body runs.
    ///
    /// - Returns: false when the body has returned (nothing is sent).
    @discardableResult
    func send(_ signal: Signal) -> Bool {
        state.withLock { state in
            guard let thread = state.thread else { return false }
            try? thread.send(signal)
            return true
        }
    }

    /// Waits (at most `timeout`) for the body to return, and gives back what it returned.
    func value(within timeout: Duration = .seconds(20)) throws -> Value {
        try waitUntil("the worker to finish", within: timeout) { isDone }
        return try state.withLock { $0.result! }.get()
    }
}

/// Polls `condition` every few milliseconds until it holds, failing after `timeout`.
///
/// The pause between polls is a `poll(2)` timeout on a quiet socket: a bounded wait for a
/// condition, never a sleep that stands for synchronisation.
func waitUntil(
    _ what: String, within timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) throws {
    let deadline = ContinuousClock.now + timeout
    let quiet = try FileDescriptor.makeSocketPair()
    let idle = quiet.first
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
            throw WaitTimedOut()
        }
        _ = try idle.wait(for: .readable, before: .now + .milliseconds(2))
    }
}

struct WaitTimedOut: Error {}

/// Whether two byte arrays are equal, at `memcmp`'s speed: in a debug build `Array`'s generic
/// `==` compares byte by byte through witness calls (seconds for the tee's 24 MiB texts).
func sameBytes(_ left: [UInt8], _ right: [UInt8]) -> Bool {
    Data(left) == Data(right)
}

/// Bytes that differ from one position to the next (so a lost or repeated piece shows).
func pattern(count: Int) -> [UInt8] {
    // A loop over a buffer, not `map` with a closure: a fifth of the tee suites' debug CPU.
    var bytes = [UInt8](repeating: 0, count: count)
    bytes.withUnsafeMutableBufferPointer { buffer in
        var index = 0
        while index < count {
            buffer[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 11)
            index += 1
        }
    }
    return bytes
}
