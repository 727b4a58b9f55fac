import Synchronization
import SystemInterop

/// The secret guard's scanner on a thread of its own, beside a stream being sent: the sending
/// thread hands over a copy of each chunk and goes back to libcurl, so the scan overlaps the
/// upload on a second core instead of adding its time to it (`SecretInspector`).
///
/// The scan may lag a few chunks behind what was sent; a secret the thread has seen is
/// reported at the next chunk handed over (`firstSeen`), and `finish()` waits for the thread to
/// scan everything, so the stream's end, which decides, is never handed to libcurl before the
/// whole text was scanned. The hand-over is bounded (`queueCapacity` chunks): memory stays flat,
/// and a sender that outruns the scan waits for it.
///
/// The thread is always joined before this object is gone: `finish()`, or `deinit` (a transfer
/// that failed or was refused: the rest is dropped, not scanned), so a run is single-threaded
/// again once its transfer is over (STYLE rule 21).
final class SecretScanThread {
    private let queue: BlockingQueue<[UInt8]>
    private let worker: JoinableThread<SecretScanner>
    private let seen: SeenFinding

    /// Chunks handed over and not yet scanned: a few of libcurl's 64 KiB buffers, or a pipe's.
    static let queueCapacity = 16

    /// The first finding the thread saw, shared with the sending thread.
    final class SeenFinding: Sendable {
        let value = Mutex<SecretFinding?>(nil)
    }

    /// Starts the thread with `scanner`.
    ///
    /// - Throws: `Errno` when no thread can be started (the caller then scans in place).
    init(_ scanner: SecretScanner) throws(Errno) {
        let queue = BlockingQueue<[UInt8]>(capacity: Self.queueCapacity)
        let seen = SeenFinding()
        self.queue = queue
        self.seen = seen
        worker = try JoinableThread {
            var scanner = scanner
            while let chunk = queue.take() {
                scanner.feed(chunk)
                if scanner.hasFindings, let first = scanner.firstSeen {
                    seen.value.withLock { if $0 == nil { $0 = first } }
                }
            }
            return scanner
        }
    }

    deinit {
        // Not finished: the transfer ended early. Stop without scanning the rest; `worker`'s
        // own deinit then joins the thread.
        queue.cancel()
    }

    /// Hands the next chunk over (a copy), waiting while the thread is `queueCapacity` behind.
    func hand(_ chunk: Span<UInt8>) {
        var copy: [UInt8] = []
        SecretScanner.append(chunk, 0..<chunk.count, to: &copy)
        queue.put(copy)
    }

    /// The first secret the thread has seen so far, if any.
    var firstSeen: SecretFinding? { seen.value.withLock { $0 } }

    /// Waits for the thread to scan everything handed over, joins it, and returns every
    /// finding (`SecretScanner.finish()`).
    func finish() -> [SecretFinding] {
        queue.close()
        var scanner = worker.join()
        return scanner.finish()
    }
}

@available(*, unavailable, message: "the sending thread owns the hand-over")
extension SecretScanThread: Sendable {}
