import Foundation
import TestSupport

/// A `paste` run the test watches and signals while it works: stdin from bytes written at once
/// (a regular file), or from a pipe the test keeps open (a stream it can cut short).
final class RunningPaste: @unchecked Sendable {
    // Safe: `outText` and `errText` are only touched with `lock` held; `process` is set once,
    // in init; the rest is set in init.
    private var process: SpawnedProcess?
    private var command: [String] = []
    private let lock = NSLock()
    private var outText = Data()
    private var errText = Data()
    private let drained = DispatchGroup()
    /// The write end of stdin, for a run fed through a pipe.
    private let input: FileHandle?

    /// Starts `paste arguments…` with `stdin` as a regular file holding those bytes; with
    /// `ignoring`, through `sh -c 'trap "" SIGNALS; exec paste …'`, as `nohup` starts a program.
    init(_ paste: PasteRunner, _ arguments: [String], stdin bytes: Data, ignoring signals: [String] = []) throws {
        let file = paste.home.root.appendingPathComponent("stdin-\(UUID().uuidString)")
        try bytes.write(to: file)
        input = nil
        let handle = try FileHandle(forReadingFrom: file)
        try start(paste, arguments, stdin: handle, ignoring: signals)
        try? handle.close()
    }

    /// Starts `paste arguments…` with `stdin` (as UTF-8) in a regular file.
    convenience init(_ paste: PasteRunner, _ arguments: [String], stdin text: String) throws {
        try self.init(paste, arguments, stdin: Data(text.utf8))
    }

    /// Starts `paste arguments…` reading a pipe: `first` is written at once (on a thread of its
    /// own); then the pipe is closed when `closing`, else it stays open (a stream not over yet).
    init(_ paste: PasteRunner, _ arguments: [String], streaming first: Data, closing: Bool = false) throws {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        input = closing ? nil : writer
        try start(paste, arguments, stdin: pipe.fileHandleForReading)
        try? pipe.fileHandleForReading.close()
        Thread.detachNewThread {
            withoutSIGPIPE { try? writer.write(contentsOf: first) }
            if closing { try? writer.close() }
        }
    }

    private func start(_ paste: PasteRunner, _ arguments: [String], stdin: FileHandle, ignoring signals: [String] = [])
        throws
    {
        let executable: String
        let argv: [String]
        if signals.isEmpty {
            executable = BuiltProducts.path(of: "paste")
            argv = arguments
        } else {
            executable = "/bin/sh"
            argv =
                [
                    "-c", "trap '' \(signals.joined(separator: " ")); exec \"$0\" \"$@\"",
                    BuiltProducts.path(of: "paste"),
                ]
                + arguments
        }
        command = [executable] + argv
        let outPipe = Pipe()
        let errPipe = Pipe()
        process = try SpawnedProcess(
            executable, argv, environment: paste.environment, standardInput: .handle(stdin),
            standardOutput: .handle(outPipe.fileHandleForWriting), standardError: .handle(errPipe.fileHandleForWriting))
        // The child has its copies: ours would keep its pipes open past its end.
        try? outPipe.fileHandleForWriting.close()
        try? errPipe.fileHandleForWriting.close()
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
        process?.send(SIGKILL)
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
        process?.send(signal)
    }

    /// Waits for the end (at most `timeout` seconds); status is 128 + N for a death by signal N.
    func finish(timeout: Double = 60) throws -> ProcessResult {
        guard let status = process?.wait(seconds: timeout) else {
            process?.send(SIGKILL)
            throw ProcessTimedOut(command: command, seconds: timeout)
        }
        try? input?.close()
        _ = drained.wait(timeout: .now() + timeout)
        lock.lock()
        defer { lock.unlock() }
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
    /// The stored pastes whose content is exactly `text` (complete pastes of it): by the
    /// listing's sizes, then the bytes of those of the same size.
    func pastes(holding text: Data) throws -> [MockStoredPaste] {
        try pastes().filter { try $0.size == text.count && data($0) == text }
    }
}
