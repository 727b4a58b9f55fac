import Foundation
import PasteCore
import Stores
import Testing
import TestSupport

extension JournalKillTests {
    /// Waits (to a deadline) until no background flush of this home runs and the mock serves
    /// nothing: from then on only the test moves texts.
    func waitForBackgroundFlushes() throws {
        try waitUntil("the background flushes to end", timeout: 120) { paste.backgroundFlushes().isEmpty }
        try waitUntil("the mock to finish", timeout: 30) { try mock.requestsInProgress() == 0 }
    }

    /// Where the texts are: the outbox read first, the mock after it.
    ///
    /// A text only ever moves from the outbox to the mock (an entry is removed once its paste
    /// is made), never back. Read in this order, a text found in neither was nowhere, even
    /// while a sender is still at work; read the other way round, a text sent between the two
    /// reads is in neither (the false "lost" a background flush caused in `killsJustAfterReading`).
    func whereTextsAre() throws -> (pasted: [Data: Int], entries: [(content: Data, state: String)]) {
        let entries = try outboxEntries()
        return (try pastedCounts(), entries)
    }

    @Test(
        "a background flush, pastes killed at random moments and --retry runs at once: each text sent once or waiting, no temporary left"
    )
    func flushRacesKilledRunsAndRetries() throws {
        try paste.writeConfig(Self.config(mock))
        // A little wait before each answer: every sender is at work while the others are.
        try mock.addFault(.delay(seconds: 0.05), count: 0, path: "/pastes/create")
        let outbox = Outbox(context: Context(environment: paste.environment))
        let waiting = (0..<40).map { Data("waiting entry \($0)\n".utf8) }
        for text in waiting {
            _ = try outbox.create(OutboxEntry.Metadata(service: "m", created: Date()), content: Array(text))
        }
        // A good paste leaves a background flush sending the 40 entries; a --retry races it.
        let first = try paste.run(["-S", "m", "--no-copy"], stdin: "the first good paste\n")
        #expect(first.status == 0, "stderr: \(first.err)")
        var flushesSeen = paste.backgroundFlushes().isEmpty ? 0 : 1
        var retries = [try RunningPaste(paste, ["--retry", "--no-copy"], stdin: "")]

        // Then pastes killed at random moments (each that ends well starts a flush of its own),
        // with another --retry started after every fourth.
        let harness = KillHarness(
            seed: 0x25_0001, runs: 24, timeLimit: 120, maximumExtraDelay: 0.15, signals: [SIGKILL, SIGINT, SIGTERM],
            processTimeout: 60)
        var texts: [Int: Data] = [:]
        let outcomes = try harness.run(
            maximumLines: { _ in 0 },
            command: { run in
                let text = Self.words(Int(run.seed % 8_000) + 1, run: run)
                texts[run.index] = text
                let file = try paste.home.write(String(decoding: text, as: UTF8.self), to: "stdin-\(run.index)")
                return command(["-S", "m", "--new", "--no-copy"], stdin: file)
            },
            check: { outcome in
                if !paste.backgroundFlushes().isEmpty { flushesSeen += 1 }
                if outcome.run.index % 4 == 3 {
                    retries.append(try RunningPaste(paste, ["--retry", "--no-copy"], stdin: ""))
                }
            })
        #expect(outcomes.count >= 10, "the harness ran out of time after \(outcomes.count) runs")
        #expect(flushesSeen >= 1, "no background flush ran while the others did")
        for retry in retries {
            let result = try retry.finish(timeout: 120)
            // 75: an entry another run held (a killed run's, in flight) was left retryable for a moment.
            #expect([0, 69, 75].contains(result.status), "--retry: status \(result.status), stderr: \(retry.err)")
        }
        try waitForBackgroundFlushes()
        // What the dead runs left is settled, what waits is sent.
        let last = try paste.run(["--retry", "--no-copy"])
        #expect(last.status == 0 || last.status == 69, "stderr: \(last.err)")
        try waitForBackgroundFlushes()

        let (pasted, entries) = try whereTextsAre()
        #expect(!entries.contains { $0.state == "retryable" }, "--retry left a retryable entry")
        for (content, state) in entries where pasted[content, default: 0] > 0 {
            #expect(state == "held", "a text the mock has is kept \(state)")
        }
        for text in waiting {
            let times = pasted[text, default: 0]
            let kept = entries.filter { $0.content == text }.count
            #expect(
                times == 1 && kept == 0,
                "'\(String(decoding: text, as: UTF8.self))': pasted \(times) times, kept \(kept)")
        }
        for outcome in outcomes {
            let text = try #require(texts[outcome.run.index])
            let times = pasted[text, default: 0]
            let kept = entries.filter { $0.content == text }.count
            #expect(times <= 1 && kept <= 1, "\(outcome.run): pasted \(times) times, kept \(kept) times")
            if !outcome.wasKilled {
                #expect(times == 1 && kept == 0, "\(outcome.run) finished: pasted \(times), kept \(kept)")
            }
        }
        // Every sender is gone: one recovery pass leaves no temporary file at all.
        let listing = try paste.run(["--outbox"])
        #expect(listing.status == 0, "stderr: \(listing.err)")
        let temporaries = paste.outboxFiles().filter { $0.contains(".tmp") }
        #expect(temporaries.isEmpty, "temporary files left in the outbox after a recovery pass: \(temporaries)")
        try expectWholeHistory()
    }
}
