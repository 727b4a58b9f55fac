internal import Dispatch
internal import Glibc
internal import Synchronization

/// Appends a stream's bytes to its tee file, bypassing the page cache, on a thread of its own.
///
/// Copying a gigabyte into the page cache costs more CPU than sending it (measured on the bench
/// machine: 1.2–1.45 s of kernel time for 1 GiB, against 0.12 s with `O_DIRECT`). So the file
/// is opened with `O_DIRECT` and written in 1 MiB aligned blocks; the unaligned tail at the end
/// goes through the page cache. Where the file system refuses `O_DIRECT` (at `open`, or with
/// `EINVAL` on a write) the writer falls back to plain writes for the rest of the file.
///
/// A direct write waits for the device, so full blocks are written by a serial queue while the
/// caller fills the next one (at most `blockCount` blocks, 8 MiB, are held: memory stays flat).
/// When the device falls behind, the blocks waiting are written with one `writev` (a request of
/// up to 7 MiB, where the device is faster per byte than at 1 MiB a time).
/// Every byte taken lands, in order: what a failed write leaves is kept (copied, so the block
/// can be reused), the failure is returned by the next `append`, and `flush` tries again.
///
/// Owns the descriptor, the blocks and the queues. Used from one thread (the one reading the
/// stream); the queues are an implementation detail that is drained before `flush` returns.
///
/// The writer can do more with each block than write it: an observer (`observe(with:)`) sees
/// every block, in order, on a serial queue of its own, before the block is written, and may stop
/// (the caller, who sends each chunk as soon as it is teed, is held at most `observationLag`
/// blocks ahead of it); a follower (`follow(with:)`) sees every block too, in order, on a third
/// queue, beside the observer, and cannot stop anything. CurlInterop's `BodyReader` runs a
/// stream's digest as the follower, on the copy the tee makes anyway, so it runs beside the read
/// and the send instead of before them (its inspection, the secret guard, runs on the reading
/// thread, on data still in that core's cache: cheaper than on the observer's, which reads
/// blocks written by another core).
///
/// PERF(stream): the observer and the writes are two queues, not one: a block's write (a wait
/// for the device, 1-5 ms per MiB on the bench machine while others build) overlaps the
/// observation of the next (0.8 ms per MiB: the scan and the SHA-256), where one queue added
/// the two up, and the reader waited for both (1 GiB piped: the tee's thread spent 5.4 s in
/// `write` and the reader 4.2 s waiting for free blocks, `perf trace -s` on a loaded machine).
///
/// PERF(stream): the digest follows on a queue of its own, not after the scan on the observer's:
/// the SHA-256 (0.86 s/GiB with SHA-NI) and the guard's scan (0.1-0.25 s/GiB) added up on one
/// thread set the pace of the guarded stream, which ran 1.06-1.19x the `--force` one; side by
/// side, the scan hides under the hash. A block is used again once it was written and followed.
///
/// POSIX file writing, not libcurl: CurlInterop's `BodyReader` tees a streamed request body
/// through it, and anything else that copies a stream to disk can.
public final class TeeWriter {
    /// The file written.
    public let path: String
    /// The file, touched only on `writing`.
    private let file: TeeFile
    /// Shows each block to the observer, in order, then passes it on to `writing`.
    private let observing = DispatchQueue(label: "paste.tee.observe")
    /// Writes each block, in order, once it was observed.
    private let writing = DispatchQueue(label: "paste.tee.write")
    /// Shows each block to the follower, in order, as soon as it is handed over.
    private let following = DispatchQueue(label: "paste.tee.follow")
    /// The blocks, `TeeFile.alignment`-aligned, `blockSize` bytes each, used in turn: one after
    /// another in `region`.
    private let blocks: [UnsafeMutableRawPointer]
    /// The memory of all the blocks, aligned to a huge page.
    ///
    /// PERF(stream): one allocation advised for transparent huge pages (`Memory.hugePageSize`),
    /// not a heap allocation per block: a direct write pins its buffer's pages for the device
    /// (`gup_fast_fallback`, 1.5 % of a piped gigabyte's samples with 256 small pages a block),
    /// and the copy, the scan and the hash walk the blocks with fewer TLB misses. Only advice:
    /// without huge pages the blocks work as before.
    private let region: UnsafeMutableRawPointer
    /// The block being filled, and how much of it is.
    private var current = 0
    private var staged = 0
    /// Blocks observed and not yet taken by `writing`, in order.
    private let observed = ObservedBlocks()
    /// Taken for each block handed over, given back once it was observed: at most
    /// `observationLag` blocks wait to be observed, however many wait to be written.
    private let observationSlots = DispatchSemaphore(value: TeeWriter.observationLag)
    /// Signalled by `writing` each time it is done with a block.
    private let blockDone = DispatchSemaphore(value: 0)
    /// Signalled by `following` each time it is done with a block (when there is a follower).
    private let blockFollowed = DispatchSemaphore(value: 0)
    /// Blocks handed to the queues and not yet signalled back.
    private var inFlight = 0
    /// What sees each block on `observing`, if anything does.
    private var observer: BlockObserver?
    /// What sees each block on `following`, if anything does.
    private var follower: BlockFollower?
    /// Whether anything was appended yet (an observer comes first).
    private var hasAppended = false

    /// How much is written at a time.
    static let blockSize = 1 << 20
    /// How many blocks there are: one being filled, the others being observed or written.
    static let blockCount = 8
    /// How many blocks at most are handed over and not yet observed: how far a refusing observer
    /// (the secret guard) may be behind the caller, who sends each chunk as soon as it is teed
    /// (4 MiB, as when the tee held 4 blocks in all).
    static let observationLag = 4

    /// Opens (creating, mode 0600) `path` for appending.
    ///
    /// Wraps `open(2)` with `O_APPEND | O_DIRECT`, then without `O_DIRECT` when refused.
    ///
    /// - Parameter continuing: how many of the first bytes appended the file holds already
    ///   (stdin's start, written into its outbox entry as it was read): they are observed like
    ///   every other byte, but not written again; the file goes on after them.
    /// - Throws: `Errno` when the file cannot be opened.
    public init(path: String, continuing: Int = 0) throws(Errno) {
        file = try TeeFile(path: path, skipping: continuing)
        self.path = path
        let region = UnsafeMutableRawPointer.allocate(
            byteCount: Self.blockCount * Self.blockSize, alignment: Memory.hugePageSize)
        Memory.adviseHugePages(region, count: Self.blockCount * Self.blockSize)
        self.region = region
        blocks = (0..<Self.blockCount).map { region + $0 * Self.blockSize }
    }

    deinit {
        _ = try? flush()
        region.deallocate()
    }

    /// Has `body` see every byte appended from now on, block by block, in order, on the
    /// writer's thread, before the block is written; once it returns false it is not called
    /// again (`isObserverStopped`), and the bytes are still written.
    ///
    /// `body` runs on another thread than the caller's, one call at a time; what it touches
    /// must not be touched by the caller until `flush` returns (which waits for the thread),
    /// or must be atomic. Set it before the first `append`.
    public func observe(with body: @escaping (UnsafeRawBufferPointer) -> Bool) {
        precondition(!hasAppended && observer == nil, "a tee's observer is set once, before the first append")
        observer = BlockObserver(body)
    }

    /// Has `body` see every byte appended from now on, block by block, in order, on a thread of
    /// its own (neither the caller's nor the observer's), beside the observer: it cannot stop
    /// anything, and it sees every block, also those after the observer stopped.
    ///
    /// `body` runs one call at a time; what it touches must not be touched by the caller until
    /// `flush` returns (which waits for the thread). Set it before the first `append`.
    public func follow(with body: @escaping (UnsafeRawBufferPointer) -> Void) {
        precondition(!hasAppended && follower == nil, "a tee's follower is set once, before the first append")
        follower = BlockFollower(body)
    }

    /// How many bytes the writer wrote to its file so far (what `continuing` skipped is not
    /// counted); complete once `flush` returned.
    public var bytesWritten: Int64 { file.written.load(ordering: .acquiring) }

    /// Whether the observer returned false (atomic: readable while blocks are still observed).
    public var isObserverStopped: Bool { observer?.isStopped.load(ordering: .acquiring) ?? false }

    /// Adds `chunk`.
    ///
    /// - Throws: The `Errno` of an earlier write that failed; the bytes of this chunk are then
    ///   not taken.
    public func append(_ chunk: UnsafeRawBufferPointer) throws(Errno) {
        let failure = file.failure.load(ordering: .acquiring)
        guard failure == 0 else { throw Errno(rawValue: failure) }
        hasAppended = true
        guard var source = chunk.baseAddress else { return }
        var left = chunk.count
        while left > 0 {
            let count = min(left, Self.blockSize - staged)
            (blocks[current] + staged).copyMemory(from: source, byteCount: count)
            staged += count
            source += count
            left -= count
            if staged == Self.blockSize { handOver() }
        }
    }

    /// Gives the full current block to the queues and makes a free block current.
    private func handOver() {
        let block = Block(start: blocks[current], count: staged)
        let file = file
        let done = blockDone
        let observer = observer
        let writing = writing
        let observed = observed
        let slots = observationSlots
        if let follower {
            let followed = blockFollowed
            following.async {
                follower.see(block)
                followed.signal()
            }
        }
        slots.wait()
        observing.async {
            observer?.see(block)
            slots.signal()
            observed.withLock { $0.append(block) }
            writing.async {
                // Every block observed by now goes in one request (the ones behind it find
                // nothing left): a device that falls behind gets larger writes, not more waits.
                let batch = observed.withLock { blocks in
                    defer { blocks.removeAll(keepingCapacity: true) }
                    return blocks
                }
                guard !batch.isEmpty else { return }
                file.write(batch)
                for _ in batch { done.signal() }
            }
        }
        inFlight += 1
        current = (current + 1) % Self.blockCount
        staged = 0
        if inFlight == Self.blockCount {
            // The blocks are written (and followed) in order, so the one signalled is the one
            // about to be reused.
            reclaimOldest()
        }
    }

    /// Waits until the oldest block handed over is written and followed, then counts it back.
    private func reclaimOldest() {
        blockDone.wait()
        if follower != nil { blockFollowed.wait() }
        inFlight -= 1
    }

    /// Writes everything appended so far, first what failed writes kept. Waits for the queues.
    ///
    /// - Throws: The `Errno` of a write that failed (what it left is kept for the next flush).
    public func flush() throws(Errno) {
        let tail = Block(start: blocks[current], count: staged)
        let file = file
        let observer = observer
        staged = 0
        // The tail is followed while it is observed and written (the last block of a stream is
        // one the follower sees beside the others, too).
        if let follower { following.async { follower.see(tail) } }
        // Every block before the tail was observed (and its write queued) once this returns.
        observing.sync { observer?.see(tail) }
        writing.sync {
            file.retryKept()
            file.write(tail)
        }
        if follower != nil { following.sync {} }
        while inFlight > 0 { reclaimOldest() }
        let failure = file.failure.load(ordering: .acquiring)
        if failure != 0 { throw Errno(rawValue: failure) }
    }
}

@available(*, unavailable, message: "a tee writer belongs to the thread reading its stream")
extension TeeWriter: Sendable {}

/// A `TeeWriter`'s observer, called on its observing queue.
///
/// `@unchecked Sendable`: `body` is called only on the writer's serial observing queue, one block
/// at a time, and `TeeWriter.observe(with:)` makes its caller promise not to touch what `body`
/// touches until `flush` has waited for the queue (`observing.sync`, which orders the queue's work
/// before the caller's next step); `isStopped` is atomic.
private final class BlockObserver: @unchecked Sendable {
    private let body: (UnsafeRawBufferPointer) -> Bool
    /// Set once `body` returned false.
    let isStopped = Atomic<Bool>(false)

    init(_ body: @escaping (UnsafeRawBufferPointer) -> Bool) {
        self.body = body
    }

    /// Shows `block` to `body`, unless it stopped (or the block is empty).
    func see(_ block: Block) {
        guard block.count > 0, !isStopped.load(ordering: .relaxed) else { return }
        if !body(UnsafeRawBufferPointer(start: block.start, count: block.count)) {
            isStopped.store(true, ordering: .releasing)
        }
    }
}

/// A `TeeWriter`'s follower, called on its following queue.
///
/// `@unchecked Sendable`: `body` is called only on the writer's serial following queue, one block
/// at a time, and `TeeWriter.follow(with:)` makes its caller promise not to touch what `body`
/// touches until `flush` has waited for the queue (`following.sync`).
private final class BlockFollower: @unchecked Sendable {
    private let body: (UnsafeRawBufferPointer) -> Void

    init(_ body: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.body = body
    }

    /// Shows `block` to `body` (unless it is empty).
    func see(_ block: Block) {
        guard block.count > 0 else { return }
        body(UnsafeRawBufferPointer(start: block.start, count: block.count))
    }
}

/// The blocks a `TeeWriter`'s observing queue passed on and its writing queue has not yet taken.
///
/// `@unchecked Sendable`: the array is touched only under the lock.
private final class ObservedBlocks: @unchecked Sendable {
    private let blocks = Mutex<[Block]>([])

    func withLock<Result>(_ body: (inout [Block]) -> Result) -> Result {
        blocks.withLock { body(&$0) }
    }
}

/// A run of bytes in one of a `TeeWriter`'s blocks.
private struct Block: @unchecked Sendable {
    var start: UnsafeMutableRawPointer
    var count: Int
}

/// The tee's descriptor and what its writes left undone; used only on the writer's writing queue.
///
/// `@unchecked Sendable`: handed to the queue's closures and touched nowhere else, but for
/// `failure`, which is atomic.
private final class TeeFile: @unchecked Sendable {
    private let file: FileDescriptor
    /// Whether `O_DIRECT` is still set on `descriptor`.
    private var direct: Bool
    /// The `errno` of the last failed write; 0 while all went well.
    let failure = Atomic<Int32>(0)
    /// What failed writes left unwritten, in order, for `retryKept`.
    private var kept: [UInt8] = []
    /// How many of the next bytes given are in the file already (`TeeWriter.init(path:continuing:)`).
    private var skipping: Int
    /// How many bytes were written to the file.
    let written = Atomic<Int64>(0)

    /// The alignment `O_DIRECT` needs of buffers, lengths and offsets (the largest logical
    /// block size in common use).
    static let alignment = 4096

    init(path: String, skipping: Int) throws(Errno) {
        self.skipping = skipping
        let options: FileDescriptor.OpenOptions = [.create, .append]
        var direct = true
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, .writeOnly, options: options.union(.direct))
        } catch {
            direct = false
            file = try FileDescriptor.open(path, .writeOnly, options: options)
        }
        // Appending with O_DIRECT needs an aligned end of file to start from.
        if direct, (try? file.status()).map({ Int($0.size) % Self.alignment != 0 }) ?? true {
            direct = !Self.clearDirect(file)
        }
        self.file = file
        self.direct = direct
    }

    /// Writes `block` after everything before it; after a failure, keeps a copy instead (the
    /// block is reused once this returns).
    func write(_ block: Block) {
        var block = block
        if skipping > 0 {
            let skipped = min(skipping, block.count)
            skipping -= skipped
            block = Block(start: block.start + skipped, count: block.count - skipped)
            guard block.count > 0 else { return }
        }
        guard kept.isEmpty else {
            kept.append(contentsOf: UnsafeRawBufferPointer(start: block.start, count: block.count))
            return
        }
        let written = writeAll(UnsafeRawBufferPointer(start: block.start, count: block.count))
        if written < block.count {
            kept.append(contentsOf: UnsafeRawBufferPointer(start: block.start + written, count: block.count - written))
        }
    }

    /// Writes `batch` (full blocks, in order) after everything before it: with one `writev` while
    /// writes go direct and nothing is kept, block by block (`write(_:)`) for whatever that
    /// one left.
    func write(_ batch: [Block]) {
        var next = 0
        // Blocks the file holds already are passed over whole; a part of one, by `write(_:)`.
        while skipping > 0, next < batch.count, batch[next].count <= skipping {
            skipping -= batch[next].count
            next += 1
        }
        let batch = Array(batch[next...])
        next = 0
        if batch.count > 1, direct, kept.isEmpty, skipping == 0 {
            var vectors = batch.map { iovec(iov_base: $0.start, iov_len: $0.count) }
            var written = vectors.withUnsafeMutableBufferPointer {
                Glibc.writev(file.rawValue, $0.baseAddress, Int32($0.count))
            }
            // A failure (EINTR, EINVAL, a full disk) is met again, and handled, block by block.
            written = max(written, 0)
            self.written.add(Int64(written), ordering: .releasing)
            if written % Self.alignment != 0, Self.clearDirect(file) { direct = false }
            while next < batch.count, written >= batch[next].count {
                written -= batch[next].count
                next += 1
            }
            if next < batch.count, written > 0 {
                write(Block(start: batch[next].start + written, count: batch[next].count - written))
                next += 1
            }
        }
        for block in batch[next...] { write(block) }
    }

    /// Writes again what failed writes kept, through the page cache; keeps what fails again.
    func retryKept() {
        guard !kept.isEmpty else { return }
        if direct, Self.clearDirect(file) { direct = false }
        let written = kept.withUnsafeBytes { writeAll($0) }
        kept.removeFirst(written)
        if kept.isEmpty { failure.store(0, ordering: .releasing) }
    }

    /// Writes `bytes`; returns how many were written, all unless a write failed (then `failure`
    /// holds its `errno`).
    private func writeAll(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var done = 0
        while done < bytes.count {
            var count = bytes.count - done
            if direct {
                count -= count % Self.alignment
                let aligned = Int(bitPattern: base + done) % Self.alignment == 0
                if count == 0 || !aligned {
                    // An unaligned tail (or buffer) goes through the page cache.
                    guard Self.clearDirect(file) else { return failed(done, errno) }
                    direct = false
                    continue
                }
            }
            let result = Glibc.write(file.rawValue, base + done, count)
            if result < 0 {
                if errno == EINTR { continue }
                if errno == EINVAL, direct, Self.clearDirect(file) {
                    direct = false
                    continue
                }
                return failed(done, errno)
            }
            done += result
            written.add(Int64(result), ordering: .releasing)
            if direct, result % Self.alignment != 0, Self.clearDirect(file) { direct = false }
        }
        return done
    }

    private func failed(_ done: Int, _ code: Int32) -> Int {
        failure.store(code, ordering: .releasing)
        return done
    }

    /// Clears `O_DIRECT` on `file`; false when that fails.
    private static func clearDirect(_ file: borrowing FileDescriptor) -> Bool {
        (try? file.clearDirect()) != nil
    }
}
