#if canImport(Glibc)
    import Glibc
#endif

extension SecretGuard {
    /// How much of a file is scanned at a time: large enough to keep the scanner busy, small
    /// enough to keep memory flat for files of any size.
    static let fileChunkBytes = 4 << 20

    /// Scans a whole file in chunks cut at line ends, so no token is split between two chunks;
    /// line numbers count from the start of the file.
    ///
    /// - Returns: the findings, or nil when the file cannot be read (the upload then reports it).
    public func scan(filePath path: String) -> [SecretFinding]? {
        let descriptor = unsafe open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var findings: [SecretFinding] = []
        var carry: [UInt8] = []
        var linesBefore = 0
        var chunk = [UInt8](repeating: 0, count: Self.fileChunkBytes)
        while findings.count < maximumFindings {
            let count = unsafe chunk.withUnsafeMutableBytes { unsafe read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            var text = carry + chunk[0..<count]
            carry = []
            if count > 0, let lastNewline = text.lastIndex(of: 0x0A) {
                // The unfinished last line waits for the next chunk.
                carry = Array(text[(lastNewline + 1)...])
                text.removeSubrange((lastNewline + 1)...)
            }
            for var finding in scan(text) {
                finding.line += linesBefore
                findings.append(finding)
            }
            linesBefore += text.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
            if count == 0 { break }
        }
        return Array(findings.prefix(maximumFindings))
    }
}
