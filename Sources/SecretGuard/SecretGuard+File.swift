import PasteCore
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

    /// Scans a whole file in chunks with `SecretScanner`: memory stays flat for files of any
    /// size, a token cut by a chunk edge is found, and offsets and lines count from the start of
    /// the file.
    ///
    /// Lines are counted by the candidate search on its way (`SecretScanner.feeds`): the file is
    /// read once. PERF(guard-text): counting every chunk's lines in a pass of their own was 3.6 %
    /// of `paste -n -f` over the bench's log lines; counting only from the first finding on, and
    /// reading the file again up to there to place it, cost the source code (refused: findings to
    /// its end) that count and a second read.
    ///
    /// - Returns: the findings, or nil when the file cannot be read (the upload then reports it).
    public func scan(filePath path: String) -> [SecretFinding]? {
        var scanner = makeScanner()
        do {
            try FileSystem.forEachChunk(ofFile: path, chunkSize: Self.fileChunkBytes) { chunk in
                scanner.feed(chunk.span)
            }
        } catch {
            return nil
        }
        return scanner.finish()
    }
}
