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
/// A stream whose copy is at hand once it was refused (teed into its outbox entry: `copyPath`)
/// has its lines counted only from the first finding on, as a large clipboard's are (`SecretLinePlacer`):
/// the refusal's line is relative to where counting began until it is settled (`settle(_:)`,
/// after the transfer, the tee flushed), which counts the line feeds of the copy before that
/// place. A stream that is not teed counts its lines as it goes.
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
    /// The file that holds the content from its start once the transfer is over (a stream's
    /// outbox copy), read again up to where lines began to be counted; nil when lines are
    /// counted all the way.
    var copyPath: String?
    /// How many bytes at the start the guard already scanned (the scanner is made again by
    /// `refusesNULs()`).
    private var alreadyScanned: Int64

    /// An inspector for the content named `source`, whose first `alreadyScanned` bytes the guard
    /// already scanned whole and found clean.
    public init(source: String, alreadyScanned: Int64) {
        self.init(source: source, alreadyScanned: alreadyScanned, copyPath: nil)
    }

    /// An inspector for the content named `source`, whose first `alreadyScanned` bytes the guard
    /// already scanned whole and found clean, and whose bytes `copyPath` holds from the start
    /// once the transfer is over (nil: none does, lines are counted as the content goes by).
    public init(source: String, alreadyScanned: Int64, copyPath: String?) {
        self.source = source
        self.copyPath = copyPath
        self.alreadyScanned = alreadyScanned
        scanner = SecretGuard().makeScanner(alreadyScanned: Int(alreadyScanned), countingLines: copyPath == nil)
    }

    /// Takes on the NUL check (`ContentChecks.refusesBinary`): from now on a NUL byte is refused
    /// as `.binary`, before any secret. Only before the first chunk.
    public mutating func refusesNULs() -> Bool {
        guard scanner.bytesScanned == 0 else { return false }
        scanner = SecretGuard().makeScanner(
            alreadyScanned: Int(alreadyScanned), countingLines: copyPath == nil, watchingNUL: true)
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

    /// The refusal on its line in the whole content: the line feeds of the copy before where the
    /// scanner began counting (`SecretScanner.lineBase`) added. A copy that cannot be read, or
    /// ends early (a tee write that failed), places it by what was read.
    public func settle(_ refusal: InspectionRefusal) -> InspectionRefusal {
        guard let copyPath, let base = scanner.lineBase, base > 0,
            case .secret(let source, let pattern, let offset, let line) = refusal
        else { return refusal }
        var lines = SecretLineCounter()
        if let file = try? FileDescriptor.open(copyPath, .readOnly) {
            _ = try? file.forEachChunk(upTo: base, chunkSize: SecretGuard.fileChunkBytes) { chunk in
                lines.advance(over: chunk.span, from: 0, to: chunk.count)
            }
        }
        return .secret(source: source, pattern: pattern, offset: offset, line: lines.line + line - 1)
    }

    private func refusal(_ finding: SecretFinding) -> InspectionRefusal {
        .secret(source: source, pattern: finding.pattern, offset: Int64(finding.offset), line: finding.line)
    }
}
