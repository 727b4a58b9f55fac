import Foundation
import PasteCore
import Stores
import SystemInterop
import Testing
import TestSupport
import Upload

@testable import PasteCLI

/// One owner for stdin's outbox entry (issue 46, item 3): the entry the read makes is the one
/// the stream's tee continues, so its first bytes (`PasteInput.inMemoryLimit`) are written once,
/// and a failed upload leaves that same entry, whole.
@Suite("In process: stdin's outbox entry, made once", .temporaryHome)
struct InProcessJournalTests: ScopedSuite {
    /// More than stdin's in-memory limit: the read stops there and the rest streams.
    static let held = PasteInput.inMemoryLimit
    static let streamed: [UInt8] = {
        var bytes = [UInt8](repeating: 0x61, count: held + (1 << 20) + 4_321)
        for index in bytes.indices where index % 61 == 60 { bytes[index] = 0x0A }
        return bytes
    }()

    @Test("a stream that fails after its body: the entry the read made holds every byte, its start written once")
    func failedStreamKeepsOneEntry() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["--no-copy"], stdin: .pipe(Self.streamed), answers: [.http(500, body: "boom")])
        #expect(run.status == 69)
        let request = try #require(run.requests.first)
        #expect(request.content == Self.streamed)
        // The request's tee continued the entry: only what followed the start was written.
        #expect(request.teePath?.hasPrefix("/proc/self/fd/") == true)
        #expect(request.teedBytes == Int64(Self.streamed.count - Self.held))
        let entries = try harness.outboxEntries()
        #expect(entries.count == 1)
        #expect(entries.first?["state"] as? String == "held")
        #expect(entries.first?["bytes"] as? Int == Self.streamed.count)
        let contents = try harness.outboxContents()
        #expect(contents.count == 1)
        #expect(contents.first.map { Array($0.utf8) } == Self.streamed)
    }

    @Test("a stream that is made: the entry is gone, history has its size and digest")
    func madeStream() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(
            ["--no-copy"], stdin: .pipe(Self.streamed), answers: [.created("https://m.test/p/big")])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.requests.first?.teedBytes == Int64(Self.streamed.count - Self.held))
        #expect(try harness.outboxEntries().isEmpty)
        let record = try #require(try harness.history().first)
        #expect(record["bytes"] as? Int == Self.streamed.count)
        #expect(record["sha256"] as? String == ContentDigest.sha256(Self.streamed))
    }

    @Test("a stream refused before its body went out: the same entry, completed from stdin, retryable")
    func refusedStreamCompleted() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(
            ["--no-copy"], stdin: .pipe(Self.streamed),
            answers: [.refused()])
        #expect(run.status == 75)
        #expect(run.requests.first?.teedBytes == 0)
        #expect(try harness.outboxStates() == ["retryable"])
        #expect(try harness.outboxContents().map { Array($0.utf8) } == [Self.streamed])
    }

    @Test("a stream to a service that cannot stream it is read whole into the same entry")
    func spooledIntoTheEntry() throws {
        try harness.writeConfig(
            harnessConfig().replacingOccurrences(
                of: "content-field = content\n", with: "format = form\ncontent-field = content\n"))
        let run = try harness.run(["--no-copy"], stdin: .pipe(Self.streamed), answers: [.http(500, body: "boom")])
        #expect(run.status == 69, "stderr: \(run.err)")
        // A form carries the text as a value: read whole, sent whole, never teed.
        #expect(run.requests.first?.fields["content"].map { Array($0.utf8) } == Self.streamed)
        #expect(try harness.outboxStates() == ["held"])
        #expect(try harness.outboxContents().map { Array($0.utf8) } == [Self.streamed])
    }

    @Test("a stream whose start is past its service's max-size: 65, nothing sent, the entry the read made is gone")
    func refusedStartDropsTheEntry() throws {
        try harness.writeConfig(
            harnessConfig().replacingOccurrences(of: "result = body\n", with: "result = body\nmax-size = 1M\n"))
        let run = try harness.run(["--no-copy"], stdin: .pipe(Self.streamed))
        #expect(run.status == 65)
        #expect(run.requests.isEmpty)
        #expect(
            run.err.hasSuffix(" bytes but 'm' accepts at most 1048576; nothing was uploaded\n"), "stderr: \(run.err)")
        #expect(try harness.outboxEntries().isEmpty)
        let folder = home.stateHome.appendingPathComponent("paste/outbox").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty)
    }

    @Test("text that fits in memory: the entry is whole before the request, and gone once it is made")
    func smallText() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["--no-copy"], stdin: .pipe(Array("small\n".utf8)), answers: [.http(503, body: "x")])
        #expect(run.status == 75)
        #expect(run.requests.first?.teePath == nil)
        #expect(try harness.outboxContents() == ["small\n"])
    }

    @Test("a -f file too large for memory that fails: copied whole into one entry only then, retryable")
    func largeFileKeptOnFailure() throws {
        try harness.writeConfig(harnessConfig())
        let path = try home.write(String(decoding: Self.streamed, as: UTF8.self), to: "files/large.log")
        let run = try harness.run(["--no-copy", "-f", path], answers: [.http(503, body: "busy")])
        #expect(run.status == 75, "stderr: \(run.err)")
        #expect(run.requests.first?.teePath == nil)
        #expect(try harness.outboxStates() == ["retryable"])
        #expect(try harness.outboxEntries().first?["bytes"] as? Int == Self.streamed.count)
        #expect(try harness.outboxContents().map { Array($0.utf8) } == [Self.streamed])
    }
}
