import Foundation
import Testing
import TestSupport

import PasteCore
@testable import SecretGuard
import SecretScanInterop

@Suite("Secret guard over large files", .temporaryHome)
struct SecretGuardFileTests: ScopedSuite {
    @Test("a token past the first chunks is found, with its line counted from the start of the file")
    func findsTokenDeepInAFile() throws {
        let filler = String(repeating: "an ordinary log line with nothing secret in it at all\n", count: 200_000)
        let fillerLines = 200_000
        // Straddle a chunk boundary: the token line starts just before the 4 MiB mark.
        let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"
        let text = filler + "export GITHUB_TOKEN=\(token)\n" + filler
        let path = try home.write(text, to: "big.log")
        let findings = try #require(SecretGuard().scan(filePath: path))
        #expect(findings.count == 1)
        #expect(findings.first?.line == fillerLines + 1)
        #expect(SecretGuard().scan(filePath: home.root.path + "/missing") == nil)
    }

    @Test("a token cut by every possible chunk edge is still found once")
    func chunkEdges() throws {
        let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"
        let lineLength = 64
        let line = String(repeating: "x", count: lineLength - 1) + "\n"
        let before = SecretGuard.fileChunkBytes / lineLength - 1
        for shift in [0, 7, 40, 63] {
            let text =
                String(repeating: line, count: before) + String(repeating: "y", count: shift) + " " + token + "\n"
            let path = try home.write(text, to: "edge-\(shift).log")
            #expect(try #require(SecretGuard().scan(filePath: path)).map(\.line) == [before + 1])
        }
    }

    @Test("findings in many chunks of a file are placed where the whole text's scan puts them, columns in characters")
    func placedLikeTheWholeText() throws {
        let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"
        let key = "AKIAY026A4N7VAPKLNWR"
        let filler = String(repeating: "une ligne ordinaire, déjà vue, sans secret\n", count: 9_000)
        // In the first chunk, after wide characters on their line, deep in the file, and last.
        let text =
            "é ✓ \(token)\n" + filler + "clé : \(key) et ✓ \(token)\n" + filler + filler + "dernière \(key)"
        let path = try home.write(text, to: "many.log")
        let whole = SecretGuard().scan(Array(text.utf8))
        #expect(whole.map(\.line) == [1, 9_002, 9_002, 27_003], "\(whole)")
        let fromFile = try #require(SecretGuard().scan(filePath: path))
        #expect(fromFile == whole)
        #expect(fromFile.first?.column == 5, "after two characters of two and three bytes")
    }

    /// The line and column of `offset` in `text` counted from `base` (line 1, column 1 there),
    /// byte by byte: what the placer must agree with.
    static func naivePlace(_ text: [UInt8], _ offset: Int, from base: Int = 0) -> (line: Int, column: Int) {
        var (line, column) = (1, 1)
        for byte in text[base..<offset] {
            if byte == 0x0a {
                (line, column) = (line + 1, 1)
            } else if byte & 0xc0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    @Test("the line placer puts findings counted from any offset where the whole text has them, however it is fed")
    func linePlacerChunks() throws {
        let text = Array("ab\ncdé\n\nfg ✓ hi\nlast".utf8)
        let offsets = [4, 9, 15, text.count - 1]
        for base in 0...4 {
            let relative = offsets.map { offset in
                let place = Self.naivePlace(text, offset, from: base)
                return SecretFinding(
                    pattern: .gitHubToken, offset: offset, line: place.line, column: place.column, excerpt: "ghp_…")
            }
            let expected = offsets.map { Self.naivePlace(text, $0) }
            let whole = SecretLinePlacer.place(relative, countedFrom: base, in: text.span)
            #expect(whole.map(\.line) == expected.map(\.line), "base \(base)")
            #expect(whole.map(\.column) == expected.map(\.column), "base \(base)")
            for cut in 1..<text.count {
                let (head, rest) = (Array(text[..<cut]), Array(text[cut...]))
                var placer = SecretLinePlacer(relative, countedFrom: base)
                placer.feed(head.span)
                if !placer.isDone { placer.feed(rest.span) }
                #expect(placer.finish() == whole, "base \(base), cut at \(cut)")
            }
        }
    }

    @Test(
        "a scanner that counts lines from its first finding gives the whole text's lines, columns and offsets once placed"
    )
    func deferredCountingScanner() throws {
        let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"
        // The first finding far into a line longer than what the scanner keeps, so counting
        // begins mid-line; then findings on later lines.
        var text = Array(String(repeating: "ordinary words, ", count: 2_000).utf8)  // 32 KB, no line feed
        text += Array("é \(token) and\nmore\n".utf8)
        text += Array(String(repeating: "line ✓\n", count: 3_000).utf8)
        text += Array("last \(token)\n".utf8)
        let whole = SecretGuard().scan(text)
        #expect(whole.map(\.line) == [1, 3_003], "\(whole)")
        for size in [4_096, 10_000, 20_000, 65_536] {
            var scanner = SecretGuard().makeScanner(countingLines: false)
            var start = 0
            while start < text.count {
                let chunk = Array(text[start..<min(start + size, text.count)])
                scanner.feed(chunk.span)
                start += size
            }
            #expect(SecretGuard().findings(of: scanner, in: text.span) == whole, "chunks of \(size)")
            var finished = scanner
            _ = finished.finish()
            // In one chunk (the largest size) the first finding is in the first chunk: counted from 0.
            #expect(((finished.lineBase ?? -1) > 0) == (size < text.count), "where counting began (chunks of \(size))")
        }
    }

    /// A text whose findings are far apart, after CRLF line ends and wide characters, on lines
    /// longer than a block of the line-feed index (so their column begins before their block),
    /// two on one long line, one at a chunk's edge and one on the very first byte of a block.
    static func farApartText() -> [UInt8] {
        let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"
        let key = "AKIAY026A4N7VAPKLNWR"
        let block = SecretGuard.lineBlockBytes
        var text = Array("é ✓ \(token)\r\n".utf8)
        text += Array(String(repeating: "une ligne ordinaire, déjà vue ✓\r\n", count: 40_000).utf8)
        // A line of three blocks and more, wide characters all along, two findings late on it.
        text += Array(String(repeating: "wörds ✓ ", count: 3 * block / 10).utf8)
        text += Array("clé \(key) puis \(token)\r\n".utf8)
        text += Array(String(repeating: "short\n", count: 100_000).utf8)
        // A token that starts at a block's first byte, the line feed just before it.
        let pad = block - (text.count + 1) % block
        text += Array(String(repeating: "x", count: pad).utf8) + [0x0a]
        text += Array("\(token)\n".utf8)
        // Across the edge of a scan chunk.
        let edge = (text.count / SecretGuard.fileChunkBytes + 1) * SecretGuard.fileChunkBytes - 10
        text += Array(String(repeating: "y", count: edge - text.count).utf8) + Array(" \(key)\n".utf8)
        text += Array(String(repeating: "tail ✓\n", count: 300_000).utf8)
        text += Array("dernière \(key)".utf8)
        return text
    }

    @Test(
        "findings of a large file are placed from the line-feed index exactly where a byte-by-byte count puts them, counted beside the scan or after it"
    )
    func indexedPlacement() throws {
        let text = Self.farApartText()
        let path = try home.write(String(decoding: text, as: UTF8.self), to: "far.txt")
        let whole = SecretGuard().scan(text)
        #expect(whole.map(\.line) == [1, 40_002, 40_002, 140_004, 140_005, 440_006], "\(whole)")
        #expect(whole[3].offset % SecretGuard.lineBlockBytes == 0, "a token on a block's first byte")
        #expect(whole[4].offset / SecretGuard.fileChunkBytes != (whole[4].offset + 20) / SecretGuard.fileChunkBytes)
        #expect(whole[1].column > 3 * SecretGuard.lineBlockBytes / 10, "a column counted from blocks before")
        for threshold in [0, Int.max] {
            let fromFile = try #require(SecretGuard().scan(filePath: path, concurrentLinesFrom: threshold))
            #expect(fromFile == whole, "threshold \(threshold)")
            for finding in fromFile {
                let naive = Self.naivePlace(text, finding.offset)
                #expect(
                    finding.line == naive.line && finding.column == naive.column,
                    "\(finding) against \(naive), threshold \(threshold)")
            }
        }
        // The default threshold starts the thread for this file (4 MiB and more).
        #expect(text.count >= SecretGuard.concurrentLinesFromBytes)
        #expect(try #require(SecretGuard().scan(filePath: path)) == whole)
    }

    @Test("a file's line-feed index keeps to 16,384 blocks: 16 KiB ones up to 256 MiB, larger past it")
    func lineBlockSizes() {
        #expect(SecretGuard.lineBlockBytes(forFileOf: 0) == 16 << 10)
        #expect(SecretGuard.lineBlockBytes(forFileOf: 256 << 20) == 16 << 10)
        #expect(SecretGuard.lineBlockBytes(forFileOf: (256 << 20) + 1) == 32 << 10)
        #expect(SecretGuard.lineBlockBytes(forFileOf: 10 << 30) == 1 << 20)
    }

    @Test("the line-feed index of a file counts each block's line feeds and finds its last, however far it is let read")
    func lineFeedIndex() throws {
        var text = Array(String(repeating: "a\nbb\r\nccc é\n", count: 3_000).utf8)
        text += Array(repeating: UInt8(ascii: "z"), count: 40_000) + Array("\nend".utf8)
        let path = try home.write(String(decoding: text, as: UTF8.self), to: "index.txt")
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        for (blockBytes, limit) in [(4_096, Int.max), (1_000, 50_000), (16_384, 3), (512, text.count)] {
            var asked = 0
            let index = LineFeeds.index(ofFileDescriptor: descriptor, blockBytes: blockBytes, readBytes: 8_192) {
                // Said to grow a block at a time before the end is known.
                asked += 1
                return asked < 40 ? (min(limit, asked * blockBytes), false) : (limit, true)
            }
            let blocks = min(limit, text.count) / blockBytes
            #expect(index.blocks == blocks, "blocks of \(blockBytes) to \(limit)")
            for block in 0...index.blocks {
                let before = text[..<(block * blockBytes)].filter { $0 == 0x0a }.count
                #expect(index.feedsBefore[block] == before, "block \(block) of \(blockBytes)")
            }
            for block in 0..<index.blocks {
                let range = (block * blockBytes)..<((block + 1) * blockBytes)
                #expect(index.lastFeeds[block] == range.last { text[$0] == 0x0a }, "block \(block) of \(blockBytes)")
                let last = text[..<(block * blockBytes)].lastIndex(of: 0x0a)
                #expect(index.lastFeed(before: block) == last, "before block \(block) of \(blockBytes)")
            }
        }
    }
}
