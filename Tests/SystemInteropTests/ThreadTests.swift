import Foundation
import Synchronization
import Testing

@testable import SystemInterop

/// The second thread of a large clipboard read: a thread that is gone once joined, and the
/// bounded queue that feeds it.
@Suite("Joinable threads and the blocking queue")
struct ThreadTests {
    @Test("join returns the body's result, and the thread is gone from /proc at once, every time")
    func joinedThreadIsGone() throws {
        // pthread_join alone returns a little before the kernel releases the thread: a check
        // right after it would see the thread now and then. Many rounds catch that.
        for round in 0..<200 {
            let thread = try JoinableThread { CurrentProcess.currentThreadKernelID }
            let id = thread.join()
            #expect(id != CurrentProcess.currentThreadKernelID)
            #expect(!FileManager.default.fileExists(atPath: "/proc/self/task/\(id)"), "round \(round)")
        }
    }

    @Test("the thread starts with every signal blocked")
    func signalsBlocked() throws {
        let mask = try JoinableThread { () -> String in
            let handle = FileHandle(forReadingAtPath: "/proc/thread-self/status")
            let status = String(decoding: (try? handle?.readToEnd()) ?? Data(), as: UTF8.self)
            return status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }.map(String.init) ?? ""
        }.join()
        // Every signal but the two the kernel never lets a thread block (SIGKILL, SIGSTOP), and
        // glibc's own two (SIGCANCEL, SIGSETXID), which pthread_sigmask leaves open.
        #expect(mask == "SigBlk:\tfffffffe7ffbfeff" || mask == "SigBlk:\tfffffffc7ffbfeff", "\(mask)")
    }

    @Test("a deinit joins a thread nobody joined: no path leaves one running")
    func deinitJoins() throws {
        let ended = Mutex(false)
        let id = Mutex<Int32?>(nil)
        do {
            _ = try JoinableThread {
                id.withLock { $0 = CurrentProcess.currentThreadKernelID }
                ended.withLock { $0 = true }
            }
        }
        #expect(ended.withLock { $0 })
        let kernelID = try #require(id.withLock { $0 })
        #expect(!FileManager.default.fileExists(atPath: "/proc/self/task/\(kernelID)"))
    }

    @Test("the queue hands elements over in order; a full queue holds its producer back")
    func queueOrderAndBound() throws {
        let queue = BlockingQueue<[UInt8]>(capacity: 2)
        let consumer = try JoinableThread { () -> [[UInt8]] in
            var taken: [[UInt8]] = []
            while let element = queue.take() { taken.append(element) }
            return taken
        }
        let sent = (0..<1000).map { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        for element in sent { #expect(queue.put(element)) }
        queue.close()
        #expect(consumer.join() == sent)
        #expect(!queue.put([1]), "a closed queue takes nothing")
    }

    @Test("cancel drops what is queued and frees a waiting producer")
    func cancelFreesProducer() throws {
        let queue = BlockingQueue<Int>(capacity: 1)
        #expect(queue.put(1))
        // The producer blocks on the full queue until cancel.
        let producer = try JoinableThread { queue.put(2) }
        // Bounded: cancel is what ends the producer's wait, whenever it started waiting.
        queue.cancel()
        #expect(producer.join() == false)
        #expect(queue.take() == nil)
    }
}
