import PasteCore

/// Refuses content holding a secret, at any offset: the secret guard's incremental scanner
/// (`SecretScanner`), fed every chunk before libcurl has it.
///
/// The scanner keeps the last 9 KiB of the stream, so a key split between two chunks is found as
/// in a whole text. It looks at a trigger only once the 8 KiB after it have arrived, so a key
/// may be seen a chunk or two after it went to libcurl; what decides is `finish`, which scans
/// what is left before the stream's end is handed over: a chunked request never gets its final
/// chunk, and the server never makes a paste. Memory stays flat: the scanner's tail.
///
/// Where a stream is teed into the outbox (piped stdin), the scan runs on the tee's thread, over
/// the 1 MiB blocks the tee copies anyway (CurlInterop's `BodyReader`): no copy and one wake-up
/// per block, beside the read and the send instead of before them. An earlier scan thread fed
/// every 64 KiB chunk (a copy and a wake-up each) cost more than it saved (1 GiB piped: 2.31 s of
/// CPU against 2.01 s in place). Content that is not teed is scanned in place, on the thread
/// that reads it.
public struct SecretInspector: ContentInspector {
    var source: String
    var scanner: SecretScanner

    /// An inspector for the content named `source`, whose first `alreadyScanned` bytes the guard
    /// already scanned whole and found clean.
    public init(source: String, alreadyScanned: Int64) {
        self.source = source
        scanner = SecretGuard().makeScanner(alreadyScanned: Int(alreadyScanned))
    }

    public mutating func inspect(_ chunk: Span<UInt8>, at offset: Int64) -> InspectionRefusal? {
        scanner.feed(chunk)
        return scanner.firstSeen.map(refusal)
    }

    public mutating func finish(at length: Int64) -> InspectionRefusal? {
        scanner.finish().first.map(refusal)
    }

    private func refusal(_ finding: SecretFinding) -> InspectionRefusal {
        .secret(source: source, pattern: finding.pattern, offset: Int64(finding.offset), line: finding.line)
    }
}
