import Foundation
import PasteCore
import Stores
import SystemInterop
import TestSupport
import Testing

/// The recovery pass: what a run that died leaves is settled from what is on disk, and what no
/// metadata explains is removed once it is a minute old.
@Suite("Outbox recovery")
struct OutboxRecoveryTests {
    let home: TemporaryHome
    let folder: String
    /// The outbox as a run sees it right after the files were left (nothing is a minute old).
    let now: Outbox
    /// The same outbox two minutes later, by its clock.
    let later: Outbox

    init() throws {
        home = try TemporaryHome()
        folder = home.stateHome.appendingPathComponent("paste/outbox").path
        let policy = OutboxPolicy(random: { 0.5 })
        now = Outbox(folder: folder, policy: policy, now: { Date() })
        later = Outbox(folder: folder, policy: policy, now: { Date() + 120 })
    }

    var metadata: OutboxEntry.Metadata { OutboxEntry.Metadata(service: "pastie", created: .distantPast) }

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
    }

    /// An entry left by a run that died after `steps` (the claim is let go on return).
    func orphan(_ text: String, _ steps: (OutboxClaim) throws -> Void) throws -> OutboxEntry {
        let claim = try now.create(metadata)
        try claim.append(Array(text.utf8))
        try steps(claim)
        return claim.entry
    }

    @Test("in flight when its run died: held, one more attempt, the reason kept, durably")
    func inFlightBecomesHeld() throws {
        let entry = try orphan("sent?") { claim in
            try claim.finishContent()
            try claim.markInFlight()
        }
        let listing = try now.listing()
        #expect(listing.recovered.map(\.action) == [.held])
        #expect(listing.recovered.first?.message.contains("'paste --outbox send \(entry.id)' sends it anyway") == true)
        let item = try #require(listing.items.first)
        #expect(item.state == .held && item.entry.metadata.attempts == 1 && !item.isBusy)
        #expect(item.entry.metadata.lastError == OutboxFailure.interrupted.message)
        #expect(try now.dueEntries().isEmpty, "a held entry is never sent by --retry")
        #expect(try now.claim(id: entry.id).readContent() == Array("sent?".utf8))
    }

    @Test("a stream cut short, in flight or not, is removed at once: its text was never whole")
    func cutShortIsRemoved() throws {
        let writing = try orphan("part of a str") { _ in }
        let sending = try orphan("part of another") { try $0.markInFlight() }
        let listing = try now.listing()
        #expect(
            listing.recovered.map(\.action) == [.removedIncomplete(byteCount: 13), .removedIncomplete(byteCount: 15)])
        #expect(listing.recovered.map(\.id) == [writing.id, sending.id])
        #expect(listing.items.isEmpty)
        #expect(try files().isEmpty)
    }

    @Test("whole before anything was sent (its length written first): completed, retryable")
    func wholeBeforeSendingIsCompleted() throws {
        let entry = try orphan("whole") { try $0.finishContent() }
        let listing = try now.listing()
        #expect(listing.recovered.map(\.action) == [.completed])
        #expect(try now.dueEntries().map(\.name) == [entry.name])
        #expect(listing.items.first?.entry.metadata.attempts == 0)
    }

    @Test("a content without metadata is kept for a minute, then removed and reported with its size")
    func strandedContent() throws {
        try AtomicFile.createFolder(folder)
        try write("stranded text", to: "1738324800000-0000.content")
        var listing = try now.listing()
        #expect(listing.recovered.isEmpty && listing.items.isEmpty)
        #expect(try files() == ["1738324800000-0000.content"])
        listing = try later.listing()
        #expect(listing.recovered.map(\.action) == [.removedStranded(byteCount: 13)])
        #expect(listing.recovered.first?.message.contains("(13 bytes): a content without metadata") == true)
        #expect(try files().isEmpty)
    }

    @Test("unreadable metadata is a problem for a minute, then removed with its content")
    func corruptMetadata() throws {
        let good = try now.create(metadata, content: Array("good".utf8)).entry
        let bad = try now.create(metadata, content: Array("bad".utf8)).entry
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: bad.metadataPath))
        var listing = try now.listing()
        #expect(listing.items.map(\.entry.name) == [good.name])
        #expect(listing.problems == [.corruptMetadata(path: bad.metadataPath)])
        #expect(listing.problems.first?.exitStatus == .ioError)
        listing = try later.listing()
        #expect(listing.recovered.map(\.action) == [.removedCorrupt])
        #expect(try files() == [good.name + ".content", good.name + ".json"])
    }

    @Test("no temporary file survives a pass: an entry's at once, a stray one after a minute")
    func temporaries() throws {
        let entry = try now.create(metadata, content: Array("x".utf8)).entry
        try write("{\"half", to: "." + entry.name + ".json.tmp-123-abc")
        try write("half", to: ".9999999999999-0000.json.tmp-9-z")
        try write("junk", to: "leftover.tmp")
        try write("not ours", to: "notes.txt")
        var listing = try now.listing()
        #expect(listing.recovered.map(\.action) == [.removedTemporary])
        #expect(listing.items.map(\.entry.name) == [entry.name])
        listing = try later.listing()
        #expect(listing.recovered.map(\.action) == [.removedTemporary, .removedTemporary])
        #expect(try files() == [entry.name + ".content", entry.name + ".json", "notes.txt"])
        #expect(try files().allSatisfy { !$0.contains(".tmp") })
    }

    @Test("metadata without a content is removed after a minute")
    func orphanMetadata() throws {
        let entry = try now.create(metadata, content: Array("x".utf8)).entry
        try FileManager.default.removeItem(atPath: entry.contentPath)
        #expect(try now.listing().recovered.isEmpty)
        #expect(try later.listing().recovered.map(\.action) == [.removedOrphanMetadata])
        #expect(try files().isEmpty)
    }

    @Test("a planted .content symbolic link to a private file is never read, and removed")
    func plantedLink() throws {
        let secret = try home.write("PRIVATE KEY MATERIAL\n", to: "private/key")
        let entry = try now.create(metadata, content: Array("x".utf8)).entry
        try FileManager.default.removeItem(atPath: entry.contentPath)
        try FileManager.default.createSymbolicLink(atPath: entry.contentPath, withDestinationPath: secret)
        #expect(throws: StoreError.notRegularFile(path: entry.contentPath, kind: .symbolicLink)) {
            try now.claim(id: entry.id)
        }
        #expect(throws: StoreError.notRegularFile(path: entry.contentPath, kind: .symbolicLink)) {
            try now.forEachContentChunk(of: entry) { _ in Issue.record("the link was read") }
        }
        let listing = try now.listing()
        #expect(listing.recovered.map(\.action) == [.removedNotRegular(kind: .symbolicLink)])
        #expect(listing.items.isEmpty)
        #expect(try files().isEmpty)
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == "PRIVATE KEY MATERIAL\n")
    }

    @Test("a FIFO as a content is removed, never waited on")
    func fifoContent() throws {
        let entry = try now.create(metadata, content: Array("x".utf8)).entry
        try FileManager.default.removeItem(atPath: entry.contentPath)
        #expect(mkfifo(entry.contentPath, 0o600) == 0)
        let listing = try now.listing()
        #expect(listing.recovered.map(\.action) == [.removedNotRegular(kind: .fifo)])
        #expect(try files().isEmpty)
    }

    @Test("an entry written before states existed is whole and retryable")
    func legacyEntry() throws {
        try AtomicFile.createFolder(folder)
        try write("old text", to: "1738324800000-0000.content")
        try write(
            #"{"attempts":1,"created":"2025-01-31T12:00:00Z","private":false,"service":"pastie"}"#,
            to: "1738324800000-0000.json")
        let item = try #require(try now.listing().items.first)
        #expect(item.isWhole && item.state == .retryable && item.entry.metadata.state == nil)
        #expect(try now.dueEntries().map(\.name) == ["1738324800000-0000"])
    }

    @Test("a look that does not recover changes nothing")
    func lookOnly() throws {
        _ = try orphan("cut") { try $0.markInFlight() }
        try write("junk", to: "leftover.tmp")
        let before = try files()
        let listing = try later.listing(recovering: false)
        #expect(listing.recovered.isEmpty)
        #expect(listing.items.map(\.state) == [.inFlight])
        #expect(try files() == before)
    }

    @Test("what a live run holds is left alone by the pass")
    func liveEntryUntouched() throws {
        let live = try now.create(metadata, inFlight: true)
        try live.append(Array("streaming".utf8))
        let listing = try later.listing()
        #expect(listing.recovered.isEmpty)
        #expect(listing.items.map(\.isBusy) == [true])
        #expect(listing.items.first?.state == .inFlight)
        try live.finishContent()
        try live.recordSuccess()
        #expect(try files().isEmpty)
    }

    @Test("a damaged content (not the length recorded) is reported, kept, and not sent")
    func damagedContent() throws {
        let entry = try now.create(metadata, content: Array("twelve bytes".utf8)).entry
        let handle = try #require(FileHandle(forWritingAtPath: entry.contentPath))
        try handle.truncate(atOffset: 5)
        try handle.close()
        let listing = try now.listing()
        #expect(listing.problems == [.incompleteContent(path: entry.contentPath, expected: 12, actual: 5)])
        #expect(listing.items.map(\.isWhole) == [false])
        #expect(try now.dueEntries().isEmpty)
        #expect(throws: StoreError.incompleteContent(path: entry.contentPath, expected: 12, actual: 5)) {
            try now.claim(id: entry.id)
        }
    }
}
