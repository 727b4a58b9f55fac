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
        "the line placer gives the same lines and columns however the text is cut, and puts findings past its end at the end"
    )
    func linePlacerChunks() throws {
        let text = Array("ab\ncdé\n\nfg ✓ hi\nlast".utf8)
        let offsets = [0, 4, 9, 15, text.count - 1]
        let unplaced = offsets.map {
            SecretFinding(pattern: .gitHubToken, offset: $0, line: 0, column: 0, excerpt: "ghp_…")
        }
        let whole = SecretLinePlacer.place(unplaced, in: text.span)
        #expect(whole.map(\.line) == [1, 2, 4, 4, 5])
        #expect(whole.map(\.column) == [1, 2, 1, 5, 4])
        for cut in 1..<text.count {
            let (head, rest) = (Array(text[..<cut]), Array(text[cut...]))
            var placer = SecretLinePlacer(unplaced)
            placer.feed(head.span)
            placer.feed(rest.span)
            #expect(placer.finish() == whole, "cut at \(cut)")
        }
        let start = Array(text[..<8])
        var short = SecretLinePlacer(unplaced)
        short.feed(start.span)
        #expect(short.finish().suffix(3).map(\.line) == [3, 3, 3], "past the end: at the end of what was fed")
    }
}
