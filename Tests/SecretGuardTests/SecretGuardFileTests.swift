import Foundation
import Testing
import TestSupport

import PasteCore
@testable import SecretGuard

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

    @Test(
        "lines and columns carried with the search: across vector blocks and chunks, after many line feeds, in CRLF text, at 1:1"
    )
    func linesCarriedWithTheSearch() throws {
        let token = Array(("ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC").utf8)
        var text: [UInt8] = []
        var planted: [Int] = []
        func plant() {
            planted.append(text.count)
            text += token
        }
        // Line 1, column 1.
        plant()
        text += Array(" first\n".utf8)
        // Short lines over many of the kernels' 1024-position blocks, then one after them.
        text += Array(String(repeating: "short line\n", count: 3_000).utf8)
        text += Array("after blocks ".utf8)
        plant()
        text += Array("\n".utf8)
        // CRLF lines, wide characters, and a token mid-line and at a line's start.
        text += Array(String(repeating: "ligne déjà ✓\r\n", count: 2_000).utf8)
        text += Array("déjà ✓ ".utf8)
        plant()
        text += Array("\r\n".utf8)
        plant()
        text += Array("\r\n".utf8)
        // Right after a run of many line feeds (more than a block of them).
        text += [UInt8](repeating: 0x0a, count: 5_000)
        plant()
        text += Array("\n".utf8)
        // At the end of a line longer than the scanner keeps, which starts chunks before it.
        text += Array(String(repeating: "é words without end ", count: 3_000).utf8)
        plant()
        text += Array("\n".utf8)
        // Past 256 KiB (the vector kernels run), a line starting just before a 256 KiB chunk's end.
        text += Array(String(repeating: "a log line of some length, nothing in it\n", count: 6_000).utf8)
        let edge = 2 * SecretGuard.fileChunkBytes - 10
        text += Array(String(repeating: "x", count: max(0, edge - text.count) % 41).utf8) + Array("\n".utf8)
        text += Array("  ".utf8)
        plant()
        text += Array(" last\n".utf8)
        let expected = planted.map { Self.naivePlace(text, $0) }
        #expect(expected.first! == (1, 1))

        let whole = SecretGuard().scan(text)
        #expect(whole.map(\.offset) == planted, "\(whole)")
        #expect(whole.map(\.line) == expected.map(\.line))
        #expect(whole.map(\.column) == expected.map(\.column))
        for size in [4_096, 9_216, 65_536, SecretGuard.fileChunkBytes, text.count] {
            var scanner = SecretGuard().makeScanner()
            var start = 0
            while start < text.count {
                scanner.feed(Array(text[start..<min(start + size, text.count)]).span)
                start += size
            }
            #expect(SecretGuard().findings(of: scanner) == whole, "chunks of \(size)")
        }
        let path = try home.write(String(decoding: text, as: UTF8.self), to: "lines.txt")
        #expect(try #require(SecretGuard().scan(filePath: path)) == whole)
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

    @Test("a scanner fed in chunks gives the whole text's lines, columns and offsets")
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
            var scanner = SecretGuard().makeScanner()
            var start = 0
            while start < text.count {
                let chunk = Array(text[start..<min(start + size, text.count)])
                scanner.feed(chunk.span)
                start += size
            }
            #expect(SecretGuard().findings(of: scanner) == whole, "chunks of \(size)")
        }
    }
}
