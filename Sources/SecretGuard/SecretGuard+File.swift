import PasteCore
import SystemInterop

extension SecretGuard {
    /// How much of a file is scanned at a time: large enough to keep the scanner busy, small
    /// enough to keep memory flat for files of any size.
    static let fileChunkBytes = 4 << 20

    /// Scans a whole file in chunks with `SecretScanner`: memory stays flat for files of any
    /// size, a token cut by a chunk edge is found, and offsets and lines count from the start of
    /// the file.
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
