import Foundation
import PasteCore
import Stores
import SystemInterop
import TestSupport
import Testing

/// The state folder is not trusted blindly: links are not followed, FIFOs and devices are errors
/// (never a hang), what belongs to another user is refused, and what is ours but open to others
/// is made private again.
@Suite("Store hardening")
struct StoreHardeningTests {
    let home: TemporaryHome
    let context: Context
    /// A user id that owns nothing here.
    static let stranger: uid_t = 4242

    init() throws {
        home = try TemporaryHome()
        context = Context(environment: home.environment())
    }

    var metadata: OutboxEntry.Metadata { OutboxEntry.Metadata(service: "pastie", created: .distantPast) }
    var record: HistoryRecord {
        HistoryRecord(time: Date(), service: "s", url: "https://p.example/1", byteCount: 1, sha256: "ab")
    }

    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    /// Runs `body` on a thread of its own and fails the test if it has not returned within ten
    /// seconds: what is checked is that a FIFO never makes paste wait.
    static func returnsPromptly(_ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return done.wait(timeout: .now() + 10) == .success
    }

    @Test("an outbox folder that is a symbolic link is refused (74), even to a folder of ours")
    func linkedOutboxFolder() throws {
        let elsewhere = home.root.appendingPathComponent("elsewhere").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: context.pasteStateDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: context.outboxDirectory, withDestinationPath: elsewhere)
        let refusal = StoreError.notAFolder(path: context.outboxDirectory, kind: .symbolicLink)
        #expect(throws: refusal) { try Outbox(context: context).create(metadata, content: [1]) }
        #expect(throws: refusal) { try Outbox(context: context).listing() }
        #expect(refusal.exitStatus == .ioError)
        #expect(refusal.message == "'\(context.outboxDirectory)' is a symbolic link, not a folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    @Test("an outbox folder of another user is refused; one of ours open to others is made 0700")
    func outboxFolderOwnership() throws {
        try FileManager.default.createDirectory(atPath: context.outboxDirectory, withIntermediateDirectories: true)
        chmod(context.outboxDirectory, 0o755)
        _ = try Outbox(context: context).listing()
        #expect(try Self.mode(context.outboxDirectory) == 0o700)

        #expect(chown(context.outboxDirectory, Self.stranger, Self.stranger) == 0)
        #expect(throws: StoreError.notOwned(path: context.outboxDirectory, ownerID: UInt32(Self.stranger))) {
            try Outbox(context: context).create(metadata, content: [1])
        }
    }

    @Test("a FIFO as the history is an error (74) for --history and every paste, never a hang")
    func fifoHistory() throws {
        try FileManager.default.createDirectory(atPath: context.pasteStateDirectory, withIntermediateDirectories: true)
        #expect(mkfifo(context.historyPath, 0o600) == 0)
        let history = History(context: context)
        let expected = StoreError.notRegularFile(path: context.historyPath, kind: .fifo)
        let outcomes = ResultBox()
        let record = record
        #expect(
            Self.returnsPromptly {
                outcomes.record("read") { _ = try history.records() }
                outcomes.record("append") { try history.append(record) }
                outcomes.record("recent") {
                    _ = try history.recent(sha256: "ab", service: "s", options: "", within: .seconds(60))
                }
            })
        for operation in ["read", "append", "recent"] {
            #expect(outcomes.error(operation) == expected, "\(operation)")
        }
        #expect(expected.exitStatus == .ioError)
        #expect(expected.message == "'\(context.historyPath)' is a FIFO, not a regular file")
    }

    @Test("a symbolic link as the history or its lock is never followed")
    func linkedHistory() throws {
        let target = try home.write("precious\n", to: "precious")
        try FileManager.default.createDirectory(atPath: context.pasteStateDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: context.historyPath, withDestinationPath: target)
        let history = History(context: context)
        #expect(throws: StoreError.notRegularFile(path: context.historyPath, kind: .symbolicLink)) {
            try history.append(record)
        }
        // The lock, which `--delete` takes (an append takes none: one `O_APPEND` write), is never
        // followed either.
        try FileManager.default.removeItem(atPath: context.historyPath)
        try FileManager.default.createSymbolicLink(atPath: context.historyPath + ".lock", withDestinationPath: target)
        try history.append(record)
        #expect(throws: StoreError.notRegularFile(path: context.historyPath + ".lock", kind: .symbolicLink)) {
            try history.remove(url: record.url)
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
    }

    @Test("a history of another user is refused; ours open to others is made 0600 again")
    func historyOwnership() throws {
        let history = History(context: context)
        try history.append(record)
        chmod(context.historyPath, 0o644)
        try history.append(record)
        #expect(try Self.mode(context.historyPath) == 0o600)
        #expect(try history.records().count == 2)

        #expect(chown(context.historyPath, Self.stranger, Self.stranger) == 0)
        #expect(throws: StoreError.notOwned(path: context.historyPath, ownerID: UInt32(Self.stranger))) {
            try history.records()
        }
    }

    @Test("a folder where the history should be is refused without reading it")
    func folderAsHistory() throws {
        try FileManager.default.createDirectory(atPath: context.historyPath, withIntermediateDirectories: true)
        let expected = StoreError.notRegularFile(path: context.historyPath, kind: .directory)
        #expect(throws: expected) { try History(context: context).records() }
        #expect(throws: expected) { try History(context: context).append(record) }
    }
}

/// The error each operation run on the watched thread ended with.
final class ResultBox: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var errors: [String: StoreError] = [:]

    /// Runs `body`, keeping the store error it throws under `name`.
    func record(_ name: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            lock.lock()
            defer { lock.unlock() }
            errors[name] = error as? StoreError
        }
    }

    func error(_ name: String) -> StoreError? {
        lock.lock()
        defer { lock.unlock() }
        return errors[name]
    }
}
