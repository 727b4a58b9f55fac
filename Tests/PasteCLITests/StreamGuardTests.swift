import Foundation
import Testing
import TestSupport

/// Issue 18, item 4: the secret guard on whole streams, end to end on the built `paste`, real
/// libcurl and paste-mock. Piped stdin is scanned as it is sent, past the 8 MiB held in memory:
/// a key at any offset stops the request before it is complete (no paste), exits 77 with one
/// line naming the kind, line and byte offset (never the key), and keeps the whole text in the
/// outbox, held, for `paste --outbox send ID --force`.
@Suite("Secret guard on streams: a key deep in piped stdin stops the upload; the text is held", .temporaryHome, .mock)
struct StreamGuardTests: ScopedSuite {
    static let key = "AKIAY026A4N7VAPKLNWR"

    /// A config with the mock's raw and JSON (streamed: the content once in the template)
    /// services, and multipart as `m`; no retries.
    static func config(_ mock: MockServer) -> String {
        """
        [paste]
        retries = 0
        [service "m"]
        url = \(mock.url("/pastes/create"))
        content-field = paste[body]
        field = paste[authorization]=burger
        [service "raw"]
        url = \(mock.url("/pasters/"))
        format = raw
        result = body
        [service "json"]
        url = \(mock.url("/json"))
        format = json
        json = {"content": "{content}", "title": "{title:untitled}"}
        result = json:/data/url

        """
    }

    /// Lines of 79 `x` and a newline up to byte `offset - 6`, then `key = ` and the key at byte
    /// `offset` (on line `(offset - 6) / 80 + 1`), then `after` bytes of filler (none: the key
    /// ends the stream, with no newline).
    static func text(keyAt offset: Int, after: Int) -> Data {
        var data = Data(capacity: offset + Self.key.utf8.count + after + 1)
        let line = Data(repeating: UInt8(ascii: "x"), count: 79) + Data([0x0A])
        let before = offset - 6
        for _ in 0..<(before / 80) { data.append(line) }
        data.append(Data(repeating: UInt8(ascii: "x"), count: before % 80))
        data.append(Data("key = \(Self.key)".utf8))
        if after > 0 {
            data.append(0x0A)
            for _ in 0..<(after / 80) { data.append(line) }
        }
        return data
    }

    /// The refusal's line for a key at `offset` in a text made by `text(keyAt:after:)`.
    static func refusalLine(offset: Int) -> String {
        "paste: refusing to upload stdin: it looks like it holds an AWS access key id "
            + "(line \((offset - 6) / 80 + 1), byte offset \(offset)); the upload was stopped, nothing was pasted\n"
    }

    /// The line that says where the held text is.
    static func heldLine(_ id: String) -> String {
        "paste: the text is held in the outbox (\(id)): 'paste --outbox send \(id) --force' sends it anyway, "
            + "'paste --outbox drop \(id)' drops it\n"
    }

    /// 20 MiB: past the 8 MiB held start, and the 12 MiB streamed after it more than once round
    /// the tee's eight 1 MiB blocks; nothing in the code differs further in (it was 40 MiB, sent
    /// three times).
    @Test("a key 20 MiB into piped stdin: 77, one line with kind and offset, no paste, held whole; --force sends it")
    func twentyMiB() throws {
        try paste.writeConfig(Self.config(mock))
        let offset = 20 << 20
        let input = Self.text(keyAt: offset, after: 1 << 20)
        let result = try paste.run(["-S", "m", "--no-copy"], input: .bytes(input), timeout: 300)
        #expect(result.status == 77, "stderr: \(result.err)")
        #expect(result.out.isEmpty)
        let id = try #require(try paste.outboxIDs().first)
        #expect(result.err == Self.refusalLine(offset: offset) + Self.heldLine(id))
        #expect(!result.err.contains(Self.key), "the key itself was printed")
        // The request began (20 MiB went out) but never completed: the server made no paste.
        try waitUntil("the mock to log the dropped request") { try mock.requestsInProgress() == 0 }
        #expect(try mock.pastes().isEmpty)
        let posts = try mock.posts()
        #expect(posts.count == 1)
        #expect(posts.allSatisfy { $0.dropped && $0.pasteId == nil })
        // The whole text, byte for byte, held.
        #expect(try paste.outboxStates() == ["held"])
        let kept = try #require(try paste.outboxContents().first)
        #expect(kept.count == input.count)
        #expect(try sha256sum(kept) == (try sha256sum(input)))
        // Sent again, the guard looks again: still held.
        let again = try paste.run(["--outbox", "send", id, "--no-copy"], timeout: 300)
        #expect(again.status == 77, "stderr: \(again.err)")
        #expect(again.err.hasPrefix("paste: refusing to upload outbox entry \(id): it looks like it holds an AWS"))
        #expect(try paste.outboxStates() == ["held"])
        #expect(try mock.pastes().isEmpty)
        // The person decides: --force sends it, byte-exact, and the entry leaves the outbox.
        let forced = try paste.run(["--outbox", "send", id, "--force", "--no-copy"], timeout: 300)
        #expect(forced.status == 0, "stderr: \(forced.err)")
        let pasted = try #require(pasteID(forced.out))
        #expect(try mock.rawPaste(id: pasted) == input)
        #expect(try paste.outboxContents().isEmpty)
    }

    /// Where a key is (its byte offset) and how much text follows it.
    struct KeyPlace: Sendable, CustomTestStringConvertible {
        var offset: Int
        var after: Int
        var testDescription: String { "key at \(offset), \(after) bytes after it" }
    }

    static let cutPlaces: [KeyPlace] = [
        // Straddling the 8 MiB held in memory (scanned up front only in part).
        KeyPlace(offset: 8_388_599, after: 1_048_576),
        // Straddling 64 KiB boundaries (libcurl's buffer, a pipe's) past the held start.
        KeyPlace(offset: 9_502_710, after: 204_800),
        KeyPlace(offset: 10_485_757, after: 204_800),
        // The last bytes of the stream, no newline after it.
        KeyPlace(offset: 9_437_184, after: 0),
    ]

    @Test(
        "a key where the stream's chunks or its held start cut it, or at its very end, is refused", arguments: cutPlaces
    )
    func cutKeys(_ place: KeyPlace) throws {
        try paste.writeConfig(Self.config(mock))
        let input = Self.text(keyAt: place.offset, after: place.after)
        let result = try paste.run(["-S", "m", "--no-copy"], input: .bytes(input), timeout: 120)
        #expect(result.status == 77, "stderr: \(result.err)")
        let id = try #require(try paste.outboxIDs().last)
        #expect(result.err == Self.refusalLine(offset: place.offset) + Self.heldLine(id))
        #expect(try mock.pastes().isEmpty)
        #expect(try paste.outboxContents().last == input)
    }

    @Test(
        "multipart, raw and a streamed JSON body all stop short: no paste on the server",
        arguments: ["m", "raw", "json"])
    func everyStreamingFormat(_ service: String) throws {
        try paste.writeConfig(Self.config(mock))
        let offset = (12 << 20) + 12_345
        let input = Self.text(keyAt: offset, after: 1 << 20)
        let result = try paste.run(["-S", service, "--no-copy"], input: .bytes(input), timeout: 120)
        #expect(result.status == 77, "\(service): \(result.err)")
        #expect(result.err.hasPrefix(Self.refusalLine(offset: offset)), "\(service): \(result.err)")
        try waitUntil("the mock to log the dropped request") { try mock.requestsInProgress() == 0 }
        #expect(try mock.pastes().isEmpty, "\(service): the server made a paste")
        let posts = try mock.posts()
        #expect(posts.count == 1)
        #expect(posts.allSatisfy { $0.dropped && $0.pasteId == nil })
        #expect(try paste.outboxStates() == ["held"])
        #expect(try paste.outboxContents() == [input])
    }

    @Test("a tcp service: exit 77, the connection reset, never the whole text kept; held whole", .mock(tcp: true))
    func tcpService() throws {
        try paste.writeConfig(
            "[paste]\nretries = 0\n[service \"t\"]\nurl = tcp://127.0.0.1:\(mock.tcpPort!)\nformat = tcp\nresult = body\n"
        )
        let offset = (12 << 20) + 777
        let input = Self.text(keyAt: offset, after: 1 << 20)
        let result = try paste.run(["-S", "t", "--no-copy"], input: .bytes(input), timeout: 120)
        #expect(result.status == 77, "stderr: \(result.err)")
        #expect(result.err.hasPrefix(Self.refusalLine(offset: offset)), "\(result.err)")
        #expect(try paste.outboxStates() == ["held"])
        #expect(try paste.outboxContents() == [input])
        // A raw TCP paste has no framing: what a netcat-style server got before the reset may be
        // kept (this mock keeps it, as fiche would), never the whole text.
        try waitUntil("the mock to settle the reset connection") { try mock.requestsInProgress() == 0 }
        #expect(try mock.pastes().allSatisfy { $0.size < input.count })
    }

    @Test("--force streams it whole: no scan, the paste byte-exact, nothing left in the outbox")
    func forceSends() throws {
        try paste.writeConfig(Self.config(mock))
        let input = Self.text(keyAt: 10 << 20, after: 1 << 20)
        let result = try paste.run(["-S", "m", "--force", "--no-copy"], input: .bytes(input), timeout: 120)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.rawPaste(id: try #require(pasteID(result.out))) == input)
        #expect(try paste.outboxContents().isEmpty)
    }

    @Test("clean text past the held start streams as before: the paste is made, byte-exact")
    func cleanStream() throws {
        try paste.writeConfig(Self.config(mock))
        var input = Self.text(keyAt: 10 << 20, after: 1 << 20)
        // The same text with the key's letters changed: no longer a key.
        let range = try #require(input.range(of: Data(Self.key.utf8)))
        input.replaceSubrange(range, with: Data(String(repeating: "k", count: Self.key.count).utf8))
        let result = try paste.run(["-S", "raw", "--no-copy"], input: .bytes(input), timeout: 120)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.pastes().first?.size == input.count)
        #expect(try paste.outboxContents().isEmpty)
    }

    @Test("a form service reads the stream whole first: the guard scans all of it before sending")
    func spooledForm() throws {
        try paste.writeConfig(
            Self.config(mock)
                + "[service \"form\"]\nurl = \(mock.url("/pastes/create"))\nformat = form\ncontent-field = content\n"
                + "result = redirect\n")
        let input = Self.text(keyAt: 9 << 20, after: 4096)
        let result = try paste.run(["-S", "form", "--no-copy"], input: .bytes(input), timeout: 120)
        #expect(result.status == 77, "stderr: \(result.err)")
        #expect(result.err.hasPrefix("paste: refusing to upload: it looks like it holds an AWS access key id"))
        #expect(try mock.requests().isEmpty)
        // A dry run reads it whole the same way, so it refuses what the real run would.
        let dry = try paste.run(["-S", "form", "--no-copy", "-n"], input: .bytes(input), timeout: 120)
        #expect(dry.status == 77, "stderr: \(dry.err)")
        #expect(dry.out.isEmpty)
    }
    @Test("pinnwand (a real server, its JSON API streamed): a key 9 MiB in leaves no paste in its database")
    func pinnwand() throws {
        let python = try RealPastebinTests.venv("python")
        // A size limit far above the stream's (pinnwand counts the highlighted HTML), so only
        // the guard can stop it.
        let (server, database) = try RealPastebinTests.startPinnwand(in: paste.home, pasteSize: 268_435_456)
        defer { server.stop() }
        try paste.writeConfig("[service \"pinnwand\"]\n    base = bpa.st\n    url = \(server.baseURL)/api/v1/paste\n")
        /// How many pastes pinnwand's database holds.
        func pasteCount() throws -> String {
            let query =
                "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from paste').fetchone()[0])"
            return try runProcess(python, ["-c", query, database]).out.trimmingCharacters(in: .newlines)
        }
        let offset = (8 << 20) + (512 << 10)
        let input = Self.text(keyAt: offset, after: 64 << 10)
        let result = try paste.run(["-S", "pinnwand", "--no-copy"], input: .bytes(input), timeout: 120)
        #expect(result.status == 77, "stderr: \(result.err)\nserver: \(server.log)")
        #expect(result.err.hasPrefix(Self.refusalLine(offset: offset)), "\(result.err)")
        #expect(try paste.outboxStates() == ["held"])
        // The database exists (pinnwand made its tables at start-up) and holds no paste; a
        // small clean text then makes one, so the count is the server's own.
        #expect(try pasteCount() == "0")
        let clean = try paste.run(["-S", "pinnwand", "--no-copy"], stdin: "no secret here\n")
        #expect(clean.status == 0, "stderr: \(clean.err)\nserver: \(server.log)")
        #expect(try pasteCount() == "1")
    }
}
