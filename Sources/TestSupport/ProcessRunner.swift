import Foundation

/// What a finished process left behind.
public struct ProcessResult: Sendable {
    /// Exit status, or 128 + signal number when it was killed.
    public var status: Int32
    /// Everything written to stdout.
    public var stdout: Data
    /// Everything written to stderr.
    public var stderr: Data
    /// Makes a result (for children waited for by other means).
    public init(status: Int32, stdout: Data, stderr: Data) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// stdout as UTF-8 text.
    public var out: String { String(decoding: stdout, as: UTF8.self) }
    /// stderr as UTF-8 text.
    public var err: String { String(decoding: stderr, as: UTF8.self) }
}

/// Raised when a process outlives its deadline; it has been killed.
public struct ProcessTimedOut: Error, CustomStringConvertible {
    public var command: [String]
    public var seconds: Double
    public init(command: [String], seconds: Double) {
        self.command = command
        self.seconds = seconds
    }
    public var description: String { "\(command.joined(separator: " ")) ran past \(seconds)s" }
}

/// How stdin is provided to a child.
public enum ProcessInput: Sendable {
    /// `/dev/null`.
    case null
    /// These bytes through a pipe, then end of file.
    case bytes(Data)
    /// A file opened read-only (stdin is then a regular file).
    case file(String)
    /// Inherit nothing: stdin is closed in the child.
    case closed
}

/// Runs a process to completion with a deadline, capturing stdout and stderr.
///
/// Every wait in the tests goes through a deadline: a hung child is killed and reported, never
/// left to hang the suite.
/// The child is a `SpawnedProcess` (not Foundation's `Process`: see there why).
public func runProcess(
    _ executable: String, _ arguments: [String], input: ProcessInput = .null,
    environment: [String: String]? = nil, currentDirectory: String? = nil,
    timeout: Double = 60
) throws -> ProcessResult {
    let outPipe = Pipe()
    let errPipe = Pipe()
    var inPipe: Pipe?
    var inFile: FileHandle?
    let standardInput: SpawnedProcess.Stream
    switch input {
    case .null: standardInput = .null
    case .bytes:
        inPipe = Pipe()
        standardInput = .handle(inPipe!.fileHandleForReading)
    case .file(let path):
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        inFile = handle
        standardInput = .handle(handle)
    case .closed: standardInput = .closed
    }
    let child = try SpawnedProcess(
        executable, arguments, environment: environment, currentDirectory: currentDirectory,
        standardInput: standardInput, standardOutput: .handle(outPipe.fileHandleForWriting),
        standardError: .handle(errPipe.fileHandleForWriting))
    // The child has its copies: ours would keep its pipes open past its end.
    try? outPipe.fileHandleForWriting.close()
    try? errPipe.fileHandleForWriting.close()
    try? inPipe?.fileHandleForReading.close()
    try? inFile?.close()

    // Drain both pipes on their own threads so a chatty child never blocks on a full pipe.
    let collected = OutputCollector()
    let group = DispatchGroup()
    for (pipe, isOut) in [(outPipe, true), (errPipe, false)] {
        group.enter()
        Thread.detachNewThread {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            collected.set(data, isOut: isOut)
            group.leave()
        }
    }
    if case .bytes(let data) = input, let inPipe {
        Thread.detachNewThread {
            // A child that exits without reading all its stdin (a usage or config error) must
            // not take the test process down.
            withoutSIGPIPE {
                try? inPipe.fileHandleForWriting.write(contentsOf: data)
                try? inPipe.fileHandleForWriting.close()
            }
        }
    }
    guard let status = child.wait(seconds: timeout) else {
        child.send(SIGKILL)
        _ = child.wait(seconds: 5)
        throw ProcessTimedOut(command: [executable] + arguments, seconds: timeout)
    }
    // The child exited; its pipes close once any grandchildren holding them are gone.
    _ = group.wait(timeout: .now() + timeout)
    return ProcessResult(status: status, stdout: collected.out, stderr: collected.err)
}

/// Thread-safe holder for the two captured streams.
private final class OutputCollector: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var outData = Data()
    private var errData = Data()
    func set(_ data: Data, isOut: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if isOut { outData = data } else { errData = data }
    }
    var out: Data {
        lock.lock()
        defer { lock.unlock() }
        return outData
    }
    var err: Data {
        lock.lock()
        defer { lock.unlock() }
        return errData
    }
}

/// Waits until `condition` holds, or throws at the deadline.
///
/// This is how tests synchronise: on a condition with a deadline, never on a bare sleep. The
/// condition is looked at first at once, then after pauses that grow from `WaitPace.first` by
/// half each time up to `WaitPace.longest`, and never shorter than the last look took: a look
/// that runs a program (`xclip -o`, `paste --history`) or asks a server must not take a core
/// for the whole wait, as it did when it was repeated every 5 ms (its cost and ours then left
/// the other tests less of the machine); a condition that holds soon is still seen within a
/// few milliseconds. Its last look is at the deadline.
public func waitUntil(
    _ what: String, timeout: Double = 10, _ condition: () throws -> Bool
) throws {
    let deadline = Date().addingTimeInterval(timeout)
    var pause = WaitPace.first
    while true {
        let looked = Date()
        if try condition() { return }
        let now = Date()
        if now > deadline { throw ConditionTimedOut(what: what, seconds: timeout) }
        let wait = min(max(pause, now.timeIntervalSince(looked)), deadline.timeIntervalSince(now))
        usleep(useconds_t(max(wait, 0) * 1e6) + 1)
        pause = min(pause * WaitPace.growth, WaitPace.longest)
    }
}

/// The pauses between two looks at a condition `waitUntil` waits for.
enum WaitPace {
    /// The first pause, in seconds.
    static let first = 0.002
    /// How much longer each pause is than the last.
    static let growth = 1.5
    /// The longest pause, in seconds: what a condition that held during it may be seen late.
    static let longest = 0.1
}

/// Checks `condition` every quarter second for `seconds`, and throws the first time it does not
/// hold: for what must stay true while real time passes (a card still shown 30 s later).
public func holdsThroughout(_ what: String, seconds: Double, _ condition: () throws -> Bool) throws {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        guard try condition() else { throw ConditionBroken(what: what) }
        usleep(250_000)
    }
    guard try condition() else { throw ConditionBroken(what: what) }
}

/// Raised by `holdsThroughout` when its condition stopped holding.
public struct ConditionBroken: Error, CustomStringConvertible {
    public var what: String
    public var description: String { "no longer true: \(what)" }
}

/// Raised by `waitUntil` when its condition never held.
public struct ConditionTimedOut: Error, CustomStringConvertible {
    public var what: String
    public var seconds: Double
    public var description: String { "gave up after \(seconds)s waiting for \(what)" }
}

/// Runs `body` (pipe writes, on a thread of its own) with SIGPIPE blocked on this thread, so a
/// write to a pipe whose reader is gone fails with EPIPE instead of killing the test process;
/// the signal left pending is taken off the thread before it returns.
public func withoutSIGPIPE(_ body: () -> Void) {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    body()
    var now = timespec()
    while sigtimedwait(&pipeSignal, nil, &now) == SIGPIPE {}
    pthread_sigmask(SIG_SETMASK, &previous, nil)
}
