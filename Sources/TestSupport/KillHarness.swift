import Foundation

/// Kills processes at random moments, reproducibly, to show that what they leave on disk is
/// always whole: the history after a `kill -9` mid-append, an outbox entry after a run died while
/// writing or sending it.
///
/// Each run starts one process and kills it once it has printed a random number of lines, after
/// a random extra delay, or lets it finish when it ends first. The process marks its progress by
/// printing a line after each step, so "after line k" is a moment in its work, not a wall-clock
/// guess. Two ways to run:
/// - free-running (any program, `paste` itself): the harness watches the lines go by and kills
///   once line k is out and the extra delay has passed; the kill lands anywhere from there on;
/// - stepped (`isStepped`, for a program that waits for a byte on stdin after each line, as
///   `store-exerciser --stepped` does): the harness lets the process take one step per byte, so
///   after k lines it is stopped exactly there. Then, as the run's plan says, it is killed right
///   there, between two steps, or let into step k + 1 and killed after the extra delay: at its
///   start, midway, or just after it. Every moment between two steps is reached, however fast
///   the steps are.
///
/// Every choice comes from a `SeededRandom` seeded by `seed`: a failing run names the seed, and
/// `PASTE_KILL_SEED` in the environment replays it. Bounded: at most `runs` processes and no new
/// one after `timeLimit` seconds; every wait has a deadline. Waiting for the kill moment is
/// waiting for a condition (a line count, or the process's end) with a deadline, never a bare
/// sleep; only the extra delay is a timed wait, and it is the randomness being injected, not
/// synchronisation.
public struct KillHarness: Sendable {
    /// The seed of every random choice.
    public var seed: UInt64
    /// The most processes started.
    public var runs: Int
    /// No process is started after this many seconds.
    public var timeLimit: Double
    /// The longest extra delay after the chosen line, in seconds.
    public var maximumExtraDelay: Double
    /// The signals to choose from (`SIGKILL` by default).
    public var signals: [Int32]
    /// How long one process may take before it counts as hung (it is killed and reported).
    public var processTimeout: Double
    /// Whether the process waits for a byte on stdin after each line (see above).
    public var isStepped: Bool

    /// Makes a harness; `PASTE_KILL_SEED` in the environment replaces `seed` (to replay a failure).
    public init(
        seed: UInt64, runs: Int, timeLimit: Double = 60, maximumExtraDelay: Double = 0.002,
        signals: [Int32] = [SIGKILL], processTimeout: Double = 30, isStepped: Bool = false
    ) {
        let override = ProcessInfo.processInfo.environment["PASTE_KILL_SEED"].flatMap { UInt64($0) }
        self.seed = override ?? seed
        self.runs = runs
        self.timeLimit = timeLimit
        self.maximumExtraDelay = maximumExtraDelay
        self.signals = signals
        self.processTimeout = processTimeout
        self.isStepped = isStepped
    }

    /// One planned run: when to kill, with what.
    public struct Run: Sendable, CustomStringConvertible {
        /// Its number, from 0.
        public var index: Int
        /// A seed of its own, for the process's work (its content, its choices).
        public var seed: UInt64
        /// Kill once this many lines are out.
        public var killAfterLines: Int
        /// Then wait this much longer (seconds) before the signal.
        public var extraDelay: Double
        /// For a stepped process: kill it where it stopped after line k, without letting it
        /// into the next step (the extra delay is then not waited).
        public var killsBetweenSteps: Bool
        /// The signal.
        public var signal: Int32

        public var description: String {
            let moment = killsBetweenSteps ? "between steps" : "+ \(Int(extraDelay * 1e6)) µs"
            return "run \(index) (seed \(seed)): signal \(signal) after \(killAfterLines) lines \(moment)"
        }
    }

    /// What one run left.
    public struct Outcome: Sendable {
        /// The plan it followed.
        public var run: Run
        /// Whether the signal was sent (false: the process ended first).
        public var wasKilled: Bool
        /// The exit status (128 + signal when killed).
        public var status: Int32
        /// The complete lines it printed (a line cut by the kill is left out).
        public var lines: [String]
        /// What it wrote on stderr.
        public var stderr: String
    }

    /// The runs `seed` plans, each killed after up to `maximumLines(run index)` lines.
    public func plan(maximumLines: (Int) -> Int) -> [Run] {
        var random = SeededRandom(seed: seed)
        return (0..<runs).map { index in
            let lines = max(0, maximumLines(index))
            return Run(
                index: index, seed: random.next(),
                killAfterLines: Int.random(in: 0...lines, using: &random),
                extraDelay: Double.random(in: 0...maximumExtraDelay, using: &random),
                killsBetweenSteps: Bool.random(using: &random),
                signal: signals.randomElement(using: &random) ?? SIGKILL)
        }
    }

    /// Runs the plan: starts each run's process, kills it at its moment, and hands what it left
    /// to `check` before the next run starts.
    ///
    /// - Parameters:
    ///   - maximumLines: How many lines run `i`'s process prints when it is not killed.
    ///   - command: The process of a run: executable, arguments, environment (nil: inherited).
    ///   - standardInput: What run `i`'s process reads on stdin (nil: `/dev/null`, or the
    ///     steps of a stepped process); the harness closes its copy once the process started.
    ///   - check: Looks at what the run left (files, output); throwing stops the harness.
    /// - Returns: Every outcome, in order.
    @discardableResult
    public func run(
        maximumLines: (Int) -> Int, command: (Run) throws -> (String, [String], [String: String]?),
        standardInput: (Run) throws -> FileHandle? = { _ in nil }, check: (Outcome) throws -> Void
    ) throws -> [Outcome] {
        let start = Date()
        var outcomes: [Outcome] = []
        for run in plan(maximumLines: maximumLines) {
            if Date().timeIntervalSince(start) > timeLimit { break }
            let (executable, arguments, environment) = try command(run)
            let outcome = try perform(
                run, executable: executable, arguments: arguments, environment: environment,
                standardInput: try standardInput(run))
            try check(outcome)
            outcomes.append(outcome)
        }
        return outcomes
    }

    /// How often the line count is looked at while waiting for the kill moment.
    static let pollInterval = 0.0002

    /// What a stepped process reads to take its next step.
    static let stepByte = Data([UInt8(ascii: ".")])

    /// Starts one process and kills it at its planned moment.
    func perform(
        _ run: Run, executable: String, arguments: [String], environment: [String: String]?,
        standardInput: FileHandle? = nil
    ) throws -> Outcome {
        let steps = Pipe()
        let outPipe = Pipe()
        let errPipe = Pipe()
        let output = LineCounter()
        let drained = DispatchGroup()
        for (pipe, isOut) in [(outPipe, true), (errPipe, false)] {
            drained.enter()
            Thread.detachNewThread {
                let handle = pipe.fileHandleForReading
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    output.add(data, isOut: isOut)
                }
                drained.leave()
            }
        }
        let process = try SpawnedProcess(
            executable, arguments, environment: environment,
            standardInput: isStepped ? .handle(steps.fileHandleForReading) : standardInput.map { .handle($0) } ?? .null,
            standardOutput: .handle(outPipe.fileHandleForWriting), standardError: .handle(errPipe.fileHandleForWriting))
        // The child has its copies: ours would keep its pipes open past its end.
        try? outPipe.fileHandleForWriting.close()
        try? errPipe.fileHandleForWriting.close()
        try? steps.fileHandleForReading.close()
        try? standardInput?.close()
        // A stepped process that is killed must not take the test down with SIGPIPE.
        let step = { withoutSIGPIPE { try? steps.fileHandleForWriting.write(contentsOf: Self.stepByte) } }
        var wasKilled = false
        var hasEnded = false
        // The moment: the chosen line is out (or the process ended); a stepped process is let
        // through one line at a time and then into the next step. The line count is looked at
        // every `pollInterval`; the end is signalled.
        let deadline = Date().addingTimeInterval(processTimeout)
        var released = 0
        let stopsBetweenSteps = isStepped && run.killsBetweenSteps
        while !hasEnded && Date() < deadline {
            let lines = output.lineCount
            if isStepped {
                if stopsBetweenSteps {
                    // Line k is out and its byte withheld: the process waits right there.
                    if lines >= run.killAfterLines { break }
                } else if released >= run.killAfterLines {
                    break  // let into step k + 1
                }
                if lines > released {
                    step()
                    released += 1
                    continue
                }
            } else if lines >= run.killAfterLines {
                break
            }
            hasEnded = process.wait(seconds: Self.pollInterval) != nil
        }
        if !hasEnded && !stopsBetweenSteps && run.extraDelay > 0 {
            hasEnded = process.wait(seconds: run.extraDelay) != nil
        }
        if !hasEnded {
            process.send(run.signal)
            wasKilled = true
            hasEnded = process.wait(seconds: processTimeout) != nil
        }
        try? steps.fileHandleForWriting.close()
        if !hasEnded {
            process.send(SIGKILL)
            _ = process.wait(seconds: 5)
            throw ProcessTimedOut(command: [executable] + arguments, seconds: processTimeout)
        }
        _ = drained.wait(timeout: .now() + processTimeout)
        let status = process.wait(seconds: 0) ?? -1
        // A process that ended on its own before the signal went out was not killed.
        if wasKilled && status != 128 + run.signal { wasKilled = false }
        return Outcome(run: run, wasKilled: wasKilled, status: status, lines: output.lines, stderr: output.err)
    }
}

/// A small, fast, seedable random number generator (SplitMix64, Steele, Lea and Flood 2014):
/// the same seed gives the same numbers on every machine, so a failing random test replays.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Starts the sequence of `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The output of a process being watched: stdout's complete lines as they come, stderr whole.
private final class LineCounter: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var out = Data()
    private var errData = Data()
    private var newlines = 0

    func add(_ data: Data, isOut: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if isOut {
            out.append(data)
            newlines += data.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        } else {
            errData.append(data)
        }
    }

    var lineCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return newlines
    }

    /// The complete lines (a last line without its newline was cut by the kill).
    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        var parts = String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.map(String.init)
    }

    var err: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: errData, as: UTF8.self)
    }
}

extension SeededRandom {
    /// `count` bytes of `seed`'s sequence (every value 0–255, NUL included: content that only a
    /// byte-exact store keeps), the same in a test and in a process it starts.
    public static func bytes(seed: UInt64, count: Int) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            withUnsafeBytes(of: random.next().littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}
