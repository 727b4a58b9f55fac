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
    /// Lines are counted only from the first finding on: the file is then read again up to
    /// where the scanner began counting (`SecretScanner.lineBase`, `SecretLinePlacer`).
    /// PERF(guard-text): counting every chunk's lines was 3.6 % of `paste -n -f` over the
    /// bench's log lines; reading a file again up to its last finding instead cost the source
    /// code (23 findings to its end) a second read of 256 MiB.
    ///
    /// - Returns: the findings, or nil when the file cannot be read (the upload then reports it).
    public func scan(filePath path: String) -> [SecretFinding]? {
        var scanner = makeScanner(countingLines: false)
        do {
            try FileSystem.forEachChunk(ofFile: path, chunkSize: Self.fileChunkBytes) { chunk in
                scanner.feed(chunk.span)
            }
        } catch {
            return nil
        }
        let found = scanner.finish()
        guard let base = scanner.lineBase, base > 0, !found.isEmpty else { return found }
        var placer = SecretLinePlacer(found, countedFrom: base)
        // Read again up to where counting began; a file that cannot be read now keeps its
        // findings where what was read puts them (they were found all the same).
        try? FileSystem.forEachChunk(ofFile: path, chunkSize: Self.fileChunkBytes) { chunk in
            placer.feed(chunk.span)
            if placer.isDone { throw PlacingDone() }
        }
        return placer.finish()
    }

    /// Ends the second read of a file once it reached where the scanner began counting lines.
    private struct PlacingDone: Error {}
}
