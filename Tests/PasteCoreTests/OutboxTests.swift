import Foundation
import PasteCore
import TestSupport
import Testing

@Suite("Outbox", .temporaryHome)
struct OutboxTests {
    let context = Context(environment: TemporaryHome.current.environment(), now: { OutboxTests.pinned })
    static let pinned = Date(timeIntervalSince1970: 1_738_324_800)

    var metadata: OutboxEntry.Metadata {
        OutboxEntry.Metadata(
            service: "pastie", title: "notes", language: "swift", isPrivate: true, expiry: "1day",
            created: .distantPast)
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test("stored entries come back in creation order with their content and metadata, all 0600")
    func storeAndList() throws {
        let outbox = Outbox(context: context)
        #expect(try outbox.entries().isEmpty)
        for index in 0..<5 {
            try outbox.store(content: Array("text \(index)".utf8), metadata: metadata, failure: "timed out")
        }
        let entries = try outbox.entries()
        #expect(entries.map(\.name) == (0..<5).map { "1738324800000-000\($0)" })
        let first = try #require(entries.first)
        #expect(first.metadata.title == "notes" && first.metadata.isPrivate && first.metadata.expiry == "1day")
        #expect(first.metadata.created == OutboxTests.pinned)
        #expect(first.metadata.attempts == 1 && first.metadata.lastError == "timed out")
        #expect(try Data(contentsOf: URL(fileURLWithPath: first.contentPath)) == Data("text 0".utf8))
        #expect(try mode(context.outboxDirectory) == 0o700)
        #expect(try mode(first.contentPath) == 0o600)
        #expect(try mode(first.metadataPath) == 0o600)
    }

    @Test("a streamed entry is invisible until committed; a discarded one leaves nothing")
    func writer() throws {
        let outbox = Outbox(context: context)
        let writer = try outbox.makeEntry(metadata)
        // The uploader tees into the path with its own descriptor.
        let tee = try #require(FileHandle(forWritingAtPath: writer.contentPath))
        try tee.seekToEnd()
        try tee.write(contentsOf: Data("streamed ".utf8))
        try tee.close()
        try writer.append(Array("bytes".utf8))
        #expect(try outbox.entries().isEmpty)
        let entry = try writer.commit(failure: "HTTP 503")
        #expect(try outbox.entries() == [entry])
        #expect(try Data(contentsOf: URL(fileURLWithPath: entry.contentPath)) == Data("streamed bytes".utf8))

        let abandoned = try outbox.makeEntry(metadata)
        try abandoned.discard()
        #expect(!FileManager.default.fileExists(atPath: abandoned.contentPath))
        #expect(try outbox.entries().count == 1)
    }

    @Test("an entry claimed by one run cannot be claimed by another, and is gone once removed")
    func claims() throws {
        let outbox = Outbox(context: context)
        let entry = try outbox.store(content: Array("x".utf8), metadata: metadata)
        var first = try outbox.claim(entry)
        #expect(first != nil)
        #expect(try Outbox(context: context).claim(entry) == nil)
        #expect(try first?.content() == Array("x".utf8))
        try outbox.remove(try #require(first?.entry))
        first = nil
        // A second run that listed the entry before it was removed finds nothing to send.
        #expect(try outbox.claim(entry) == nil)
        #expect(try outbox.entries().isEmpty)
    }

    @Test("a stale claim on a content file that was replaced is refused")
    func staleClaim() throws {
        let outbox = Outbox(context: context)
        let entry = try outbox.store(content: Array("x".utf8), metadata: metadata)
        let claim = try #require(try outbox.claim(entry))
        // Another run finished the entry and a new file took the name: the held lock is on
        // the old inode, and a fresh claim must check it is still the entry's file.
        try FileManager.default.removeItem(atPath: entry.contentPath)
        #expect(try outbox.claim(entry) == nil)
        withExtendedLifetime(claim) {}
    }

    @Test("failed attempts are counted with their last error")
    func markFailed() throws {
        let outbox = Outbox(context: context)
        let entry = try outbox.store(content: Array("x".utf8), metadata: metadata)
        let once = try outbox.markFailed(entry, error: "connection refused")
        let twice = try outbox.markFailed(once, error: "HTTP 429")
        let listed = try #require(try outbox.entries().first)
        #expect(listed.metadata.attempts == 2 && twice.metadata.attempts == 2)
        #expect(listed.metadata.lastError == "HTTP 429")
        #expect(listed.metadata.lastAttempt == OutboxTests.pinned)
    }

    @Test("unreadable metadata is reported without hiding the other entries")
    func corruptMetadata() throws {
        let outbox = Outbox(context: context)
        let good = try outbox.store(content: Array("a".utf8), metadata: metadata)
        let bad = try outbox.store(content: Array("b".utf8), metadata: metadata)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: bad.metadataPath))
        let listing = try outbox.listing()
        #expect(listing.entries.map(\.name) == [good.name])
        #expect(listing.problems == [.corruptMetadata(path: bad.metadataPath)])
        #expect(listing.problems.first?.exitStatus == .ioError)
    }
}
