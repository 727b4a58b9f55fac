import Foundation
import Synchronization
import Testing

@testable import SystemInterop

/// Reads and writes that a signal interrupts (EINTR) are carried on; writes that the kernel
/// cuts short are finished. The signals are real: SIGUSR1, caught without SA_RESTART, sent to
/// the one thread that is blocked.
@Suite("EINTR and short writes", .serialized)
struct InterruptTests {
    init() throws { try Signal.user1.catchArrivals() }

    /// Sends SIGUSR1 to `worker`'s thread until `count` more have arrived or the worker is done.
    func interrupt(_ worker: Worker<some Sendable>, times count: Int) throws {
        try waitUntil("the worker to start") { worker.hasStarted }
        let target = Signal.user1.arrivalCount + count
        try waitUntil("\(count) signals to arrive") {
            Signal.user1.arrivalCount >= target || !worker.send(.user1)
        }
    }

    @Test("a signal interrupts a blocked read: without retrying, the read reports EINTR")
    func signalInterruptsRead() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let writer = pair.first
        let raw = pair.second.release()
        let worker = Worker { () throws -> Errno? in
            let reader = FileDescriptor(adopting: raw)
            var byte: UInt8 = 0
            do {
                _ = try withUnsafeMutableBytes(of: &byte) { buffer throws(Errno) in
                    try reader.read(into: buffer, retryOnInterrupt: false)
                }
                return nil
            } catch let error as Errno {
                return error
            }
        }
        try interrupt(worker, times: 50)
        // Ends the read should no signal have reached it (send: no SIGPIPE if it has ended).
        try? writer.sendAll([1], before: .now + .seconds(5))
        #expect(try worker.value() == .interrupted)
    }

    @Test("readAll carries on through interruptions and returns every byte")
    func readAllRetries() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let writer = pair.first
        let raw = pair.second.release()
        let worker = Worker { () throws -> [UInt8] in try FileDescriptor(adopting: raw).readAll() }
        let before = Signal.user1.arrivalCount
        try interrupt(worker, times: 20)
        #expect(Signal.user1.arrivalCount - before >= 20)
        #expect(!worker.isDone)
        let bytes = pattern(count: 1 << 20)
        try writer.sendAll(bytes, before: .now + .seconds(60))
        try writer.close()
        #expect(try worker.value() == bytes)
    }

    @Test("writeAll finishes the writes a signal cuts short, and carries on through EINTR")
    func writeAllFinishesShortWrites() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let reader = pair.first
        let raw = pair.second.release()
        let bytes = pattern(count: 8 << 20)
        // Nobody reads yet, so the write blocks with part of the bytes taken: each signal then
        // ends that write() early with a short count (or EINTR before any byte).
        let worker = Worker { () throws -> Bool in
            let writer = FileDescriptor(adopting: raw)
            try writer.writeAll(bytes)
            try writer.close()
            return true
        }
        try interrupt(worker, times: 20)
        #expect(try reader.readAll() == bytes)
        #expect(try worker.value())
    }

    @Test("a non-blocking socket: writeAll waits with poll when it is full (EAGAIN) and sends it all")
    func nonBlockingWrite() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let writer = pair.first
        let raw = pair.second.release()
        try writer.setNonBlocking()
        let bytes = pattern(count: 4 << 20)
        let worker = Worker { () throws -> [UInt8] in try FileDescriptor(adopting: raw).readAll() }
        try writer.writeAll(bytes)
        try writer.close()
        #expect(try worker.value() == bytes)
    }
}

@Suite("poll deadlines")
struct DeadlineTests {
    @Test("waiting on a quiet socket ends at the deadline, not before")
    func quietWaitEndsAtDeadline() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let quiet = pair.first
        let start = ContinuousClock.now
        #expect(try quiet.wait(for: .readable, before: start + .milliseconds(80)) == false)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(80))
        #expect(elapsed < .seconds(5), "a loaded machine may be slow, not this slow")
    }

    @Test("ready at once when there is something to read; writable when there is room")
    func readyAtOnce() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let one = pair.first
        let other = pair.second
        try other.writeAll([7])
        #expect(try one.wait(for: .readable, before: .now + .seconds(10)))
        #expect(try one.wait(for: .writable, before: .now + .seconds(10)))
        #expect(try one.readByte(before: .now + .seconds(10)) == 7)
        try other.close()
        #expect(try one.readByte(before: .now + .seconds(10)) == nil, "end of file")
    }

    @Test("readByte, readAll(idleTimeout:) and sendAll give up with ETIMEDOUT")
    func timeouts() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let quiet = pair.first
        let peer = pair.second
        #expect(throws: Errno.timedOut) { _ = try quiet.readByte(before: .now + .milliseconds(20)) }
        #expect(throws: Errno.timedOut) { _ = try quiet.readAll(idleTimeout: .milliseconds(20)) }
        try peer.setNonBlocking()
        // Nobody reads: the socket fills, and sending the rest waits until the deadline.
        #expect(throws: Errno.timedOut) {
            try peer.sendAll(pattern(count: 64 << 20), before: .now + .milliseconds(200))
        }
    }

    @Test("sendAll to a closed peer is EPIPE, and no SIGPIPE ends the process")
    func brokenPipe() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let sender = pair.first
        try pair.second.close()
        #expect(throws: Errno.brokenPipe) { try sender.sendAll([1, 2, 3], before: .now + .seconds(5)) }
    }

    @Test(
        "poll's timeout rounds up to whole milliseconds and saturates",
        arguments: [
            (Duration.nanoseconds(1), Int32(1)), (.milliseconds(5), 5), (.microseconds(5_001), 6),
            (.seconds(3), 3000), (.seconds(1 << 40), Int32.max),
        ])
    func pollMilliseconds(duration: Duration, milliseconds: Int32) {
        #expect(FileDescriptor.pollMilliseconds(duration) == milliseconds)
    }
}
