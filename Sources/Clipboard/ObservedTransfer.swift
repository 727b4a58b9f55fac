import SystemInterop

/// The second thread of an observed Wayland transfer (see `TextObserver`): the reader hands over
/// each piece of text as it arrives and goes back to waiting for the owner; this thread decodes
/// the piece (`STRING` is Latin-1) and shows it to the observer, so the observer's work overlaps
/// the owner's writes into the pipe (which holds far less than the reader takes at a time).
///
/// The reader keeps everything else: the session belongs to its thread, and so does the text,
/// joined in its buffer exactly as without an observer. The
/// pieces handed over are copies of the text just received (still in the cache), in memory the
/// allocator reuses piece after piece: this thread writes no fresh pages, so it costs little
/// beyond the observer's own work.
///
/// The thread is always joined before the reader goes on: `finish()` on success; on any
/// failure (a timeout, the read limit) `deinit` cancels the hand-over and joins, so a thrown
/// error leaves no thread behind either.
final class ObservedTransfer {
    private let queue: BlockingQueue<[UInt8]>
    private let worker: JoinableThread<any ChunkObserving>

    /// Pieces handed over and not yet taken: of 256 KiB or more each, at most a few MiB wait
    /// when the observer falls behind, and then the reader (and the owner) wait for it.
    static let queueCapacity = 8

    /// Starts the thread.
    ///
    /// - Parameters:
    ///   - observer: sees each piece, decoded, in order.
    ///   - decodesLatin1: whether the pieces are `STRING` (ISO 8859-1) to be shown as UTF-8.
    /// - Throws: `Errno` when no thread can be started (the caller then reads unobserved).
    init(observer: any ChunkObserving, decodesLatin1: Bool) throws(Errno) {
        let queue = BlockingQueue<[UInt8]>(capacity: Self.queueCapacity)
        self.queue = queue
        worker = try JoinableThread {
            var observer = observer
            while let piece = queue.take() {
                observer.take((decodesLatin1 ? TextEncoding.utf8(fromLatin1: piece) : piece).span)
            }
            return observer
        }
    }

    deinit {
        // Not finished: the read failed. Stop the thread without working through the rest;
        // `worker`'s own deinit then joins it.
        queue.cancel()
    }

    /// Hands the next piece over, waiting while the thread is `queueCapacity` pieces behind.
    func hand(_ piece: [UInt8]) {
        queue.put(piece)
    }

    /// Ends the transfer: waits for the thread to take everything handed over, joins it, and
    /// returns the observer that saw it all.
    func finish() -> any ChunkObserving {
        queue.close()
        return worker.join()
    }
}

@available(*, unavailable, message: "the reader's thread owns the hand-over")
extension ObservedTransfer: Sendable {}
