import Foundation
import Testing

import PasteCore
@testable import SecretGuard

/// Issue 18, item 4: the secret guard on a stream, as `ContentInspection` runs it chunk by chunk
/// (`ContentChecks.scansSecrets`): a key at any offset and across any chunk boundary is refused,
/// naming its kind, line and byte offset; the start the guard already scanned is not scanned
/// again, but a key its end cut is still found.
@Suite("Secrets refused as a stream is inspected, at any offset and chunk boundary")
struct StreamSecretInspectionTests {
    static let key = Array("AKIAY026A4N7VAPKLNWR".utf8)

    /// `lines` lines of 79 `x` and a newline, then `key = <key>` on a line of its own (when
    /// `atEnd`, without a newline and with nothing after), then more filler.
    static func text(lines: Int, atEnd: Bool = false) -> (bytes: [UInt8], offset: Int, line: Int) {
        let filler = Array(repeating: UInt8(ascii: "x"), count: 79) + [0x0A]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines * 80 + 4096)
        for _ in 0..<lines { bytes += filler }
        bytes += Array("key = ".utf8)
        let offset = bytes.count
        bytes += key
        if !atEnd {
            bytes.append(0x0A)
            for _ in 0..<20 { bytes += filler }
        }
        return (bytes, offset, lines + 1)
    }

    /// Runs the inspection over `bytes` cut into `chunk`-byte pieces; the refusal, and whether
    /// it came only at the end.
    static func inspect(
        _ bytes: [UInt8], chunk: Int, alreadyScanned: Int64 = 0
    ) -> (refusal: InspectionRefusal?, atEnd: Bool) {
        let inspection = ContentInspection(
            ContentChecks(scansSecrets: true, secretsScannedUpFront: alreadyScanned), source: "stdin",
            secrets: SecretInspector.init)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            if !inspection.inspect(bytes[start..<end].span) { return (inspection.refusal, false) }
            start = end
        }
        return inspection.finish() ? (nil, true) : (inspection.refusal, true)
    }

    @Test(
        "a key is refused at its offset and line whatever the chunk size",
        arguments: [1, 3, 4096, 9215, 9216, 9217, 65_536, 1 << 20])
    func anyChunkSize(_ chunk: Int) {
        // Chunks of one byte are slow in a debug build: a shorter text for them.
        let (bytes, offset, line) = Self.text(lines: chunk < 4096 ? 300 : 3000)
        let refusal = Self.inspect(bytes, chunk: chunk).refusal
        #expect(refusal == .secret(source: "stdin", pattern: .awsAccessKeyID, offset: Int64(offset), line: line))
    }

    @Test("a key straddling a chunk boundary is found, at every cut through it")
    func straddling() {
        let (bytes, offset, line) = Self.text(lines: 1000)
        for cut in (offset - 2)...(offset + Self.key.count + 1) {
            let inspection = ContentInspection(
                ContentChecks(scansSecrets: true), source: "stdin", secrets: SecretInspector.init)
            let first = Array(bytes[..<cut])
            let second = Array(bytes[cut...])
            var refused = !inspection.inspect(first.span)
            if !refused { refused = !inspection.inspect(second.span) }
            if !refused { refused = !inspection.finish() }
            #expect(
                inspection.refusal
                    == .secret(source: "stdin", pattern: .awsAccessKeyID, offset: Int64(offset), line: line),
                "cut at \(cut)")
        }
    }

    @Test("a key that ends the stream is refused at finish, before the end is handed over")
    func atTheEnd() {
        let (bytes, offset, line) = Self.text(lines: 2000, atEnd: true)
        let (refusal, atEnd) = Self.inspect(bytes, chunk: 65_536)
        #expect(atEnd)
        #expect(refusal == .secret(source: "stdin", pattern: .awsAccessKeyID, offset: Int64(offset), line: line))
    }

    @Test("clean text passes; the refusal is exit 77 and never quotes the key")
    func cleanAndMessage() {
        let filler = [UInt8](repeating: UInt8(ascii: "a"), count: 300_000)
        #expect(Self.inspect(filler, chunk: 65_536).refusal == nil)
        let refusal = InspectionRefusal.secret(source: "stdin", pattern: .awsAccessKeyID, offset: 41_943_046, line: 3)
        #expect(refusal.exitStatus == .refused)
        #expect(refusal.keepsText)
        #expect(
            refusal.message
                == "refusing to upload stdin: it looks like it holds an AWS access key id (line 3, byte offset "
                + "41943046); the upload was stopped, nothing was pasted")
        #expect(!InspectionRefusal.binary(source: "stdin", offset: 1).keepsText)
    }

    @Test("the start scanned up front is not scanned again, but a key its end cut is found")
    func alreadyScanned() {
        let (bytes, offset, line) = Self.text(lines: 3000)
        // Well inside the start the guard scanned (more than 8 KiB before its end): skipped. The
        // guard would have refused it up front; the stream's scan does not look again.
        let skipped = Int64(offset + Self.key.count + SecretScanner.lookahead + 64)
        #expect(Self.inspect(bytes, chunk: 65_536, alreadyScanned: skipped).refusal == nil)
        #expect(Self.inspect(bytes, chunk: 4096, alreadyScanned: skipped).refusal == nil)
        // The scanned start ends inside the key (so the whole-text scan saw it cut short), or
        // within 8 KiB after it: found, with the line counted over the skipped bytes.
        for scanned in [offset + 5, offset + Self.key.count + 100, offset + SecretScanner.lookahead - 10] {
            for chunk in [4096, 65_536] {
                let refusal = Self.inspect(bytes, chunk: chunk, alreadyScanned: Int64(scanned)).refusal
                #expect(
                    refusal == .secret(source: "stdin", pattern: .awsAccessKeyID, offset: Int64(offset), line: line),
                    "scanned \(scanned), chunk \(chunk)")
            }
        }
    }

    @Test(
        "with the stream's copy at hand, no line is counted until a finding; settled, the refusal is on its exact line",
        arguments: [4096, 65_536, 1 << 20])
    func linesFromTheCopy(_ chunk: Int) throws {
        // Past the 8 MiB held in memory (shorter for small chunks: slow in a debug build), and a
        // text with the key on its first line.
        let deep = Self.text(lines: chunk < 65_536 ? 3000 : 110_000)
        let first = Self.text(lines: 0)
        for (bytes, offset, line) in [deep, first] {
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent("copy-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: copy) }
            try Data(bytes).write(to: copy)
            var inspector = SecretInspector(source: "stdin", alreadyScanned: 0, copyPath: copy.path)
            var refusal: InspectionRefusal?
            var start = 0
            while start < bytes.count, refusal == nil {
                let end = min(bytes.count, start + chunk)
                refusal = inspector.inspect(bytes[start..<end].span, at: Int64(start))
                // Nothing found yet: nothing counted.
                if refusal == nil && start + chunk < offset { #expect(inspector.scanner.lineBase == nil) }
                start = end
            }
            if refusal == nil { refusal = inspector.finish(at: Int64(bytes.count)) }
            let found = try #require(refusal)
            #expect(
                inspector.settle(found)
                    == .secret(source: "stdin", pattern: .awsAccessKeyID, offset: Int64(offset), line: line),
                "key at \(offset), chunk \(chunk)")
            // Settled through the inspection too, and only once.
            let inspection = ContentInspection(ContentChecks(scansSecrets: true), source: "stdin") { name, scanned in
                SecretInspector(source: name, alreadyScanned: scanned, copyPath: copy.path)
            }
            var refused = !inspection.inspect(bytes.span)
            if !refused { refused = !inspection.finish() }
            #expect(refused)
            inspection.settleRefusal()
            inspection.settleRefusal()
            #expect(
                inspection.refusal
                    == .secret(source: "stdin", pattern: .awsAccessKeyID, offset: Int64(offset), line: line))
        }
    }

    @Test("scanning a start up front and the stream after it finds what one scan of the whole finds")
    func splitEqualsWhole() {
        let (bytes, offset, _) = Self.text(lines: 3000)
        // The start ends mid-key: the whole-text scan of that start must not find it whole.
        let start = Array(bytes[..<(offset + 10)])
        #expect(SecretGuard().scan(start).allSatisfy { $0.pattern != .awsAccessKeyID || $0.offset != offset })
        #expect(Self.inspect(bytes, chunk: 65_536, alreadyScanned: Int64(start.count)).refusal != nil)
    }

    /// The refusal of an inspection with the NUL check and the guard (`text(in: .raw)` and
    /// `scansSecrets`) over `bytes` cut into `chunk`-byte pieces, and whether PasteCore's NUL
    /// inspector ran (it does not where the guard took the check on).
    static func inspectText(
        _ bytes: [UInt8], chunk: Int, format: RequestFormat = .raw, alreadyScanned: Int64 = 0
    ) -> InspectionRefusal? {
        var checks = ContentChecks.text(in: format)
        checks.scansSecrets = true
        checks.secretsScannedUpFront = alreadyScanned
        let inspection = ContentInspection(checks, source: "stdin", secrets: SecretInspector.init)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            if !inspection.inspect(bytes[start..<end].span) { return inspection.refusal }
            start = end
        }
        return inspection.finish() ? nil : inspection.refusal
    }

    @Test(
        "the guard refuses a NUL byte as binary data at its offset, in place of the NUL inspector, whatever the chunks",
        arguments: [4096, 9216, 9217, 65_536, 1 << 20])
    func nulRefusedByTheGuard(_ chunk: Int) {
        let filler = Array(repeating: UInt8(ascii: "x"), count: 79) + [0x0A]
        // Three chunks of text (at least 128 KiB): every place below, and no more bytes to scan
        // 27 times in a debug build than the chunk size needs.
        let text = Array([[UInt8]](repeating: filler, count: max(3 * chunk, 1 << 17) / filler.count + 1).joined())
        // Places at a chunk's start and end, inside the scanner's seam, lookbehind and lookahead,
        // and in the middle of a chunk.
        let places = [
            0, 1, 1023, 1024, 8191, 9215, 9216, chunk - 1, chunk, chunk + 1, chunk + 5000, 2 * chunk - 9000,
            text.count - 1,
        ].filter { $0 >= 0 && $0 < text.count }
        for place in places {
            var bytes = text
            bytes[place] = 0
            bytes[min(place + 10, bytes.count - 1)] = 0
            #expect(Self.inspectText(bytes, chunk: chunk) == .binary(source: "stdin", offset: Int64(place)), "\(place)")
            // With the start scanned up front (the guard still sees every byte).
            #expect(
                Self.inspectText(bytes, chunk: chunk, alreadyScanned: 100_000)
                    == .binary(source: "stdin", offset: Int64(place)), "\(place), start scanned")
        }
        #expect(Self.inspectText(text, chunk: chunk) == nil)
    }

    @Test("a NUL after a key in the same chunk is refused as binary data, as the NUL inspector before the guard did")
    func nulBeforeTheSecret() {
        let (bytes, offset, line) = Self.text(lines: 3000)
        var withNUL = bytes
        withNUL[offset + 1000] = 0
        #expect(Self.inspectText(withNUL, chunk: 1 << 20) == .binary(source: "stdin", offset: Int64(offset + 1000)))
        // In a chunk after the one where the key was seen: the key is refused first.
        var later = bytes + Array(repeating: UInt8(ascii: "y"), count: 30_000)
        later[bytes.count + 25_000] = 0
        #expect(
            Self.inspectText(later, chunk: 4096)
                == .secret(source: "stdin", pattern: .awsAccessKeyID, offset: Int64(offset), line: line))
        // Where a UTF-8 check comes between them the NUL inspector stays: the same refusal.
        #expect(
            Self.inspectText(withNUL, chunk: 1 << 20, format: .json)
                == .binary(source: "stdin", offset: Int64(offset + 1000)))
        // The check is taken on before the first chunk only.
        var inspector = SecretInspector(source: "stdin", alreadyScanned: 0)
        let refusal = inspector.inspect(Array("abc".utf8).span, at: 0)
        #expect(refusal == nil)
        let tookOn = inspector.refusesNULs()
        #expect(!tookOn)
    }
}
