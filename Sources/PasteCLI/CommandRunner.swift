import PasteCore
import SystemInterop

/// Runs the commands of `${cmd:…}` references: spawned (no shell) in a session of its own,
/// stdin from `/dev/null`, stderr discarded, stdout read to its end within a deadline.
struct CommandRunner: CommandRunning {
    /// The most output read: far more than any token or password.
    static let maximumOutput = 1 << 20
    /// How often a quiet child is checked for having exited: its stdout may be held open by
    /// something it started (an agent it forked), so end of file alone cannot tell.
    static let exitCheckInterval: Duration = .milliseconds(50)
    /// The most one read takes.
    static let readChunk = 1 << 14

    func run(_ arguments: [String], environment: [String: String], timeout: Duration) -> Result<
        [UInt8], CommandFailure
    > {
        run(arguments, input: nil, environment: environment, timeout: timeout)
    }

    /// The same, with `input` on the program's stdin (then end of file) instead of
    /// `/dev/null`: for a dmenu-style picker, which reads its list there (`DmenuPicker`).
    func run(_ arguments: [String], input: [UInt8]?, environment: [String: String], timeout: Duration) -> Result<
        [UInt8], CommandFailure
    > {
        guard let program = arguments.first, let path = Self.locate(program, path: environment["PATH"]) else {
            return .failure(.notFound)
        }
        let pair: SocketPair
        do {
            pair = try FileDescriptor.makeSocketPair()
        } catch {
            return .failure(.cannotStart(reason: error.message))
        }
        let output = pair.first
        let childEnd = pair.second
        // The stdin pair as plain numbers, each adopted again below to be closed.
        var stdin: (ours: Int32, theirs: Int32)?
        if input != nil {
            do {
                let pair = try FileDescriptor.makeSocketPair()
                stdin = (pair.first.release(), pair.second.release())
            } catch {
                return .failure(.cannotStart(reason: error.message))
            }
        }
        let child: ChildProcess
        do {
            // A session of its own makes it lead a process group: a timeout stops what it
            // started too (`sendToGroup`).
            child = try ChildProcess.spawn(
                path, arguments: arguments, environment: environment,
                standardInput: stdin.map { .descriptor($0.theirs) } ?? .null,
                standardOutput: .descriptor(childEnd.rawValue), standardError: .null, newSession: true)
        } catch {
            try? childEnd.close()
            if let stdin {
                try? FileDescriptor(adopting: stdin.ours).close()
                try? FileDescriptor(adopting: stdin.theirs).close()
            }
            return .failure(error == .noSuchFileOrDirectory ? .notFound : .cannotStart(reason: error.message))
        }
        try? childEnd.close()
        let deadline = ContinuousClock.now + timeout
        if let stdin, let input {
            try? FileDescriptor(adopting: stdin.theirs).close()
            let ours = FileDescriptor(adopting: stdin.ours)
            // A program that stops reading early (a choice made before the list ended) is no
            // failure: what it printed decides.
            try? ours.setNonBlocking()
            try? ours.sendAll(input, before: deadline)
            try? ours.close()
        }
        return collect(from: output, child: child, deadline: deadline, timeout: timeout)
    }

    /// Reads the child's stdout until it ends (or the child exits), then reaps the child.
    private func collect(
        from descriptor: borrowing FileDescriptor, child: ChildProcess, deadline: ContinuousClock.Instant,
        timeout: Duration
    ) -> Result<[UInt8], CommandFailure> {
        var bytes: [UInt8] = []
        var exitStatus: Int32?
        reading: while true {
            if deadline - .now <= .zero { return stop(child, timeout: timeout) }
            let slice = min(deadline, .now + Self.exitCheckInterval)
            let isReady = (try? descriptor.wait(for: .readable, before: slice)) ?? true
            if isReady {
                guard let chunk = try? descriptor.readAvailable(upTo: Self.readChunk), !chunk.isEmpty else {
                    break reading
                }
                bytes += chunk
                if bytes.count > Self.maximumOutput {
                    _ = stop(child, timeout: timeout)
                    return .failure(.tooMuchOutput(limit: Self.maximumOutput))
                }
            } else if let ended = child.exitStatusIfEnded() {
                // It exited while something it started still holds the pipe: take what is there.
                exitStatus = ended
                // A 1 ms poll: `wait` does not poll at all for a deadline already passed.
                while (try? descriptor.wait(for: .readable, before: .now + .milliseconds(1))) == true,
                    let chunk = try? descriptor.readAvailable(upTo: Self.readChunk), !chunk.isEmpty,
                    bytes.count <= Self.maximumOutput
                {
                    bytes += chunk
                }
                break reading
            }
        }
        while exitStatus == nil {
            if let ended = child.exitStatusIfEnded() {
                exitStatus = ended
            } else if deadline - .now <= .zero {
                return stop(child, timeout: timeout)
            } else {
                CurrentProcess.sleep(for: Self.exitCheckInterval)
            }
        }
        switch exitStatus! {
        case 0: return .success(bytes)
        case let code where code > 128: return .failure(.killed(signal: code - 128))
        case let code: return .failure(.exited(status: code))
        }
    }

    /// Kills the child's process group and reaps the child.
    private func stop(_ child: ChildProcess, timeout: Duration) -> Result<[UInt8], CommandFailure> {
        try? child.sendToGroup(.kill)
        _ = child.waitForExit()
        return .failure(.timedOut(seconds: Int(timeout.components.seconds)))
    }

    /// `program` itself when it names a path, else the first executable of that name in `PATH`.
    static func locate(_ program: String, path: String?) -> String? {
        if program.contains("/") { return FileSystem.isAccessible(program, for: .execute) ? program : nil }
        return FileSystem.firstExecutable(named: program, inPath: path ?? FileSystem.defaultExecutablePath)
    }
}
