import PasteCore
import SecretScanInterop
import Synchronization
import SystemInterop

extension SecretGuard {
    /// How much of a file is scanned at a time: large enough that a chunk's fixed costs (a
    /// `read`, the 18 KiB seam the scanner copies) are small beside it, small enough that what
    /// `read` has just written is still in the core's L2 cache (1 MiB here) when it is scanned.
    ///
    /// PERF(guard-text): read and scanned back to back over the bench's 256 MiB of log lines
    /// (a C loop of the pair table, CPU time, load 4): 4 MiB chunks 187-223 ms, 1 MiB 175-215,
    /// 256 KiB 158-192. `read` into one buffer used again, not `mmap`: a file truncated while it
    /// is mapped kills the reader with SIGBUS (what ripgrep accepts for a single file), and the
    /// copy is 15-20 % of the scan.
    static let fileChunkBytes = 256 << 10

    /// The blocks of a file's line-feed index (`LineFeeds.FileIndex`): a finding is placed from
    /// its block's count and the bytes of the block before it (read again: at most a block).
    static let lineBlockBytes = 16 << 10

    /// The blocks of the line-feed index of a file of `size` bytes: `lineBlockBytes`, or larger
    /// for a file of more than 256 MiB, so that the index stays at 16,384 blocks (256 KiB).
    static func lineBlockBytes(forFileOf size: Int) -> Int {
        var bytes = lineBlockBytes
        while bytes << 14 < size { bytes <<= 1 }
        return bytes
    }

    /// From what size on a regular file's line feeds are counted on a thread of their own, beside
    /// the scan, once the scan has found something: below it, after the scan, on this thread (a
    /// thread's start and end cost more than counting a few megabytes).
    static let concurrentLinesFromBytes = 4 << 20

    /// Scans a whole file in chunks with `SecretScanner`: memory stays flat for files of any
    /// size, a token cut by a chunk edge is found, and offsets and lines count from the start of
    /// the file.
    ///
    /// The scan counts no lines (`SecretScanner.defersLines`): a file with no finding, nearly
    /// every paste, is never counted. At the first finding of a large regular file, another
    /// thread starts counting the file's line feeds from its start, a block at a time (`pread`
    /// on the page cache, `LineFeeds.index(ofFileDescriptor:…)`), while this one scans on; at
    /// the end each finding is put on its line from its block's count and the bytes of that
    /// block before it (`place(_:in:index:)`). A small file is counted after the scan, as far as
    /// its last finding. A file that is not regular (a pipe, a device) cannot be read again, so
    /// its lines are counted as it is scanned.
    /// PERF(guard-text): counting every chunk's lines was 3.6 % of `paste -n -f` over the
    /// bench's log lines; counting them from the first finding on, on the scanning thread, and
    /// reading the file again up to it was 4-5 % of the source code's wall time (24 findings, the
    /// first at 4 % of 256 MiB), which the log lines never pay.
    ///
    /// - Returns: the findings, or nil when the file cannot be read (the upload then reports it).
    public func scan(filePath path: String) -> [SecretFinding]? {
        scan(filePath: path, concurrentLinesFrom: Self.concurrentLinesFromBytes)
    }

    /// `scan(filePath:)`, with the line feeds counted beside the scan for regular files of
    /// `concurrentLinesFrom` bytes or more (the tests try both ways on small files).
    func scan(filePath path: String, concurrentLinesFrom threshold: Int) -> [SecretFinding]? {
        guard let file = try? FileDescriptor.open(path, .readOnly) else { return nil }
        return scan(file: file, concurrentLinesFrom: threshold)
    }

    /// `scan(filePath:concurrentLinesFrom:)` of the file open as `file`.
    private func scan(file: borrowing FileDescriptor, concurrentLinesFrom threshold: Int) -> [SecretFinding]? {
        let status = try? file.status()
        let isRegular = status?.kind == .regular
        var scanner = makeScanner(countingLines: !isRegular)
        scanner.defersLines = isRegular
        let size = Int(status?.size ?? 0)
        let startsThread = isRegular && size >= threshold
        let blockBytes = Self.lineBlockBytes(forFileOf: size)
        var counting: LineFeedCounting?
        let descriptor = file.rawValue
        do {
            try file.forEachChunk(chunkSize: Self.fileChunkBytes) { chunk in
                scanner.feed(chunk.span)
                if let counting {
                    counting.scanned(scanner.bytesScanned)
                } else if startsThread, scanner.hasFindings {
                    counting = LineFeedCounting(descriptor: descriptor, blockBytes: blockBytes)
                    counting?.scanned(scanner.bytesScanned)
                }
            }
        } catch {
            _ = counting?.finish(upTo: 0)
            return nil
        }
        let found = scanner.finish()
        guard isRegular, let farthest = found.map(\.offset).max() else {
            _ = counting?.finish(upTo: 0)
            return found
        }
        // Only the blocks before the last finding's are needed.
        let needed = farthest / blockBytes * blockBytes
        let index =
            counting?.finish(upTo: needed)
            ?? LineFeeds.index(ofFileDescriptor: file.rawValue, blockBytes: blockBytes) { (needed, true) }
        return Self.place(found, in: file, index: index)
    }

    /// `findings` (their offsets in the file open as `file`, their lines and columns not yet
    /// counted) on their lines and columns: each from its block's line feeds in `index` and the
    /// bytes of that block before it, or counted on from the finding before it when that is
    /// nearer; a column whose line began before its block from that line's last line feed (the
    /// index says where) or from the finding before it on the same line. Exactly what counting
    /// every byte from the start gives (`SecretLineCounter`). A file that ends before a finding
    /// (it shrank since it was scanned) has its end stand for it.
    static func place(
        _ findings: [SecretFinding], in file: borrowing FileDescriptor, index: LineFeeds.FileIndex
    ) -> [SecretFinding] {
        var placed = findings
        let blockBytes = index.blockBytes
        // The counter and whether its column is known: after a jump to a block's start it is
        // not, until a line feed has been passed.
        var counter = SecretLineCounter()
        var columnKnown = true
        var jumpedTo = 0
        // The last place put with its column known.
        var lastKnown = SecretLineCounter()
        for slot in placed.indices.sorted(by: { placed[$0].offset < placed[$1].offset }) {
            let target = placed[slot].offset
            let block = min(target / blockBytes, index.blocks)
            if block * blockBytes > counter.position {
                counter = SecretLineCounter(
                    position: block * blockBytes, line: 1 + index.feedsBefore[block], column: 1)
                columnKnown = false
                jumpedTo = block
            }
            let lineBefore = counter.line
            forEachPiece(of: file, from: counter.position, to: target) { piece in
                counter.advance(over: piece, from: 0, to: piece.count)
            }
            if counter.line != lineBefore { columnKnown = true }
            if !columnKnown {
                // No line feed since the block's start: the line began before it.
                let lineStart = (index.lastFeed(before: jumpedTo) ?? -1) + 1
                var column =
                    lastKnown.position >= lineStart && lastKnown.position <= counter.position
                    ? SecretLineCounter(position: lastKnown.position, line: counter.line, column: lastKnown.column)
                    : SecretLineCounter(position: lineStart, line: counter.line, column: 1)
                forEachPiece(of: file, from: column.position, to: counter.position) { piece in
                    column.column += SecretLineCounter.scalars(in: piece, from: 0, to: piece.count)
                    column.position += piece.count
                }
                counter.column = column.column
                columnKnown = true
            }
            placed[slot].line = counter.line
            placed[slot].column = counter.column
            lastKnown = counter
        }
        return placed
    }

    /// Hands `body` the bytes of `file` from offset `from` to `to`, in pieces, until the file
    /// ends or a read fails.
    private static func forEachPiece(
        of file: borrowing FileDescriptor, from: Int, to: Int, _ body: (Span<UInt8>) -> Void
    ) {
        var position = from
        while position < to {
            guard let piece = try? file.read(atOffset: Int64(position), upTo: min(fileChunkBytes, to - position)),
                !piece.isEmpty
            else { return }
            body(piece.span)
            position += piece.count
        }
    }
}

/// A file's line feeds counted on a thread of their own (`LineFeeds.index(ofFileDescriptor:…)`),
/// from the file's start as far as the scan has read it (`scanned(_:)`), so the count reads
/// what the scan's reads have just brought into the caches; at the end (`finish(upTo:)`) as
/// far as the last finding's block.
final class LineFeedCounting {
    private let shared: Shared
    private let thread: JoinableThread<LineFeeds.FileIndex>

    /// What the scanning thread tells the counting one: no lock, no wake-up.
    private final class Shared: Sendable {
        /// How far the file was read.
        let scanned = Atomic<Int>(0)
        /// How far the count must go once the scan has ended; -1 while it has not.
        let limit = Atomic<Int>(-1)
    }

    /// Starts counting the file open as `descriptor` (which must stay open until `finish`), or
    /// nil when no thread can be started (the count is then made after the scan).
    init?(descriptor: Int32, blockBytes: Int) {
        let shared = Shared()
        self.shared = shared
        do {
            thread = try JoinableThread {
                LineFeeds.index(ofFileDescriptor: descriptor, blockBytes: blockBytes) {
                    let limit = shared.limit.load(ordering: .relaxed)
                    return limit >= 0 ? (limit, true) : (shared.scanned.load(ordering: .relaxed), false)
                }
            }
        } catch {
            return nil
        }
    }

    /// The scan has read the file this far.
    func scanned(_ bytes: Int) {
        shared.scanned.store(bytes, ordering: .relaxed)
    }

    /// The index, once the count has reached `bytes` (or the file's end): the thread is joined.
    func finish(upTo bytes: Int) -> LineFeeds.FileIndex {
        shared.limit.store(max(0, bytes), ordering: .relaxed)
        return thread.join()
    }
}
