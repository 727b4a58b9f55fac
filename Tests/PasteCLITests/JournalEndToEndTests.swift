import Foundation
import Testing
import TestSupport

/// The outbox as a journal, end to end on the built `paste`: piped text is in the outbox before
/// its request starts; Ctrl-C, SIGTERM, SIGHUP and kill -9 in the middle of an upload leave it
/// there byte for byte (or, for a stream cut before its end, nothing at all), and the next run
/// sends it once; nothing the server may have made is sent again by itself.
@Suite("The outbox as a journal: interrupted uploads", .temporaryHome, .mock)
struct JournalEndToEndTests: ScopedSuite {
    /// A config with the mock as service `m`, no in-run retries.
    static func config(_ mock: MockServer) -> String { pastieConfig(mock) }

    /// Text of about `count` bytes (a few more at most): lines of ASCII and some UTF-8, valid
    /// UTF-8 with no NUL (it is text).
    ///
    /// Above 250 kB, a block of 250 kB of whole lines is drawn once and repeated, and the rest
    /// drawn: a draw per character took seconds of a debug build's CPU for 7 and 9 MB. The
    /// block's length divides none of the powers of two the bytes pass in (pipes, libcurl's
    /// buffer, the tee's 1 MiB blocks), so a piece lost or written twice still shows.
    static func text(_ count: Int, seed: UInt64) -> Data {
        let alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 \u{e9}\u{65e5}".map { Array(String($0).utf8) }
        var random = SeededRandom(seed: seed)
        /// Lines of 79 characters and a line feed, at least `target` bytes; with `wholeLines`,
        /// up to the end of the last line.
        func lines(_ target: Int, wholeLines: Bool) -> [UInt8] {
            var bytes = [UInt8]()
            bytes.reserveCapacity(target + 240)
            var column = 0
            while bytes.count < target || (wholeLines && column != 0) {
                if column == 79 {
                    bytes.append(0x0A)
                    column = 0
                } else {
                    bytes += alphabet[Int(random.next() % UInt64(alphabet.count))]
                    column += 1
                }
            }
            return bytes
        }
        let blockSize = 250_000
        guard count > blockSize else { return Data(lines(count, wholeLines: false)) }
        let block = Data(lines(blockSize, wholeLines: true))
        var data = Data(capacity: count + 4)
        while data.count + block.count <= count { data.append(block) }
        if data.count < count { data.append(contentsOf: lines(count - data.count, wholeLines: false)) }
        return data
    }

    /// What the interrupted line says of a text kept in entry `id`.
    static func interruptedLine(id: String, isHeld: Bool) -> String {
        isHeld
            ? "paste: interrupted; the text is held in the outbox (\(id)): the paste may have been made; "
                + "'paste --outbox send \(id)' sends it anyway\n"
            : "paste: interrupted; the text waits in the outbox (\(id)); 'paste --retry' sends it\n"
    }

    @Test("piped text is in the outbox, in flight, while its request is under way; gone once its URL is recorded")
    func writtenBeforeSending() throws {
        try paste.writeConfig(Self.config(mock))
        try mock.addFault(.delay(seconds: 1), count: 1, path: "/pastes/create")
        let text = Data("journal me\n".utf8)
        let run = try RunningPaste(paste, ["-S", "m"], stdin: text)
        try waitUntil("the entry to be in flight") { paste.outboxStatesOnDisk() == ["in-flight"] }
        #expect(try paste.outboxContents() == [text])
        let result = try run.finish()
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(paste.outboxFiles().isEmpty)
        #expect(try mock.pastes(holding: text).count == 1)
    }

    @Test("Ctrl-C while the body is still going out: 130, one line, retryable, and --retry sends it once")
    func interruptMidBody() throws {
        try paste.writeConfig(Self.config(mock))
        // 7 MB (whole in memory) read by the server 64 KiB a second: the body is still going
        // out when the signal comes.
        try mock.addFault(.slowRead(bytes: 16 << 10, seconds: 0.25), count: 1, path: "/pastes/create")
        let text = Self.text(7_000_000, seed: 1)
        let run = try RunningPaste(paste, ["-S", "m", "-v"], stdin: text)
        // The request's head is out (-v shows it): the body is going out, slowly.
        try waitUntil("the request to start") { run.err.contains("paste: > POST ") }
        #expect(paste.outboxStatesOnDisk() == ["in-flight"])
        run.send(SIGINT)
        let result = try run.finish()
        #expect(result.status == 130)
        let id = try #require(try paste.outboxIDs().first)
        #expect(result.err.hasSuffix(Self.interruptedLine(id: id, isHeld: false)))
        #expect(try paste.outboxStates() == ["retryable"])
        #expect(try paste.outboxContents() == [text])
        #expect(try mock.pastes().isEmpty)

        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(try mock.pastes(holding: text).count == 1)
        #expect(try mock.pastes().count == 1)
        #expect(paste.outboxFiles().isEmpty)
        #expect(try paste.run(["--retry"]).out.isEmpty)
        #expect(try mock.pastes().count == 1)
    }

    @Test("SIGTERM once the body went out: 143, held (the paste may exist), and --retry never sends it")
    func terminateWhileWaiting() throws {
        try paste.writeConfig(Self.config(mock))
        try mock.addFault(.delay(seconds: 2), count: 1, path: "/pastes/create")
        let text = Self.text(300_000, seed: 2)
        let run = try RunningPaste(paste, ["-S", "m", "-v"], stdin: text)
        // libcurl's own word that the whole body is out (-v shows its notes).
        try waitUntil("the body to be sent") { run.err.contains("completely uploaded") }
        run.send(SIGTERM)
        let result = try run.finish()
        #expect(result.status == 143)
        let id = try #require(try paste.outboxIDs().first)
        #expect(result.err.hasSuffix(Self.interruptedLine(id: id, isHeld: true)))
        #expect(try paste.outboxStates() == ["held"])
        #expect(try paste.outboxContents() == [text])

        // The server made it (after its delay); --retry leaves the held entry alone.
        try waitUntil("the mock to store the paste") { try !mock.pastes().isEmpty }
        for _ in 0..<2 {
            let retry = try paste.run(["--retry", "--quiet"])
            #expect(retry.status == 0, "stderr: \(retry.err)")
            #expect(retry.out.isEmpty)
        }
        #expect(try mock.pastes(holding: text).count == 1)
        #expect(try mock.posts().count == 1)
    }

    @Test("a SIGHUP the caller ignores (nohup) stays ignored: the upload goes on and the paste is made")
    func ignoredHangUp() throws {
        try paste.writeConfig(Self.config(mock))
        try mock.addFault(.delay(seconds: 1), count: 1, path: "/pastes/create")
        let text = Data("started under nohup\n".utf8)
        let run = try RunningPaste(paste, ["-S", "m", "--no-copy"], stdin: text, ignoring: ["HUP"])
        try waitUntil("the entry to be in flight") { paste.outboxStatesOnDisk() == ["in-flight"] }
        run.send(SIGHUP)
        let result = try run.finish()
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.pastes(holding: text).count == 1)
        #expect(paste.outboxFiles().isEmpty)
    }

    @Test("SIGHUP cuts a stream short: 129, one line, and nothing left in the outbox")
    func hangUpCutsStreamShort() throws {
        try paste.writeConfig(Self.config(mock))
        // More than the 8 MiB held in memory: stdin streams, and the pipe stays open.
        let start = Self.text(9 << 20, seed: 3)
        let run = try RunningPaste(paste, ["-S", "m"], streaming: start)
        try waitUntil("the stream to be teed", timeout: 60) {
            let teed = try paste.outboxContents().first?.count ?? 0
            return paste.outboxStatesOnDisk() == ["in-flight"] && teed >= 9 << 20
        }
        run.send(SIGHUP)
        let result = try run.finish()
        #expect(result.status == 129)
        #expect(
            result.err == "paste: interrupted; the piped text was cut short before its end, so none of it was kept\n")
        #expect(paste.outboxFiles().isEmpty)
        #expect(try mock.pastes().isEmpty)
    }

    @Test("a stream whose end was read, then SIGINT while the answer is awaited: whole in the outbox, held")
    func streamWholeThenInterrupted() throws {
        try paste.writeConfig(Self.config(mock))
        try mock.addFault(.delay(seconds: 2), count: 1, path: "/pastes/create")
        let text = Self.text(9 << 20, seed: 4)
        let run = try RunningPaste(paste, ["-S", "m"], streaming: text, closing: true)
        // The end was read: the entry's length is recorded (finishContent at the stream's end).
        try waitUntil("the stream's end to be recorded", timeout: 60) {
            paste.outboxMetadata().first?["bytes"] as? Int == text.count
        }
        run.send(SIGINT)
        let result = try run.finish()
        #expect(result.status == 130)
        let id = try #require(try paste.outboxIDs().first)
        #expect(result.err == Self.interruptedLine(id: id, isHeld: true))
        #expect(try paste.outboxContents() == [text])
        let sha = try #require(paste.outboxMetadata().first?["sha256"] as? String)
        #expect(sha.count == 64)
    }

    @Test("kill -9 while the body goes out: byte-exact, held by the next run, sent once when the person says")
    func killedMidBody() throws {
        try paste.writeConfig(Self.config(mock))
        try mock.addFault(.slowRead(bytes: 16 << 10, seconds: 0.25), count: 1, path: "/pastes/create")
        let text = Self.text(7_000_000, seed: 5)
        let run = try RunningPaste(paste, ["-S", "m", "-v"], stdin: text)
        try waitUntil("the request to start") { run.err.contains("paste: > POST ") }
        #expect(paste.outboxStatesOnDisk() == ["in-flight"])
        run.send(SIGKILL)
        #expect(try run.finish().status == 128 + SIGKILL)
        #expect(try paste.outboxContents() == [text])

        // In flight when its run died: the server may have it, so the next run holds it.
        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(retry.out.isEmpty)
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            retry.err.hasPrefix(
                "paste: outbox entry \(id) is held: its run ended while sending it and the paste may have been made; "
                    + "'paste --outbox send \(id)' sends it anyway\n"))
        #expect(try paste.outboxStates() == ["held"])
        let send = try paste.run(["--outbox", "send", id])
        #expect(send.status == 0, "stderr: \(send.err)")
        #expect(try mock.pastes(holding: text).count == 1)
        #expect(try mock.pastes().count == 1)
        #expect(paste.outboxFiles().isEmpty)
    }
}
