import Foundation
import PasteCore
import Synchronization
import Testing
import SystemInterop
import TestSupport
import Upload

@testable import PasteCLI
@testable import Stores

/// A whole `paste` run in process: argv in, exit status, stdout, stderr, the requests sent and
/// the outbox and history out, against a scripted transport, with no spawn, no network, no
/// display and no sleep (the way swift-nio's `EmbeddedChannel` and swiftly's
/// `runWithMockedIO` drive theirs).
///
/// It enters where `main` does once the hidden subcommands are ruled out
/// (`PasteCommand.run(_:context:seams:)`), with its own `Context` (a temporary home's
/// environment, no `DISPLAY`, no session bus; `RecordingStreams` for stdout, stderr and stdin)
/// and its own `Seams`: `ScriptedTransport` answers each request as the test's script says
/// and records it, the backoff's wait only notes how long it was asked for, and the
/// background flush only notes which services it would have sent for. Everything else is
/// the real pipeline: plan, read, guard, build, send's retry decisions, fallback, record
/// (history, the outbox), deliver.
///
/// What only a process can show stays in the end-to-end suites that spawn the binary: real
/// signals, kill -9, detached clipboard owners, windows and desktops, libcurl's own failures.
struct PipelineHarness {
    let home: TemporaryHome
    /// Variables set (or, with nil, removed) on top of the home's environment.
    var extraEnvironment: [String: String?] = [:]
    /// Which of stdin (0), stdout (1) and stderr (2) the run takes for terminals.
    var terminals: Set<Int32> = []

    init(home: TemporaryHome) {
        self.home = home
    }

    /// The run's environment: the home's XDG folders, no display, no session bus, no colour.
    var environment: [String: String] {
        var extra = extraEnvironment
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"] where extra[name] == nil {
            extra[name] = .some(nil)
        }
        if extra["NO_COLOR"] == nil { extra["NO_COLOR"] = "1" }
        return home.environment(extra)
    }

    /// Writes the default config file and returns its path.
    @discardableResult
    func writeConfig(_ text: String) throws -> String {
        try home.write(text, to: "config/paste/config")
    }

    /// What one run did.
    struct Run {
        var status: Int32
        var out: String
        var err: String
        /// Each request, in the order sent.
        var requests: [ScriptedTransport.SentRequest]
        /// The backoffs the run waited, in order.
        var waits: [Duration]
        /// The services the background flush was started for.
        var flushed: [String]
        /// Answers of the script no request took.
        var unused: Int
    }

    /// What stdin holds for a run.
    enum Input {
        /// Nothing: `/dev/null`, as a launcher gives.
        case none
        /// A regular file holding these bytes.
        case file([UInt8])
        /// A pipe these bytes are written into (by a thread of the harness), then closed.
        case pipe([UInt8])

        static func text(_ text: String) -> Input { .file(Array(text.utf8)) }
    }

    /// Runs `paste ARGUMENTS` with `stdin`, the transport answering with `answers` in turn.
    ///
    /// - Parameter signal: delivered when the request of that number (1 for the first) arrives;
    ///   that request then fails as a stopped transfer does (`UploadError.interrupted`).
    func run(
        _ arguments: [String], stdin: Input = .none, answers: [ScriptedTransport.Answer] = [],
        signal: (request: Int, signal: Signal)? = nil
    ) throws -> Run {
        let input = try open(stdin)
        defer { input.close() }
        let streams = RecordingStreams(input: StandardStream(rawValue: input.descriptor), terminals: terminals)
        let signals = SimulatedSignals()
        let script = ScriptedTransport.Script(answers: answers, signal: signal, signals: signals)
        let waits = Mutex<[Duration]>([])
        let flushed = Mutex<[String]>([])
        let seams = Seams(
            transport: { options in ScriptedTransport(script: script, options: options) },
            sleep: { duration, _ in
                waits.withLock { $0.append(duration) }
                return true
            },
            launchFlush: { services, _, _ in flushed.withLock { $0 += services } }, signals: signals)
        let context = Context(
            environment: environment, userID: getuid(), commandRunner: CommandRunner(), asker: nil,
            streams: streams)
        let status = PasteCommand.run(["paste"] + arguments, context: context, seams: seams)
        input.finish()
        return Run(
            status: status, out: streams.out, err: streams.err, requests: script.sent,
            waits: waits.withLock { $0 }, flushed: flushed.withLock { $0 }, unused: script.unused)
    }

    /// The stdin of a run: its descriptor, and what to do once the run is over.
    private struct OpenInput {
        var descriptor: Int32
        var writer: Thread?
        var done: DispatchSemaphore?
        var close: () -> Void
        /// Reads what the run left in the pipe, so its writer can finish (a run refused before
        /// it read everything leaves the writer blocked otherwise).
        var drain: () -> Void = {}

        func finish() {
            drain()
            done?.wait()
        }
    }

    private func open(_ input: Input) throws -> OpenInput {
        switch input {
        case .none:
            let handle = try #require(FileHandle(forReadingAtPath: "/dev/null"))
            return OpenInput(descriptor: handle.fileDescriptor, close: { try? handle.close() })
        case .file(let bytes):
            let path = home.root.appendingPathComponent("stdin-\(UUID().uuidString)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let handle = try #require(FileHandle(forReadingAtPath: path))
            return OpenInput(descriptor: handle.fileDescriptor, close: { try? handle.close() })
        case .pipe(let bytes):
            let pipe = Pipe()
            let done = DispatchSemaphore(value: 0)
            let writer = pipe.fileHandleForWriting
            let thread = Thread {
                try? writer.write(contentsOf: Data(bytes))
                try? writer.close()
                done.signal()
            }
            thread.start()
            let reader = pipe.fileHandleForReading
            return OpenInput(
                descriptor: reader.fileDescriptor, writer: thread, done: done, close: { try? reader.close() },
                drain: { _ = reader.readDataToEndOfFile() })
        }
    }

    // MARK: - What the run left

    /// The outbox's entries (metadata decoded), oldest first.
    func outboxEntries() throws -> [[String: Any]] {
        let folder = home.stateHome.appendingPathComponent("paste/outbox")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return try names.sorted().filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map {
            let data = try Data(contentsOf: folder.appendingPathComponent($0))
            var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            // The id paste shows (a digest of the name), and the name.
            object["name"] = String($0.dropLast(".json".count))
            object["id"] = OutboxEntry.id(ofName: String($0.dropLast(".json".count)))
            return object
        }
    }

    /// The states of the outbox's entries, oldest first.
    func outboxStates() throws -> [String] {
        try outboxEntries().compactMap { $0["state"] as? String }
    }

    /// The contents of the outbox's entries, oldest first.
    func outboxContents() throws -> [String] {
        let folder = home.stateHome.appendingPathComponent("paste/outbox")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return try names.sorted().filter { $0.hasSuffix(".content") && !$0.hasPrefix(".") }.map {
            String(decoding: try Data(contentsOf: folder.appendingPathComponent($0)), as: UTF8.self)
        }
    }

    /// The history's records, decoded, oldest first.
    func history() throws -> [[String: Any]] {
        let path = home.stateHome.appendingPathComponent("paste/history")
        guard let data = try? Data(contentsOf: path) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }
}

extension ScopedSuite {
    /// The in-process harness in the test's home (`.temporaryHome`).
    var harness: PipelineHarness { PipelineHarness(home: home) }
}

// MARK: - Streams

/// A run's stdout and stderr, recorded; its stdin a descriptor of the harness's; no terminal
/// unless the test says so.
final class RecordingStreams: StandardStreams {
    private let output = Mutex<[UInt8]>([])
    private let error = Mutex<String>("")
    let input: StandardStream
    private let terminals: Set<Int32>

    init(input: StandardStream, terminals: Set<Int32> = []) {
        self.input = input
        self.terminals = terminals
    }

    func write(_ text: String, to stream: StandardStream) {
        if stream == .error {
            error.withLock { $0 += text }
        } else {
            output.withLock { $0 += Array(text.utf8) }
        }
    }

    func writeRaw(_ bytes: [UInt8]) throws(Errno) {
        output.withLock { $0 += bytes }
    }

    func isTerminal(_ stream: StandardStream) -> Bool { terminals.contains(stream.rawValue) }

    /// What stdout holds, as text.
    var out: String { String(decoding: output.withLock { $0 }, as: UTF8.self) }
    /// What stderr holds.
    var err: String { error.withLock { $0 } }
}

// MARK: - Transport

/// A transport that answers from a script and records every request (`Transport`).
///
/// A streamed body is read to its end (teed into its tee file, shown to the stream observer,
/// its end said) as libcurl's reader does, unless the answer is a failure before any byte went
/// out; a body in memory or in a file is read as it would be sent.
final class ScriptedTransport: Transport {
    /// One answer of the script.
    enum Answer: Sendable {
        /// An HTTP answer: its status, body and headers.
        case http(Int, body: String = "", headers: [String: String] = [:], isBodyTaken: Bool = true)
        /// A failure of the transfer.
        case failure(UploadError)

        /// 200 with `url` as the body (a `result = body` service).
        static func created(_ url: String) -> Answer { .http(200, body: url + "\n") }

        /// The connection to the harness's service `name` (`https://NAME.test/upload`) refused
        /// before anything was sent: a text goes on to its fallback at once.
        static func refused(_ name: String = "m") -> Answer {
            .failure(
                .couldNotConnect(url: "https://\(name).test/upload", detail: "connection refused", requestSent: false))
        }
    }

    /// A request as the server would have seen it.
    struct SentRequest: Sendable {
        var url: String
        var method: String
        var headers: [String]
        /// The text fields of a form, by name.
        var fields: [String: String]
        /// The content sent (a form's content field, a raw body, an embedded text).
        var content: [UInt8]
        /// The tee file of a streamed content, if any.
        var teePath: String?
        /// Bytes the tee wrote to its file (`TeeWriter.bytesWritten`).
        var teedBytes: Int64 = 0

        var text: String { String(decoding: content, as: UTF8.self) }
    }

    /// The answers and what was sent, shared by every transport the run makes.
    final class Script: Sendable {
        private let state: Mutex<(answers: [Answer], sent: [SentRequest])>
        let signal: (request: Int, signal: Signal)?
        let signals: SimulatedSignals

        init(answers: [Answer], signal: (request: Int, signal: Signal)?, signals: SimulatedSignals) {
            state = Mutex((answers, []))
            self.signal = signal
            self.signals = signals
        }

        var sent: [SentRequest] { state.withLock { $0.sent } }
        var unused: Int { state.withLock { $0.answers.count } }

        /// Records `request`; the next answer (a refused connection when the script ran out).
        func take(_ request: SentRequest) -> (number: Int, answer: Answer) {
            state.withLock { state in
                state.sent.append(request)
                let answer =
                    state.answers.isEmpty
                    ? Answer.failure(
                        .couldNotConnect(url: request.url, detail: "the script has no answer", requestSent: false))
                    : state.answers.removeFirst()
                return (state.sent.count, answer)
            }
        }

        func update(_ number: Int, _ body: (inout SentRequest) -> Void) {
            state.withLock { body(&$0.sent[number - 1]) }
        }
    }

    private let script: Script
    private let options: TransportOptions

    init(script: Script, options: TransportOptions) {
        self.script = script
        self.options = options
    }

    func send(
        _ request: UploadRequest, streamObserver: ((Span<UInt8>) -> Void)?, streamEnd: (() -> Void)?
    ) throws(UploadError) -> UploadResponse {
        var sent = SentRequest(
            url: request.url, method: request.method, headers: request.headers, fields: [:], content: [])
        var stream: ContentSource?
        switch request.body {
        case .multipart(let fields):
            for field in fields {
                switch field.value {
                case .text(let text): sent.fields[field.name] = text
                case .content(let source, _, _):
                    if case .stream = source { stream = source } else { sent.content = Self.bytes(of: source) }
                }
            }
        case .form(let fields):
            for field in fields { sent.fields[field.name] = field.value }
        case .raw(let source, _), .embedded(_, let source, _, _, _):
            if case .stream = source { stream = source } else { sent.content = Self.bytes(of: source) }
        case .rendered(let bytes, _):
            sent.content = bytes
        }
        if case .stream(_, _, let teePath, _) = stream { sent.teePath = teePath }
        let (number, answer) = script.take(sent)
        if let (at, signal) = script.signal, at == number {
            script.signals.deliver(signal)
            if options.shouldStop?() == true {
                throw .interrupted(url: request.url, bodySent: false)
            }
        }
        // A failure before any byte went out reads nothing; anything else reads the stream as
        // libcurl would: teed, observed, its end said.
        let readsBody: Bool =
            switch answer {
            case .failure(let error): error.mayHaveReachedServer
            case .http: true
            }
        if readsBody, case .stream(let descriptor, let prefix, let teePath, let holdsPrefix) = stream {
            let rest = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readDataToEndOfFile()
            let whole = prefix + Array(rest)
            if let teePath {
                do throws(Errno) {
                    let tee = try TeeWriter(path: teePath, continuing: holdsPrefix ? prefix.count : 0)
                    var failure: Errno?
                    whole.withUnsafeBytes { bytes in
                        do throws(Errno) { try tee.append(bytes) } catch { failure = error }
                    }
                    if let failure { throw failure }
                    try tee.flush()
                    script.update(number) { $0.teedBytes = tee.bytesWritten }
                } catch {
                    throw .teeFailed(path: teePath, errno: error, requestSent: true)
                }
            }
            script.update(number) { $0.content = whole }
            whole.withUnsafeBufferPointer { streamObserver?($0.span) }
            streamEnd?()
        }
        switch answer {
        case .failure(let error):
            throw error
        case .http(let status, let body, let headers, let isBodyTaken):
            return UploadResponse(
                status: status, headers: headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
                effectiveURL: request.url, body: Array(body.utf8), isBodyTaken: isBodyTaken)
        }
    }

    func sendAll(_ requests: [UploadRequest], maxConcurrent: Int) -> [Result<UploadResponse, UploadError>] {
        requests.map { request in
            Result { () throws(UploadError) in try send(request, streamObserver: nil, streamEnd: nil) }
        }
    }

    /// The bytes of a content held in memory or in a file.
    private static func bytes(of source: ContentSource) -> [UInt8] {
        switch source {
        case .bytes(let bytes): bytes
        case .file(let path, _): (try? Array(Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
        case .stream: []
        }
    }
}
