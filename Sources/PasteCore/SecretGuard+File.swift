import SystemInterop

extension SecretGuard {
    /// How much of a file is scanned at a time: large enough to keep the scanner busy, small
    /// enough to keep memory flat for files of any size.
    static let fileChunkBytes = 4 << 20

    /// Scans a whole file in chunks cut at line ends, so no token is split between two chunks;
    /// line numbers count from the start of the file.
    ///
    /// - Returns: the findings, or nil when the file cannot be read (the upload then reports it).
    public func scan(filePath path: String) -> [SecretFinding]? {
        var findings: [SecretFinding] = []
        var carry: [UInt8] = []
        var linesBefore = 0
        func scanLines(_ text: [UInt8]) {
            for var finding in scan(text) {
                finding.line += linesBefore
                findings.append(finding)
            }
            linesBefore += text.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
        }
        do {
            try FileSystem.forEachChunk(ofFile: path, chunkSize: Self.fileChunkBytes) { chunk in
                guard findings.count < maximumFindings else { return }
                var text = carry + chunk
                carry = []
                // The unfinished last line waits for the next chunk (a chunk without any line end
                // is scanned as it is, so memory stays bounded).
                if let lastNewline = text.lastIndex(of: 0x0A) {
                    carry = Array(text[(lastNewline + 1)...])
                    text.removeSubrange((lastNewline + 1)...)
                }
                scanLines(text)
            }
        } catch {
            return nil
        }
        if !carry.isEmpty { scanLines(carry) }
        return Array(findings.prefix(maximumFindings))
    }
}
