import Foundation
import PasteCore
import Stores
import TestSupport
import Testing

/// The stores under processes killed at random moments (TestSupport's `KillHarness`, seeded: a
/// failure names its seed, and `PASTE_KILL_SEED=N` replays it) and under many at once. The
/// processes are `store-exerciser`, which drives the stores exactly as paste does and prints a
/// line after each step.
@Suite("Stores under kill -9", .serialized, .tags(.slow))
struct StoreKillTests {
    let home: TemporaryHome
    static let exerciser = BuiltProducts.path(of: "store-exerciser")

    init() throws {
        home = try TemporaryHome()
    }

    // MARK: - History

    @Test("kill -9 at random moments of history appends: 0 corrupt lines, every acknowledged record kept")
    func historyUnderKill() throws {
        let path = home.stateHome.appendingPathComponent("paste/history").path
        let perRun = 40
        let harness = KillHarness(seed: 15_001, runs: 30, timeLimit: 90, isStepped: true)
        var acknowledged = 0
        var killedMidway = 0
        let outcomes = try harness.run(maximumLines: { _ in perRun }) { run in
            (Self.exerciser, ["--stepped", "history", path, String(perRun), String(run.seed)], nil)
        } check: { outcome in
            let acks = outcome.lines.count
            acknowledged += acks
            if outcome.wasKilled && acks < perRun { killedMidway += 1 }
            #expect(outcome.wasKilled || outcome.status == 0, "\(outcome.run): \(outcome.stderr)")
            // This run's records: the acknowledged ones, and at most the one it was writing.
            let mine = try History(path: path).records().filter {
                $0.url.hasPrefix("https://paste.example/\(outcome.run.seed)/")
            }
            #expect(mine.map(\.url) == (0..<mine.count).map { "https://paste.example/\(outcome.run.seed)/\($0)" })
            #expect(mine.count == acks || (outcome.wasKilled && mine.count == acks + 1), "\(outcome.run)")
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        let records = try History(path: path).records()
        #expect(records.count == lines.count, "corrupt lines (seed \(harness.seed))")
        #expect(records.count >= acknowledged && records.count <= acknowledged + outcomes.count)
        #expect(outcomes.count >= 10, "only \(outcomes.count) runs within the time limit")
        #expect(killedMidway >= outcomes.count / 4, "only \(killedMidway) of \(outcomes.count) runs killed midway")
    }

    // MARK: - The outbox journal

    /// What an entry is after a recovery pass.
    enum Settled: Equatable, CustomStringConvertible {
        case absent
        case entry(OutboxEntry.State, attempts: Int)

        var description: String {
            switch self {
            case .absent: "absent"
            case .entry(let state, let attempts): "\(state.rawValue) after \(attempts) attempts"
            }
        }
    }

    /// One planned life of an entry (chosen by the run's index, so the plan knows its length).
    struct Life {
        static let modes = ["stream", "stream-in-flight", "bytes"]
        static let outcomes = ["success", "retryable", "held", "discard"]
        static let chunk = 4096

        var mode: String
        var outcome: String
        var size: Int

        init(index: Int) {
            mode = Self.modes[index % Self.modes.count]
            outcome = Self.outcomes[(index / Self.modes.count) % Self.outcomes.count]
            size = Self.chunk * (index % 20) + (index * 977) % Self.chunk + 1
        }

        var chunks: Int { (size + Self.chunk - 1) / Self.chunk }

        /// How each step leaves the entry, should the run die right after it: the first element
        /// is "before any step".
        var settledAfterSteps: [Settled] {
            var steps: [Settled] = [.absent]
            let final: Settled =
                switch outcome {
                case "retryable": .entry(.retryable, attempts: 1)
                case "held": .entry(.held, attempts: 1)
                default: .absent
                }
            switch mode {
            case "stream":
                // created, the chunks (never whole yet), finished (whole, never sent), in flight.
                steps += Array(repeating: .absent, count: 1 + chunks)
                steps += [.entry(.retryable, attempts: 0), .entry(.held, attempts: 1)]
            case "stream-in-flight":
                // created in flight, the chunks, finished (whole and in flight).
                steps += Array(repeating: .absent, count: 1 + chunks)
                steps += [.entry(.held, attempts: 1)]
            default:
                // created with its whole content, in flight.
                steps += [.entry(.retryable, attempts: 0), .entry(.held, attempts: 1)]
            }
            return steps + [final]
        }
    }

    @Test("kill -9 at random moments of an entry's life: whole and byte-exact, or gone; no temporary file")
    func journalUnderKill() throws {
        let harness = KillHarness(seed: 15_002, runs: 60, timeLimit: 120, isStepped: true)
        var killedMidway = 0
        var seen: Set<String> = []
        let outcomes = try harness.run(maximumLines: { Life(index: $0).settledAfterSteps.count - 1 }) { run in
            let life = Life(index: run.index)
            let folder = home.stateHome.appendingPathComponent("run-\(run.index)/outbox").path
            return (
                Self.exerciser,
                ["--stepped", "journal", folder, String(run.seed), String(life.size), life.mode, life.outcome], nil
            )
        } check: { outcome in
            let life = Life(index: outcome.run.index)
            let steps = life.settledAfterSteps
            let done = outcome.lines.count
            #expect(outcome.wasKilled || outcome.status == 0, "\(outcome.run): \(outcome.stderr)")
            if outcome.wasKilled && done < steps.count - 1 { killedMidway += 1 }
            // Killed after `done` steps, the next one may have been done, or half done.
            let allowed = outcome.wasKilled ? Array(steps[done...].prefix(2)) : [steps.last!]

            let folder = home.stateHome.appendingPathComponent("run-\(outcome.run.index)/outbox").path
            let later = Outbox(folder: folder, now: { Date() + 120 })
            let listing = try later.listing()
            #expect(listing.problems.isEmpty, "\(outcome.run): \(listing.problems)")
            let settled: Settled
            if let item = listing.items.first {
                settled = .entry(item.state, attempts: item.entry.metadata.attempts)
                var content: [UInt8] = []
                try later.forEachContentChunk(of: item.entry) { content += $0 }
                #expect(
                    content == SeededRandom.bytes(seed: outcome.run.seed, count: life.size),
                    "\(outcome.run): content not byte-exact (\(content.count) of \(life.size) bytes)")
                #expect(item.isWhole && !item.isBusy)
            } else {
                settled = .absent
            }
            seen.insert(settled.description)
            #expect(
                allowed.contains(settled),
                "\(outcome.run) \(life.mode)/\(life.outcome) after \(done) lines: \(settled), expected one of \(allowed)"
            )
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            #expect(names.count == 2 * listing.items.count, "\(outcome.run): left \(names.sorted())")
            #expect(names.allSatisfy { !$0.contains(".tmp") })
        }
        #expect(outcomes.count >= 20, "only \(outcomes.count) runs within the time limit")
        #expect(killedMidway >= outcomes.count / 4, "only \(killedMidway) of \(outcomes.count) killed midway")
        // The kills landed at different moments: entries ended up in more than one way.
        #expect(seen.count >= 3, "only \(seen) (seed \(harness.seed))")
    }

    // MARK: - Claims

    /// Makes `count` retryable entries, as runs that failed before sending leave them.
    func fill(_ folder: String, count: Int) throws -> Set<String> {
        let outbox = Outbox(folder: folder)
        var names: Set<String> = []
        for index in 0..<count {
            let claim = try outbox.create(
                OutboxEntry.Metadata(service: "s", created: .distantPast), content: Array("entry \(index)\n".utf8))
            names.insert(claim.entry.name)
        }
        return names
    }

    @Test("50 concurrent senders over 100 entries send each exactly once")
    func concurrentClaimers() throws {
        let folder = home.stateHome.appendingPathComponent("paste/outbox").path
        let log = home.root.appendingPathComponent("sent.log").path
        let names = try fill(folder, count: 100)
        let group = DispatchGroup()
        let failures = FailureBox()
        for _ in 0..<50 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let result = try runProcess(Self.exerciser, ["claim", folder, log], timeout: 120)
                    if result.status != 0 { failures.add("status \(result.status): \(result.err)") }
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        #expect(group.wait(timeout: .now() + 180) == .success)
        #expect(failures.all.isEmpty)
        let sent = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(sent.count == 100, "sent \(sent.count) times")
        #expect(Set(sent) == names)
        #expect(try Outbox(folder: folder).listing().items.isEmpty)
    }

    @Test("senders killed at random never send an entry twice; what was in flight is held")
    func claimersUnderKill() throws {
        let folder = home.stateHome.appendingPathComponent("paste/outbox").path
        let log = home.root.appendingPathComponent("sent.log").path
        let names = try fill(folder, count: 60)
        let harness = KillHarness(seed: 15_003, runs: 20, timeLimit: 60, isStepped: true)
        let outcomes = try harness.run(maximumLines: { _ in 6 }) { _ in
            (Self.exerciser, ["--stepped", "claim", folder, log], nil)
        } check: { outcome in
            #expect(outcome.wasKilled || outcome.status == 0, "\(outcome.run): \(outcome.stderr)")
        }
        // One last sender, left alone, sends what is still due.
        let last = try runProcess(Self.exerciser, ["claim", folder, log], timeout: 60)
        #expect(last.status == 0, "\(last.err)")

        let sent = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        #expect(sent.count == Set(sent).count, "an entry was sent twice (seed \(harness.seed))")
        let listing = try Outbox(folder: folder).listing()
        let held = Set(listing.items.map(\.entry.name))
        #expect(listing.items.allSatisfy { $0.state == .held }, "\(listing.items.map(\.state))")
        #expect(held.count <= outcomes.filter(\.wasKilled).count)
        // Every entry was sent once, or is held because its sender died while sending it.
        #expect(Set(sent).union(held) == names)
    }
}
