import Foundation
import TestSupport

/// A `paste` run the test watches and signals while it works: stdin from bytes written at once
/// (a regular file), or from a pipe the test keeps open (a stream it can cut short).
final class RunningPaste: @unchecked Sendable {
    // Safe: `outText` and `errText` are only touched with `lock` held; the rest is set in init.
    let process = Process()
    private let lock = NSLock()
    private var outText = Data()
    private var errText = Data()
    private let exited = DispatchSemaphore(value: 0)
    private let drained = DispatchGroup()
    /// The write end of stdin, for a run fed through a pipe.
    private let input: FileHandle?

    /// Starts `paste arguments…` with `stdin` as a regular file holding those bytes; with
    /// `ignoring`, through `sh -c 'trap "" SIGNALS; exec paste …'`, as `nohup` starts a program.
    init(_ paste: PasteRunner, _ arguments: [String], stdin bytes: Data, ignoring signals: [String] = []) throws {
        let file = paste.home.root.appendingPathComponent("stdin-\(UUID().uuidString)")
        try bytes.write(to: file)
        input = nil
        try start(paste, arguments, stdin: try FileHandle(forReadingFrom: file), ignoring: signals)
    }

    /// Starts `paste arguments…` reading a pipe: `first` is written at once (on a thread of its
    /// own); then the pipe is closed when `closing`, else it stays open (a stream not over yet).
    init(_ paste: PasteRunner, _ arguments: [String], streaming first: Data, closing: Bool = false) throws {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        input = closing ? nil : writer
        try start(paste, arguments, stdin: pipe)
        Thread.detachNewThread {
            withoutSIGPIPE { try? writer.write(contentsOf: first) }
            if closing { try? writer.close() }
        }
    }

    private func start(_ paste: PasteRunner, _ arguments: [String], stdin: Any, ignoring signals: [String] = []) throws
    {
        if signals.isEmpty {
            process.executableURL = URL(fileURLWithPath: BuiltProducts.path(of: "paste"))
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                [
                    "-c", "trap '' \(signals.joined(separator: " ")); exec \"$0\" \"$@\"",
                    BuiltProducts.path(of: "paste"),
                ]
                + arguments
        }
        process.environment = paste.environment
        process.standardInput = stdin
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        for (pipe, isOut) in [(outPipe, true), (errPipe, false)] {
            let handle = pipe.fileHandleForReading
            drained.enter()
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    lock.lock()
                    if isOut { outText.append(chunk) } else { errText.append(chunk) }
                    lock.unlock()
                }
                drained.leave()
            }
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? input?.close()
    }

    /// stderr so far.
    var err: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: errText, as: UTF8.self)
    }

    /// Sends `signal` to the run.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the end (at most `timeout` seconds); status is 128 + N for a death by signal N.
    func finish(timeout: Double = 60) throws -> ProcessResult {
        guard exited.wait(timeout: .now() + timeout) == .success else {
            kill(process.processIdentifier, SIGKILL)
            throw ProcessTimedOut(command: ["paste"] + (process.arguments ?? []), seconds: timeout)
        }
        try? input?.close()
        _ = drained.wait(timeout: .now() + timeout)
        lock.lock()
        defer { lock.unlock() }
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return ProcessResult(status: status, stdout: outText, stderr: errText)
    }
}

extension PasteRunner {
    /// The outbox folder.
    var outboxFolder: URL { home.stateHome.appendingPathComponent("paste/outbox") }

    /// Every file name in the outbox folder, sorted (temporary files included).
    func outboxFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: outboxFolder.path)) ?? []).sorted()
    }

    /// The metadata of every entry as it is on disk (read without paste: no recovery pass).
    func outboxMetadata() -> [[String: Any]] {
        outboxFiles().filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.compactMap { name in
            guard let data = try? Data(contentsOf: outboxFolder.appendingPathComponent(name)) else { return nil }
            return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        }
    }

    /// The states of the entries as they are on disk, without a recovery pass.
    func outboxStatesOnDisk() -> [String] {
        outboxMetadata().compactMap { $0["state"] as? String }
    }
}

extension MockServer {
    /// The stored pastes whose content is exactly `text` (complete pastes of it).
    func pastes(holding text: Data) throws -> [MockStoredPaste] {
        try pastes().filter { try rawPaste(id: $0.id) == text }
    }
}
