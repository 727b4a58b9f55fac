import PasteCore
import SystemInterop

/// Refuses content holding a secret, at any offset: the secret guard's incremental scanner
/// (`SecretScanner`), fed every chunk before libcurl has it.
///
/// The scanner keeps the last 9 KiB of the stream, so a key split between two chunks is found as
/// in a whole text. It looks at a trigger only once the 8 KiB after it have arrived, so a key
/// may be seen a chunk or two after it went to libcurl; what decides is `finish`, which scans
/// what is left before the stream's end is handed over: a chunked request never gets its final
/// chunk, and the server never makes a paste. Memory stays flat: the scanner's tail.
///
/// The scan runs in place, on the thread that reads the stream, over each chunk while the read's
/// copy is still in that core's cache (CurlInterop's `BodyReader`; the stream's digest follows
/// its outbox copy on another thread). A scan thread fed every 64 KiB chunk (a copy and a
/// wake-up each) cost more than it saved (1 GiB piped: 2.31 s of CPU against 2.01 s in place),
/// and one scanning the outbox copy's 1 MiB blocks a third more than in place (blocks another
/// core had written; docs/performance.md, issue 44).
///
/// Lines are counted as the content goes by, by the candidate search on its way
/// (`SecretScanner.feeds`): a refusal is on its exact line at once, and a teed copy is never read
/// again.
/// PERF(stream): counting every block's lines was about half of what the guard added to a
/// gigabyte piped (0.05-0.1 s/GiB on the scanning thread, `perf record` of the C sink run).
///
/// Asked to (`refusesNULs()`, by a `ContentInspection` whose checks refuse binary data), it
/// refuses a NUL byte too, as PasteCore's NUL inspector would (`.binary`, at its offset), from
/// what the candidate search sees of every byte on its way (`SecretScanner.firstNUL`).
/// PERF(stream): the NUL inspector's own `memchr` over every byte was 0.05 s of CPU a GiB
/// piped, on the same thread as the scan.
public struct SecretInspector: ContentInspector {
    var source: String
    var scanner: SecretScanner
    /// How many bytes at the start the guard already scanned (the scanner is made again by
    /// `refusesNULs()`).
    private var alreadyScanned: Int64

    /// An inspector for the content named `source`, whose first `alreadyScanned` bytes the guard
    /// already scanned whole and found clean.
    public init(source: String, alreadyScanned: Int64) {
        self.source = source
        self.alreadyScanned = alreadyScanned
        scanner = SecretGuard().makeScanner(alreadyScanned: Int(alreadyScanned))
    }

    /// Takes on the NUL check (`ContentChecks.refusesBinary`): from now on a NUL byte is refused
    /// as `.binary`, before any secret. Only before the first chunk.
    public mutating func refusesNULs() -> Bool {
        guard scanner.bytesScanned == 0 else { return false }
        scanner = SecretGuard().makeScanner(alreadyScanned: Int(alreadyScanned), watchingNUL: true)
        return true
    }

    public mutating func inspect(_ chunk: Span<UInt8>, at offset: Int64) -> InspectionRefusal? {
        scanner.feed(chunk)
        // A chunk with a NUL was the NUL inspector's to refuse before this one saw it.
        if let nul = scanner.firstNUL { return .binary(source: source, offset: Int64(nul)) }
        return scanner.firstSeen.map(refusal)
    }

    public mutating func finish(at length: Int64) -> InspectionRefusal? {
        scanner.finish().first.map(refusal)
    }

    private func refusal(_ finding: SecretFinding) -> InspectionRefusal {
        .secret(source: source, pattern: finding.pattern, offset: Int64(finding.offset), line: finding.line)
    }
}
