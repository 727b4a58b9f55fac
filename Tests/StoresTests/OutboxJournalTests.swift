import Foundation
import PasteCore
import Stores
import SystemInterop
import TestSupport
import Testing

/// `Outbox.journal(_:_:)`, the one call a run makes its entries with: stdin about to be read, bytes
/// in memory, a file too large for memory copied in chunks.
@Suite("Outbox: the one door a run's text comes in by", .temporaryHome)
struct OutboxJournalTests: ScopedSuite {
    let context = Context(environment: TemporaryHome.current.environment())

    var outbox: Outbox { Outbox(context: context) }

    var metadata: OutboxEntry.Metadata { OutboxEntry.Metadata(service: "pastie", created: .distantPast) }

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: context.outboxDirectory).sorted()
    }

    /// The names of `claim`'s content and metadata files.
    static func names(_ claim: OutboxClaim) -> [String] {
        [claim.contentPath, claim.entry.metadataPath].map { URL(fileURLWithPath: $0).lastPathComponent }
    }

    @Test("bytes: whole and retryable at once, with their length")
    func bytes() throws {
        let text = Array("kept on failure\n".utf8)
        let claim = try outbox.journal(.bytes(text), metadata)
        #expect(claim.state == .retryable)
        #expect(try claim.isWhole())
        #expect(try claim.readContent() == text)
        #expect(try files() == Self.names(claim))
    }

    @Test("a file larger than a chunk: copied byte-exact and whole, nothing temporary left")
    func file() throws {
        // Three chunks and a bit (`FileSystem.forEachChunk` reads 1 MiB at a time).
        let bytes = (0..<(3 << 20) + 4097).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        let path = TemporaryHome.current.root.path + "/large.log"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let claim = try outbox.journal(.file(path: path), metadata)
        #expect(try claim.isWhole())
        #expect(try claim.contentSize() == Int64(bytes.count))
        #expect(try claim.readContent() == bytes)
        #expect(try files() == Self.names(claim))
    }

    @Test("a file that cannot be read: cannotRead naming it, and no entry left behind")
    func missingFile() throws {
        let path = TemporaryHome.current.root.path + "/gone.log"
        #expect(throws: StoreError.cannotRead(path: path, errno: .noSuchFileOrDirectory)) {
            _ = try outbox.journal(.file(path: path), metadata)
        }
        #expect(try files().isEmpty)
    }

    @Test("reading: not whole until the read says so; then whole with what was appended")
    func reading() throws {
        let claim = try outbox.journal(.reading, metadata)
        #expect(try !claim.isWhole())
        // Nothing a recovery pass would adopt yet: only the content and the reading metadata.
        #expect(try !files().contains(Self.names(claim)[1]))
        try claim.append(Array("piped ".utf8))
        try claim.append(Array("text\n".utf8))
        try claim.finishReading()
        #expect(try claim.isWhole())
        #expect(try claim.readContent() == Array("piped text\n".utf8))
        #expect(try files().contains(Self.names(claim)[1]))
    }
}
