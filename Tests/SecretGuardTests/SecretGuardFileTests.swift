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
}
