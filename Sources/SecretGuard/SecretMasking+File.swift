import PasteCore
import SystemInterop

extension SecretMasking {
    /// How much of a file before a finding is read with it: enough for the base64 run a decoded
    /// finding sits in (`span(of:in:)` widens it to the whole run).
    static let fileReachBefore = 64 << 10
    /// How much of a file after a finding is read with it: a private key block's reach
    /// (`blockReach`) and room for the rest of a base64 run or a line.
    static let fileReachAfter = blockReach + (64 << 10)
    /// How much of a file is copied at a time between markers (`SecretGuard.fileChunkBytes`).
    static let fileCopyBytes = 256 << 10

    /// Masks `findings` (the guard's scan of the file at `path`: `SecretGuard.scan(filePath:)`,
    /// offsets from the file's start) and hands the masked text to `write` a chunk at a time:
    /// the same markers in the same places as `init(masking:findings:)` gives for the file read
    /// whole, with memory bounded by one chunk and one finding's surroundings whatever the
    /// file's size (`--redact` on piped stdin past what is held in memory, or a large `-f`).
    ///
    /// Each finding's span is worked out from the bytes around it (`fileReachBefore`,
    /// `fileReachAfter`); a span that reaches the end of what was read (a key block with no end
    /// line, a base64 run longer than the reach) runs on to the end of the file, as it would in
    /// memory for a key block: never less than the value is masked. Scan the result again
    /// (`SecretGuard.scan(filePath:)`) before sending it, as `remaining` does in memory.
    ///
    /// - Returns: What was masked, one per finding, in order of position.
    /// - Throws: `Errno` when the file cannot be opened or read, or what `write` throws.
    public static func mask(
        filePath path: String, findings: [SecretFinding], into write: ([UInt8]) throws -> Void
    ) throws -> [MaskedSecret] {
        let file = try FileDescriptor.open(path, .readOnly)
        let size = Int(try file.status().size)
        var spans: [MaskedSpan] = []
        for finding in findings.sorted(by: { $0.offset < $1.offset }) {
            guard finding.offset >= 0, finding.offset < size else { continue }
            let start = max(0, finding.offset - fileReachBefore)
            let window = try file.read(atOffset: Int64(start), upTo: finding.offset - start + fileReachAfter)
            var local = finding
            local.offset -= start
            guard let range = span(of: local, in: window.span) else { continue }
            let end = range.upperBound == window.count ? size : start + range.upperBound
            add(MaskedSpan(range: (start + range.lowerBound)..<end, pattern: finding.pattern), to: &spans)
        }
        var position = 0
        func copy(upTo end: Int) throws {
            while position < end {
                let chunk = try file.read(atOffset: Int64(position), upTo: min(fileCopyBytes, end - position))
                // The file got shorter while it was masked: what is left of it is what it holds.
                if chunk.isEmpty { return }
                try write(chunk)
                position += chunk.count
            }
        }
        for span in spans {
            try copy(upTo: span.range.lowerBound)
            try write(Array(marker(span.pattern).utf8))
            position = span.range.upperBound
        }
        try copy(upTo: size)
        return masked(findings)
    }
}
