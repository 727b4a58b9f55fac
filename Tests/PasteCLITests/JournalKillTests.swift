import Foundation
import PasteCore
import Stores
import Testing
import TestSupport

/// The outbox journal with `paste` itself killed at random moments (TestSupport's KillHarness:
/// seeded and bounded; `PASTE_KILL_SEED` replays a failing run), and with many `--retry` runs at
/// once: no text is ever pasted twice, what is kept is byte-exact, nothing the server may have
/// made is left retryable, and the history is never corrupt.
@Suite("The outbox journal under random kills", .temporaryHome, .mock, .serialized, .tags(.slow))
struct JournalKillTests: ScopedSuite {
    static func config(_ mock: MockServer) -> String { pastieConfig(mock) }

    /// `paste ARGUMENTS…` with stdin from `file`, through `sh -c 'exec …'`: the signal reaches
    /// paste itself, and its stdin is a regular file (read like a pipe).
    func command(_ arguments: [String], stdin file: String) -> (String, [String], [String: String]?) {
        var environment = paste.environment
        environment["PASTE_TEST_STDIN"] = file
        return (
            "/bin/sh",
            ["-c", "exec \"$0\" \"$@\" < \"$PASTE_TEST_STDIN\"", BuiltProducts.path(of: "paste")] + arguments,
            environment
        )
    }

    /// Every stored paste's content, by text.
    func pastedCounts() throws -> [Data: Int] {
        var counts: [Data: Int] = [:]
        for paste in try mock.pastes() {
            let content = try paste.data ?? mock.rawPaste(id: paste.id)
            counts[content, default: 0] += 1
        }
        return counts
    }

    /// What the outbox holds, as (content, state) pairs, read from its files. An entry removed
    /// while it is read (a sender made its paste meanwhile) is left out.
    func outboxEntries() throws -> [(content: Data, state: String)] {
        let folder = paste.outboxFolder
        return try paste.outboxFiles().filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.compactMap { name in
            let metadataURL = folder.appendingPathComponent(name)
            let contentURL = folder.appendingPathComponent(name.dropLast(5) + ".content")
            guard let metadataBytes = FileManager.default.contents(atPath: metadataURL.path) else { return nil }
            let metadata = try JSONSerialization.jsonObject(with: metadataBytes)
            guard let content = FileManager.default.contents(atPath: contentURL.path) else { return nil }
            return (content, (metadata as? [String: Any])?["state"] as? String ?? "?")
        }
    }

    /// Every line of the history is a whole JSON object.
    func expectWholeHistory() throws {
        for line in try paste.historyLines() {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "corrupt: \(line)")
        }
    }

    @Test(
        "kill -9, SIGINT and SIGTERM at random moments of piped uploads: never twice, kept byte-exact, then sent once")
    func randomKillsOfUploads() throws {
        try paste.writeConfig(Self.config(mock))
        // A little wait before each answer widens the moments after the body went out.
        try mock.addFault(.delay(seconds: 0.03), count: 0, path: "/pastes/create")
        let harness = KillHarness(
            seed: 0x15_0002, runs: 30, timeLimit: 120, maximumExtraDelay: 0.12, signals: [SIGKILL, SIGINT, SIGTERM],
            processTimeout: 60)
        var texts: [Int: Data] = [:]
        let outcomes = try harness.run(
            maximumLines: { _ in 0 },
            command: { run in
                let text =
                    Data("run \(run.index) seed \(run.seed)\n".utf8)
                    + JournalEndToEndTests.text(Int(run.seed % 200_000) + 1, seed: run.seed)
                texts[run.index] = text
                let file = try paste.home.write(String(decoding: text, as: UTF8.self), to: "stdin-\(run.index)")
                return command(["-S", "m", "--new", "--no-copy"], stdin: file)
            },
            check: { _ in })
        #expect(outcomes.count >= 10, "the harness ran out of time after \(outcomes.count) runs")
        // (A later run's good paste sent what waited in the background: a kept text may be
        // pasted already, once.)
        try waitForBackgroundFlushes()

        // What the kills left, before anything is sent again: never a second paste, never a
        // retryable entry for a text the server has, every entry byte-exact.
        let (pastedBefore, before) = try whereTextsAre()
        var pasted = pastedBefore
        for (content, state) in before {
            #expect(texts.values.contains(content), "an entry is not any run's text, byte for byte")
            #expect(!(state == "retryable" && pasted[content, default: 0] > 0), "a made paste left retryable")
        }
        // The next --retry settles what the dead runs left (in flight: held) and sends the rest.
        let retry = try paste.run(["--retry", "--no-copy"])
        #expect(retry.status == 0 || retry.status == 69, "stderr: \(retry.err)")
        try waitForBackgroundFlushes()
        let after = try whereTextsAre()
        pasted = after.pasted
        let entries = after.entries
        #expect(!entries.contains { $0.state == "retryable" }, "--retry left a retryable entry")
        var lost = 0
        for outcome in outcomes {
            let text = try #require(texts[outcome.run.index])
            let times = pasted[text, default: 0]
            let kept = entries.filter { $0.content == text }.count
            #expect(times <= 1, "\(outcome.run): pasted \(times) times")
            #expect(kept <= 1, "\(outcome.run): kept \(kept) times")
            if !outcome.wasKilled { #expect(times + kept == 1, "\(outcome.run) finished: its text is nowhere") }
            if times + kept == 0 { lost += 1 }
            // A run that said where the text is left it there (before --retry sent it, or the
            // background flush after a later run's good paste did).
            if outcome.stderr.contains("paste: interrupted; the text ") {
                #expect(
                    before.contains { $0.content == text } || pastedBefore[text, default: 0] == 1,
                    "\(outcome.run) said its text was kept: \(outcome.stderr)")
            }
            // Caught signals end with the run's own status and one line saying where the text is.
            if outcome.wasKilled, outcome.run.signal != SIGKILL, outcome.status != 128 + outcome.run.signal {
                Issue.record("\(outcome.run): status \(outcome.status)")
            }
        }
        // A run killed before it read its stdin has nothing to keep; most were killed later.
        #expect(lost < outcomes.count / 2, "\(lost) of \(outcomes.count) texts are nowhere")
        try expectNoTemporaryLeft()
        try expectWholeHistory()
    }

    /// No temporary file survives a recovery pass: once every background flush is over, one
    /// `paste --outbox` leaves none, whatever the kills left (a killed writer's temporary goes
    /// with its entry's next claim or pass, `Outbox.removeDeadWritersTemporaries`).
    func expectNoTemporaryLeft() throws {
        try waitForBackgroundFlushes()
        let listing = try paste.run(["--outbox"])
        #expect(listing.status == 0, "stderr: \(listing.err)")
        let temporaries = paste.outboxFiles().filter { $0.contains(".tmp") }
        #expect(temporaries.isEmpty, "temporary files left in the outbox after a recovery pass: \(temporaries)")
    }

    /// About `count` bytes of lines of plain words (nothing the secret guard stops), headed by
    /// the run: every run's text is its own.
    static func words(_ count: Int, run: KillHarness.Run) -> Data {
        let words = ["paste", "outbox", "journal", "kill", "text", "read", "whole", "bytes", "first", "metadata"]
        var random = SeededRandom(seed: run.seed)
        var text = "run \(run.index) seed \(run.seed)\n"
        while text.utf8.count < count {
            text += words[Int(random.next() % UInt64(words.count))] + (random.next() % 8 == 0 ? "\n" : " ")
        }
        return Data(text.utf8)
    }

    /// How long a whole `paste -S m --new --no-copy` of a few KiB takes here, in seconds: the
    /// middle of five runs, from the spawn to the exit, at most 30 ms. Their texts are none of
    /// the killed runs'.
    static func runLength(of paste: PasteRunner) throws -> Double {
        var lengths: [Double] = []
        for index in 0..<5 {
            let lines = String(repeating: "paste outbox journal kill\n", count: 160)
            let text = Data("calibration \(index)\n\(lines)".utf8)
            let clock = ContinuousClock()
            let start = clock.now
            let result = try paste.run(["-S", "m", "--new", "--no-copy"], input: .bytes(text))
            let elapsed = clock.now - start
            #expect(result.status == 0, "a whole run failed: \(result.err)")
            lengths.append(Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
        }
        return min(0.03, lengths.sorted()[2])
    }

    @Test("kill -9 in a run's life: every run that had read its whole stdin left the text in the outbox or sent it")
    func killsJustAfterReading() throws {
        try paste.writeConfig(Self.config(mock))
        // 48 runs killed at a random moment of their life: some before the read, most between
        // the read's end and the request (the repeat lock, the history read, the entry's files),
        // where a text read is in memory only unless it was written at once. The window is as
        // long as a whole run here (at most 30 ms): a fixed 30 ms let most kills land after the
        // end on a fast machine, and too few after the read to say anything (7 of 48 once).
        let window = try Self.runLength(of: paste)
        let harness = KillHarness(
            seed: 0x29_0001, runs: 48, timeLimit: 120, maximumExtraDelay: window, signals: [SIGKILL],
            processTimeout: 60)
        var texts: [Int: Data] = [:]
        // Each run's stdin is a pipe holding its whole text (its writer closed); the test keeps
        // a reader of its own, so what is left in it after the kill says whether the run had
        // read it all.
        var readers: [Int: FileHandle] = [:]
        var readWhole: [Int: Bool] = [:]
        // The newest files of the outbox after each run (for a failure's message).
        var left: [Int: String] = [:]
        let outcomes = try harness.run(
            maximumLines: { _ in 0 },
            command: { run in
                (BuiltProducts.path(of: "paste"), ["-S", "m", "--new", "--no-copy"], paste.environment)
            },
            standardInput: { run in
                let text = Self.words(Int(run.seed % 16_000) + 1, run: run)
                texts[run.index] = text
                let pipe = Pipe()
                try pipe.fileHandleForWriting.write(contentsOf: text)
                try pipe.fileHandleForWriting.close()
                readers[run.index] = pipe.fileHandleForReading
                return FileHandle(fileDescriptor: dup(pipe.fileHandleForReading.fileDescriptor), closeOnDealloc: true)
            },
            check: { outcome in
                let reader = try #require(readers[outcome.run.index])
                readWhole[outcome.run.index] = (try reader.readToEnd() ?? Data()).isEmpty
                try reader.close()
                left[outcome.run.index] =
                    paste.outboxFiles().filter { !$0.hasPrefix(".") }.suffix(3).joined(separator: " ") + " "
                    + paste.outboxFiles().filter { $0.hasPrefix(".") }.joined(separator: " ")
            })
        #expect(outcomes.count == 48, "the harness ran out of time after \(outcomes.count) runs")
        try waitUntil("the mock to finish with the runs it served", timeout: 30) { try mock.requestsInProgress() == 0 }
        // The next --retry settles what the dead runs left and sends what never went out.
        let retry = try paste.run(["--retry", "--no-copy"])
        #expect(retry.status == 0 || retry.status == 69, "stderr: \(retry.err)")
        try waitUntil("the mock to finish", timeout: 30) { try mock.requestsInProgress() == 0 }
        // A background flush (started by a run that ended well) may still be sending: counted
        // mock first, outbox after, a text it sent in between would be in neither.
        try waitForBackgroundFlushes()
        let (pasted, entries) = try whereTextsAre()
        var killedAfterReading = 0
        for outcome in outcomes {
            let text = try #require(texts[outcome.run.index])
            let times = pasted[text, default: 0]
            let kept = entries.filter { $0.content == text }.count
            // (Killed in flight, a paste the server made is also held: it may have been made.)
            #expect(times <= 1 && kept <= 1, "\(outcome.run): pasted \(times) times, kept \(kept) times")
            guard readWhole[outcome.run.index] == true else { continue }
            if outcome.wasKilled { killedAfterReading += 1 }
            #expect(
                times + kept >= 1,
                "\(outcome.run) had read its whole text, which is nowhere now; it left \(left[outcome.run.index] ?? "")"
            )
        }
        // Most kills land after the read (a loaded machine starts paste slower: still some).
        #expect(killedAfterReading >= 8, "only \(killedAfterReading) runs were killed after reading their text")
        try expectNoTemporaryLeft()
        try expectWholeHistory()
    }

    @Test("--retry interrupted at random moments (kill -9, SIGINT, SIGTERM) never makes a second paste")
    func interruptedRetry() throws {
        try paste.writeConfig(Self.config(mock))
        let count = 24
        try mock.addFault(.status(503), count: count, path: "/pastes/create")
        let texts = (0..<count).map { Data("waiting text \($0)\n".utf8) }
        for text in texts {
            #expect(try paste.run(["-S", "m", "--no-copy"], input: .bytes(text)).status == 75)
        }
        try mock.clearRequests()
        try mock.addFault(.delay(seconds: 0.1), count: 0, path: "/pastes/create")

        let harness = KillHarness(
            seed: 0x15_0003, runs: 20, timeLimit: 120, maximumExtraDelay: 0.2, signals: [SIGKILL, SIGINT, SIGTERM],
            processTimeout: 60)
        let empty = try paste.home.write("", to: "empty")
        try harness.run(
            maximumLines: { _ in 3 }, command: { _ in command(["--retry", "--no-copy"], stdin: empty) },
            check: { _ in })
        try waitUntil("the mock to finish", timeout: 30) { try mock.requestsInProgress() == 0 }
        try mock.clearFaults()
        // Whatever is still retryable goes now, each once.
        let retry = try paste.run(["--retry", "--no-copy"])
        #expect(retry.status == 0 || retry.status == 69, "stderr: \(retry.err)")
        try waitUntil("the mock to finish", timeout: 30) { try mock.requestsInProgress() == 0 }

        let pasted = try pastedCounts()
        let entries = try outboxEntries()
        for text in texts {
            let times = pasted[text, default: 0]
            let held = entries.filter { $0.content == text && $0.state == "held" }.count
            #expect(times <= 1, "'\(String(decoding: text, as: UTF8.self))' pasted \(times) times")
            #expect(times == 1 || held == 1, "'\(String(decoding: text, as: UTF8.self))' is nowhere")
        }
        #expect(!entries.contains { $0.state == "retryable" })
        try expectWholeHistory()
    }

    @Test("50 --retry runs at once over 100 entries send each exactly once; history gets 100 whole records")
    func concurrentRetries() throws {
        try paste.writeConfig(Self.config(mock))
        let outbox = Outbox(context: Context(environment: paste.environment))
        let texts = (0..<100).map { "entry \($0)\n" }
        for text in texts {
            _ = try outbox.create(OutboxEntry.Metadata(service: "m", created: Date()), content: Array(text.utf8))
        }
        let runs = try (0..<50).map { _ in try RunningPaste(paste, ["--retry", "--no-copy"], stdin: "") }
        var printed: [Substring] = []
        for run in runs {
            let result = try run.finish(timeout: 300)
            let (status, out) = (result.status, result.out)
            #expect(status == 0, "stderr: \(run.err)")
            printed += out.split(separator: "\n")
        }
        let posts = try mock.posts()
        #expect(posts.count == texts.count)
        let bodies = try posts.map { try #require($0.field("paste[body]")?.text) }
        #expect(bodies.sorted() == texts.sorted())
        #expect(printed.count == texts.count)
        #expect(paste.outboxFiles().isEmpty)
        #expect(try paste.historyLines().count == texts.count)
        try expectWholeHistory()
    }
}
