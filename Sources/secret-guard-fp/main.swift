// The secret guard's false-positive bench (scripts/secret-guard-fp runs it; never installed).
//
// Reads file paths on stdin, one a line, scans each file with the guard as paste does, and
// prints: files scanned and flagged, of them the generated clean ones, findings per MB; then the
// scan speed over the corpus repeated to `--speed-mib` MiB, whole and in 64 KiB chunks (as a
// pipe delivers it), best of three, in CPU time of the scanning thread.
//
//   secret-guard-fp [-v] [--speed-mib N] < paths
//     -v              list every finding: file, line, column, kind, excerpt
//     --speed-mib N   the size of the speed run (default 256; 0 skips it)

import SecretGuard
import SystemInterop

let arguments = Array(CommandLine.arguments.dropFirst())
let verbose = arguments.contains("-v")
let speedMiB =
    arguments.firstIndex(of: "--speed-mib").flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? 256

/// How much of the scanned text is kept for the speed run (the rest of it repeats this).
let corpusLimit = 64 << 20
/// The size of the chunks fed to the incremental scanner: what a pipe delivers at a time.
let chunkSize = 64 << 10
/// Runs of each speed measurement; the best counts.
let speedRuns = 3

var paths: [String] = []
while let line = readLine() { paths.append(line) }
let guardian = SecretGuard()
var scanned = 0
var flagged = 0
var findingCount = 0
var totalBytes = 0
var generated = 0
var generatedFlagged = 0
var corpus: [UInt8] = []
for path in paths {
    guard let bytes = try? FileSystem.readFile(path).bytes else { continue }
    scanned += 1
    totalBytes += bytes.count
    if corpus.count < corpusLimit { corpus += bytes.prefix(corpusLimit - corpus.count) }
    let findings = guardian.scan(bytes)
    if !findings.isEmpty { flagged += 1 }
    if path.contains("/clean-generated/") {
        generated += 1
        if !findings.isEmpty { generatedFlagged += 1 }
    }
    findingCount += findings.count
    if verbose {
        for finding in findings {
            print("\(path):\(finding.line):\(finding.column): \(finding.pattern.name): \(finding.excerpt)")
        }
    }
}

/// `part / whole` as a percentage with two decimals (`0.25`).
func percent(_ part: Int, of whole: Int) -> Double { Double(part * 10000 / max(whole, 1)) / 100 }

let megabytes = Double(totalBytes) / 1_000_000
print("files scanned:   \(scanned) (\(String(Int(megabytes * 10) / 10)) MB)")
print("files flagged:   \(flagged) = \(percent(flagged, of: scanned))%")
print("of them generated: \(generatedFlagged) of \(generated) flagged = \(percent(generatedFlagged, of: generated))%")
print(
    "findings:        \(findingCount) = \(Double(Int(Double(findingCount) / max(megabytes, 1e-9) * 1000)) / 1000) per MB"
)

// MARK: - Speed: the corpus repeated to `speedMiB`, scanned whole and in chunks (no findings cap)

/// The best CPU time of `speedRuns` runs of `run`, and what the last one found.
func best(_ run: () -> Int) -> (seconds: Double, found: Int) {
    var best = Double.infinity
    var found = 0
    for _ in 0..<speedRuns {
        let start = ThreadCPUClock.now()
        found = run()
        let (seconds, attoseconds) = (ThreadCPUClock.now() - start).components
        best = min(best, Double(seconds) + Double(attoseconds) / 1e18)
    }
    return (best, found)
}

let target = speedMiB << 20
if target > 0, !corpus.isEmpty {
    var big: [UInt8] = []
    big.reserveCapacity(target)
    while big.count < target { big += corpus.prefix(target - big.count) }
    let fast = SecretGuard(maximumFindings: Int.max)
    let whole = best { fast.scan(big).count }
    let chunked = best {
        var scanner = fast.makeScanner()
        var offset = 0
        while offset < big.count {
            let end = min(big.count, offset + chunkSize)
            scanner.feed(big[offset..<end].span)
            offset = end
        }
        return scanner.finish().count
    }
    let mib = Double(target) / 1_048_576
    for (label, run) in [("whole:   ", whole), ("64 KiB:  ", chunked)] {
        print(
            "speed, \(label) \(speedMiB) MiB in \(Int(run.seconds * 1000)) ms = \(Int(mib / run.seconds)) MiB/s"
                + " (\(run.found) findings)")
    }
}
