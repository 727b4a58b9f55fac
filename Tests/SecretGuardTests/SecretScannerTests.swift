import Foundation
import Testing

import PasteCore
@testable import SecretGuard
import SecretScanInterop

/// The incremental scanner, the table it is derived from, and the formats' edges.
@Suite("Secret scanner: chunks, table, formats")
struct SecretScannerTests {
    static let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"

    static func scanInChunks(_ text: [UInt8], size: Int) -> [SecretFinding] {
        var scanner = SecretScanner()
        var offset = 0
        while offset < text.count {
            let end = min(text.count, offset + size)
            scanner.feed(Array(text[offset..<end]))
            offset = end
        }
        return scanner.finish()
    }

    // MARK: - Chunks

    /// Lines of ordinary text, `count` bytes or a little more.
    static func filler(_ count: Int) -> [UInt8] {
        let line = Array("an ordinary line of text — nothing secret here, just words\n".utf8)
        var text: [UInt8] = []
        while text.count < count { text += line }
        return text
    }

    @Test(
        "every fixture, deep in a stream and fed in chunks, gives the findings of the whole text",
        arguments: SecretGuardTests.secretFiles + SecretGuardTests.cleanFiles)
    func chunksMatchWhole(_ path: String) throws {
        // More filler on each side than the scanner keeps, so its seams are crossed.
        let padding = Self.filler(SecretScanner.kept + 1000)
        let text = padding + Array(try Data(contentsOf: URL(fileURLWithPath: path))) + padding
        let whole = SecretGuard().scan(text)
        for size in [4093, 64 << 10] {
            #expect(Self.scanInChunks(text, size: size) == whole, "\(path), chunks of \(size)")
        }
        // Small inputs are looked at when they end: byte by byte then.
        let small = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Self.scanInChunks(small, size: 1) == SecretGuard().scan(small), "\(path), byte by byte")
    }

    @Test("a token split between two chunks at any offset is found once, at its offset, line and column")
    func splitAnywhere() {
        let before = Self.filler(12_000)
        let text =
            before + Array("line one\n\u{1b}[32mé, my_\(Self.token)\u{1b}[0m and more\n".utf8) + Self.filler(12_000)
        let lines = before.filter { $0 == 0x0a }.count
        let offset = before.count + 21
        let expected = [
            SecretFinding(pattern: .gitHubToken, offset: offset, line: lines + 2, column: 12, excerpt: "ghp_…YC")
        ]
        #expect(SecretGuard().scan(text) == expected)
        // Every split near the token, and near the edges of the scanner's reach around it.
        var splits = Set(0...text.count).filter { abs($0 - offset) < 64 }
        for edge in [offset - SecretScanner.lookahead, offset + SecretScanner.lookbehind, offset + SecretScanner.kept] {
            splits.formUnion((edge - 16)...(edge + 16))
        }
        for split in splits.sorted() where split >= 0 && split <= text.count {
            var scanner = SecretScanner()
            scanner.feed(Array(text[..<split]))
            scanner.feed(Array(text[split...]))
            #expect(scanner.finish() == expected, "split at \(split)")
        }
    }

    @Test("offsets and lines count from the start of the stream, across many chunks")
    func streamPositions() {
        let line = Array("an ordinary log line with nothing secret in it at all\n".utf8)
        var text: [UInt8] = []
        for _ in 0..<2000 { text += line }
        let before = text.count
        text += Array("deploy: AKIAY026A4N7VAPKLNWR\n".utf8)
        for _ in 0..<2000 { text += line }
        let findings = Self.scanInChunks(text, size: 4096)
        #expect(findings.map(\.offset) == [before + 8])
        #expect(findings.map(\.line) == [2001])
        #expect(findings.map(\.column) == [9])
    }

    @Test("lines and columns match a byte-by-byte count, for any range and any run of line feeds or accents")
    func lineCounter() {
        // Runs long enough to fill the vector counters (63 steps of 64 bytes) and their tails.
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [[0x0a], Array("é".utf8), Array("€".utf8), [0x61], Array("a\nb".utf8)]
        var mixed: [UInt8] = []
        while mixed.count < 20_000 { mixed += pieces.randomElement(using: &generator)! }
        let texts = [
            mixed, [UInt8](repeating: 0x0a, count: 9000), Array(String(repeating: "é", count: 9000).utf8),
            [UInt8](repeating: 0x61, count: 9000),
        ]
        for text in texts {
            for _ in 0..<40 {
                let from = Int.random(in: 0...text.count, using: &generator)
                let to = Int.random(in: from...text.count, using: &generator)
                var counter = SecretLineCounter()
                counter.advance(over: text.span, from: 0, to: from)
                counter.advance(over: text.span, from: from, to: to)
                var line = 1
                var column = 1
                for byte in text[..<to] {
                    if byte == 0x0a {
                        line += 1
                        column = 1
                    } else if byte & 0xc0 != 0x80 {
                        column += 1
                    }
                }
                #expect(
                    counter.line == line && counter.column == column && counter.position == to,
                    "0..<\(from)..<\(to)")
            }
        }
    }

    @Test("the line-feed count's kernels each match a byte-by-byte count, at every alignment and tail length")
    func lineFeedKernels() {
        // Line feeds in runs, alone and not at all: every 64-byte step with none, one and all.
        var random = SplitMix(seed: 12)
        var text = [UInt8](repeating: 0x61, count: 3000)
        for index in text.indices where random.next() % 17 == 0 { text[index] = 0x0a }
        for index in 1000..<1200 { text[index] = 0x0a }
        for index in 1200..<1500 { text[index] = 0x62 }
        // The byte-by-byte answer for every range: line feeds before each offset, and the last one.
        var before = [0]
        var lastBefore: [Int?] = [nil]
        for (index, byte) in text.enumerated() {
            before.append(before[index] + (byte == 0x0a ? 1 : 0))
            lastBefore.append(byte == 0x0a ? index : lastBefore[index])
        }
        let kernels = LineFeeds.Kernel.allCases.filter(\.runsHere)
        #expect(kernels.contains(.portable) && kernels.contains(.fastest))
        for kernel in kernels {
            for from in 0..<70 {
                for to in Swift.stride(from: from, through: text.count, by: 13) {
                    let counted = LineFeeds.count(in: text.span, from: from, to: to, kernel: kernel)
                    let last = lastBefore[to].flatMap { $0 >= from ? $0 : nil }
                    #expect(
                        counted.count == before[to] - before[from] && counted.last == last,
                        "\(kernel) \(from)..<\(to)")
                }
            }
        }
    }

    @Test("a key row's names: the longest that ends the key wins, a short one only as a word of its own")
    func matchingKeys() {
        let keys = SecretRule.KeyList([Array("token".utf8), Array("authtoken".utf8), Array("pass".utf8)])
        func longest(_ key: String) -> Int {
            let bytes = Array(key.utf8)
            return SecretRule.matchingKey(keys, in: bytes.span, 0, bytes.count)
        }
        #expect(longest("AUTH_TOKEN") == 9)
        #expect(longest("auth-token") == 9)
        #expect(longest("api_token") == 5)
        #expect(longest("apiToken") == 5)
        #expect(longest("sometoken") == 0)
        #expect(longest("DB_PASS") == 4)
        #expect(longest("bypass") == 0)
        #expect(longest("password") == 0)
    }

    @Test("memory stays bounded: a key 12 MiB into a stream is found, the scanner keeps 9 KiB")
    func boundedMemory() {
        let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        var scanner = SecretScanner()
        for _ in 0..<12 {
            scanner.feed(filler)
            #expect(scanner.tail.count <= SecretScanner.kept)
            #expect(scanner.tail.capacity <= 4 * SecretScanner.kept)
        }
        scanner.feed(Array(" \(Self.token) ".utf8))
        scanner.feed(filler)
        #expect(scanner.hasFindings, "seen once the lookahead has arrived, before finish")
        let findings = scanner.finish()
        #expect(findings.map(\.pattern) == [.gitHubToken])
        #expect(findings.first?.offset == (12 << 20) + 1)
        #expect(scanner.bytesScanned == (13 << 20) + Self.token.utf8.count + 2)
    }

    @Test("small chunks (a pipe's 4 KiB) keep the memory bound and find what the whole text has")
    func smallChunks() {
        var text = Self.filler(1 << 20)
        let offset = text.count + 4
        text += Array("key \(Self.token)\n".utf8) + Self.filler(100_000)
        var scanner = SecretScanner()
        var position = 0
        while position < text.count {
            let end = min(text.count, position + 4096)
            scanner.feed(Array(text[position..<end]))
            #expect(scanner.tail.count < 2 * SecretScanner.kept + 4096)
            position = end
        }
        #expect(scanner.finish().map(\.offset) == [offset])
        #expect(SecretGuard().scan(text).map(\.offset) == [offset])
    }

    @Test("the scanner is a value that may move to another thread: chunks in, findings out")
    func otherThread() async {
        let chunks: [[UInt8]] = [Array("password = \"s3cr3t!Pw".utf8), Array("\"\nnothing\n".utf8)]
        let findings = await Task.detached {
            var scanner = SecretScanner()
            for chunk in chunks { scanner.feed(chunk) }
            return scanner.finish()
        }.value
        #expect(findings.map(\.pattern) == [.passwordAssignment])
    }

    @Test("findings stop at the cap, and feeding more costs nothing then")
    func cap() {
        var scanner = SecretScanner(maximumFindings: 2)
        for _ in 0..<5 { scanner.feed(Array("\(Self.token)\n".utf8)) }
        #expect(scanner.finish().count == 2)
    }

    // MARK: - The table

    @Test("the prefilter is derived from the table: every trigger's chosen pair leads to it")
    func prefilterFromTable() {
        let prefilter = SecretPrefilter.shared
        #expect(prefilter.entries.count == SecretRule.table.reduce(0) { $0 + $1.triggers.count })
        for (index, entry) in prefilter.entries.enumerated() {
            let literal = prefilter.literal(of: entry)
            let spellings = SecretPrefilter.spellings(
                of: literal[entry.pairOffset], literal[entry.pairOffset + 1], ignoringCase: entry.ignoresCase)
            for spelling in 0..<spellings.count {
                let group = Int(prefilter.groups[spellings[spelling]])
                #expect(group != 0)
                #expect(
                    prefilter.members[prefilter.memberStarts[group]..<prefilter.memberStarts[group + 1]].contains(index)
                )
            }
        }
        for pattern in SecretPattern.allCases {
            #expect(SecretRule.table.contains { $0.pattern == pattern }, "\(pattern) has no row")
        }
    }

    @Test("a key-and-value row is looked at wherever the last word of one of its keys occurs")
    func assignmentTriggers() {
        let rule = SecretRule.assignment(
            .secretAssignment, keys: ["api_key", "client_secret"], value: .plausible(minimumLength: 8))
        #expect(rule.triggers == ["key", "secret"])
        #expect(rule.ignoresCase)
    }

    // MARK: - Formats

    @Test("a GitHub token is reported only with a valid CRC32 tail")
    func gitHubChecksum() {
        #expect(SecretGuard().scan(Array("t \(Self.token)\n".utf8)).map(\.pattern) == [.gitHubToken])
        let broken = String(Self.token.dropLast()) + "D"
        #expect(SecretGuard().scan(Array("t \(broken)\n".utf8)).isEmpty)
    }

    @Test(
        "a token is still found after an escape sequence, in quotes, glued by _ or -, by CR, in a URL, in JSON",
        arguments: [
            "\u{1b}[32m\(token)\u{1b}[0m", "\"\(token)\"", "'\(token)'", "my_\(token)", "build-\(token)",
            "progress 40%\r\(token)\r\n", "https://example.com/?t=\(token)&x=1", "{\"a\":\"x\\n\(token)\"}",
            "token%3D\(token)", "`\(token)`",
        ])
    func boundaries(_ text: String) {
        #expect(SecretGuard().scan(Array(text.utf8)).map(\.pattern) == [.gitHubToken], "\(text.debugDescription)")
    }

    @Test(
        "a token inside a longer word or run is not one",
        arguments: ["x\(token)", "\(token)x", "AKIAY026A4N7VAPKLNWRX", "AKIAIOSFODNN7EXAMPLE"])
    func notAToken(_ text: String) {
        #expect(SecretGuard().scan(Array(text.utf8)).isEmpty, "\(text)")
    }

    @Test(
        "placeholders and references are not secrets",
        arguments: [
            "password = \"$DB_PASSWORD\"", "password: ${DB_PASSWORD}", "password=<password>", "api_key = %API_KEY%",
            "token: {{ secrets.TOKEN }}", "password = os.environ[\"PW\"]", "secret_key = settings.secret_key_v2",
            "Authorization: Bearer $TOKEN", "Authorization: Basic dXNlcjpwYXNz", "https://user:pass@example.com",
            "password = 'changeme123'", "A bearer token: base64url segments", "the password is in the vault",
        ])
    func placeholders(_ text: String) {
        #expect(SecretGuard().scan(Array(text.utf8)).isEmpty, "\(text)")
    }

    @Test("a Discord token's first part must be the base64 of a user id")
    func discordUserID() {
        let id = Data("123456789012345678".utf8).base64EncodedString()
        #expect(
            SecretGuard().scan(Array("bot \(id).GhI2Kl.abcdefghijklmnopqrstuvwxyz0".utf8)).map(\.pattern)
                == [.discordBotToken])
        #expect(
            SecretGuard().scan(Array("bot MTIzNDU2Nzg5YWJjZGVmZ2hp.GhI2Kl.abcdefghijklmnopqrstuvwxyz0".utf8)).isEmpty)
    }

    @Test("a password value may start with a symbol")
    func symbolFirst() {
        #expect(SecretGuard().scan(Array("password = '%hlpWhx65f8v'".utf8)).map(\.pattern) == [.passwordAssignment])
    }
}
