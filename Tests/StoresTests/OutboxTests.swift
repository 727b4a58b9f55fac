import Foundation
import PasteCore
import Stores
import SystemInterop
import TestSupport
import Testing

/// The outbox as a journal: an entry made before its request, marked in flight, removed once the
/// URL is recorded, or settled by its failure; the commands on it (list, show, send, drop).
@Suite("Outbox journal", .temporaryHome)
struct OutboxTests: ScopedSuite {
    let context = Context(environment: TemporaryHome.current.environment(), now: { OutboxTests.pinned })
    static let pinned = Date(timeIntervalSince1970: 1_738_324_800)
    /// A policy whose jitter is fixed (the random number is always one half).
    static let policy = OutboxPolicy(maximumAttempts: 3, random: { 0.5 })

    var outbox: Outbox { Outbox(context: context, policy: Self.policy) }

    var metadata: OutboxEntry.Metadata {
        OutboxEntry.Metadata(
            service: "pastie", title: "notes", language: "swift", isPrivate: true, expiry: "86400",
            created: .distantPast)
    }

    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: context.outboxDirectory).sorted()
    }

    // MARK: - The journal

    @Test("an entry made before its request is whole and retryable, 0600 in a 0700 folder, busy while held")
    func createWithContent() throws {
        let text = Array("text to paste\n".utf8)
        let claim = try outbox.create(metadata, content: text)
        #expect(claim.state == .retryable)
        #expect(claim.entry.name == "1738324800000-0000")
        #expect(try Data(contentsOf: URL(fileURLWithPath: claim.contentPath)) == Data(text))
        #expect(try Self.mode(context.outboxDirectory) == 0o700)
        #expect(try Self.mode(claim.contentPath) == 0o600)
        #expect(try Self.mode(claim.entry.metadataPath) == 0o600)
        let stored = try Self.json(claim.entry.metadataPath)
        #expect(stored["state"] as? String == "retryable")
        #expect(stored["bytes"] as? Int == text.count)
        #expect(stored["created"] as? String == "2025-01-31T12:00:00Z")
        #expect(stored["private"] as? Bool == true && stored["title"] as? String == "notes")

        // Held by this run: listed busy, never due, never claimable by another.
        let listed = try #require(try outbox.listing().items.first)
        #expect(listed.isBusy && listed.id == claim.id && listed.preview == "text to paste")
        #expect(try outbox.dueEntries().isEmpty)
        #expect(try outbox.claimDue(claim.entry) == nil)
        #expect(throws: StoreError.entryBusy(id: claim.id)) { try outbox.claim(id: claim.id) }

        try claim.markInFlight()
        #expect(try Self.json(claim.entry.metadataPath)["state"] as? String == "in-flight")
        try claim.recordSuccess()
        #expect(try files().isEmpty)
    }

    @Test("a large sent entry leaves the listing at once; its content is removed once the claim lets it go")
    func largeEntryRemovedInBackground() throws {
        var claim: OutboxClaim? = try outbox.create(metadata, inFlight: true)
        let content = [UInt8](repeating: 0x61, count: Int(1 << 20))
        for _ in 0..<64 { try claim!.append(content) }
        _ = try claim!.finishContent()
        let contentPath = claim!.contentPath
        try claim!.recordSuccess()
        // Out of the entry's way at once: no entry listed, the content under a hidden name.
        #expect(try outbox.listing().items.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: contentPath))
        let hidden = try files()
        #expect(hidden.count == 1 && hidden.allSatisfy { $0.hasPrefix(".") && $0.contains(".tmp-") })
        claim = nil  // the lock goes: the detached remover may take the file
        try waitUntil("the removed entry's content gone", timeout: 20) { try files().isEmpty }
        #expect(try files().isEmpty)
    }

    @Test("a stream goes in through the tee and appends; it is whole only once finished")
    func streamedEntry() throws {
        let claim = try outbox.create(metadata, inFlight: true)
        #expect(claim.state == .inFlight)
        #expect(try Self.json(claim.entry.metadataPath)["bytes"] == nil)
        #expect(try !claim.isWhole())
        // The uploader tees into the path with a descriptor of its own.
        let tee = try #require(FileHandle(forWritingAtPath: claim.contentPath))
        try tee.seekToEnd()
        try tee.write(contentsOf: Data("streamed ".utf8))
        try tee.close()
        try claim.append(Array("bytes".utf8))
        #expect(try claim.finishContent(sha256: "ab12") == 14)
        #expect(try claim.isWhole())
        let stored = try Self.json(claim.entry.metadataPath)
        #expect(stored["bytes"] as? Int == 14 && stored["sha256"] as? String == "ab12")
        #expect(try claim.readContent() == Array("streamed bytes".utf8))
    }

    @Test("a failure settles the entry durably: attempts, sanitized message, next attempt after backoff")
    func recordFailure() throws {
        let claim = try outbox.create(metadata, content: Array("x".utf8), inFlight: true)
        #expect(!claim.isDurable)
        let failure = OutboxFailure(verdict: .retryable, message: "cannot connect:\u{1b}[31m refused\n\tnow")
        let entry = try claim.recordFailure(failure)
        #expect(claim.isDurable)
        #expect(entry.metadata.state == .retryable && entry.metadata.attempts == 1)
        #expect(entry.metadata.lastError == "cannot connect: refused now")
        #expect(entry.metadata.lastAttempt == Self.pinned)
        // A minute, equal jitter at one half: 45 s.
        #expect(entry.metadata.nextAttempt == Self.pinned.addingTimeInterval(45))
        let stored = try Self.json(entry.metadataPath)
        #expect(stored["next_attempt"] as? String == "2025-01-31T12:00:45Z")
        #expect(stored["last_error"] as? String == "cannot connect: refused now")
    }

    /// Makes an entry, records one failure, and lets the claim go (the run ends).
    func failedEntry(_ text: String, _ verdict: OutboxFailure.Verdict, in outbox: Outbox) throws -> OutboxEntry {
        let claim = try outbox.create(metadata, content: Array(text.utf8), inFlight: true)
        return try claim.recordFailure(OutboxFailure(verdict: verdict, message: "failed"))
    }

    @Test("a held failure waits for the person; a retryable one waits for its backoff")
    func dueOnlyWhenRetryableAndTimely() throws {
        let held = try failedEntry("held", .held, in: outbox)
        let retryable = try failedEntry("retry", .retryable, in: outbox)
        #expect(held.metadata.state == .held && retryable.metadata.state == .retryable)
        #expect(try outbox.dueEntries().isEmpty, "the backoff is not over")
        #expect(try outbox.claimDue(retryable) == nil)

        let later = Outbox(folder: context.outboxDirectory, policy: Self.policy, now: { OutboxTests.pinned + 46 })
        #expect(try later.dueEntries().map(\.name) == [retryable.name])
        #expect(try later.claimDue(held) == nil, "held entries are never sent by --retry")
        // The person sends the held one by its id.
        let sent = try later.claim(id: held.id)
        #expect(sent.state == .held)
        #expect(try sent.readContent() == Array("held".utf8))
    }

    @Test("after retry-max-attempts failures a retryable entry is held")
    func attemptsRunOut() throws {
        let claim = try outbox.create(metadata, content: Array("x".utf8), inFlight: true)
        var states: [OutboxEntry.State?] = []
        for _ in 0..<3 {
            states.append(try claim.recordFailure(OutboxFailure(verdict: .retryable, message: "503")).metadata.state)
        }
        #expect(states == [.retryable, .retryable, .held])
        #expect(claim.entry.metadata.attempts == 3 && claim.entry.metadata.nextAttempt == nil)
    }

    @Test("a durable entry's in-flight mark is durable too, so a sent entry never comes back retryable")
    func durableStaysDurable() throws {
        let entry = try failedEntry("x", .retryable, in: outbox)
        let later = Outbox(folder: context.outboxDirectory, policy: Self.policy, now: { OutboxTests.pinned + 3600 })
        let again = try #require(try later.claimDue(entry))
        #expect(again.isDurable)
        try again.markInFlight()
        #expect(try Self.json(entry.metadataPath)["state"] as? String == "in-flight")
    }

    @Test("binary content is kept byte for byte with its type, and shows no preview")
    func binaryContent() throws {
        var image = metadata
        image.contentType = "image/png"
        let bytes = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let claim = try outbox.create(image, content: bytes)
        let text = try outbox.create(metadata, content: Array("\n  first line  \nsecond".utf8))
        let items = try outbox.listing().items
        #expect(items.map(\.preview) == [nil, "first line"])
        #expect(items.first?.entry.metadata.contentType == "image/png")
        #expect(try Self.json(claim.entry.metadataPath)["type"] as? String == "image/png")
        var shown: [UInt8] = []
        try outbox.forEachContentChunk(of: claim.entry) { shown += $0 }
        #expect(shown == bytes)
        withExtendedLifetime(text) {}
    }

    @Test("ids are seven hex digits, stable, found by any unique start of four or more, or by name")
    func ids() throws {
        let claims = try (0..<3).map { try outbox.create(metadata, content: Array("entry \($0)".utf8)) }
        let ids = claims.map(\.id)
        #expect(ids.allSatisfy { $0.count == 7 && $0.allSatisfy(\.isHexDigit) })
        #expect(Set(ids).count == 3)
        #expect(try outbox.listing().items.map(\.id) == ids)
        #expect(try outbox.listing().items.map(\.id) == ids, "the same ids on every listing")
        #expect(try outbox.find(id: ids[1]).name == claims[1].entry.name)
        #expect(try outbox.find(id: String(ids[2].prefix(4)).uppercased()).name == claims[2].entry.name)
        #expect(try outbox.find(id: claims[0].entry.name).id == ids[0])
        #expect(throws: StoreError.noSuchEntry(id: "abc")) { try outbox.find(id: "abc") }
        #expect(throws: StoreError.noSuchEntry(id: "0000000")) { try outbox.find(id: "0000000") }
        #expect(StoreError.noSuchEntry(id: "x").exitStatus == .noInput)
    }

    @Test("an id that starts several entries' ids is ambiguous (exit 64)")
    func ambiguousIDs() throws {
        // Names whose ids share their first four digits: found by making entries until two do
        // (the names, and so the ids, are the same on every run: the clock is pinned).
        var firstOfPrefix: [String: OutboxEntry] = [:]
        var twins: [OutboxEntry] = []
        for index in 0..<2000 where twins.isEmpty {
            let entry = try outbox.create(metadata, content: Array("\(index)".utf8)).entry
            let prefix = String(entry.id.prefix(4))
            if let first = firstOfPrefix[prefix] { twins = [first, entry] }
            firstOfPrefix[prefix] = entry
        }
        try #require(twins.count == 2)
        let prefix = String(twins[0].id.prefix(4))
        #expect {
            try outbox.find(id: prefix)
        } throws: { error in
            guard case .ambiguousEntry(prefix, let matches) = error as? StoreError else { return false }
            return Set(matches) == Set(twins.map(\.id)) && (error as? StoreError)?.exitStatus == .usage
        }
        #expect(try outbox.find(id: twins[0].id).name == twins[0].name)
    }

    @Test("drop removes one entry, drop --all every entry not held by a run; a busy one stays")
    func drop() throws {
        let kept = try outbox.create(metadata, content: Array("busy".utf8))
        var ids: [String] = []
        for index in 0..<3 {
            let claim = try outbox.create(metadata, content: Array("\(index)".utf8))
            try claim.recordFailure(OutboxFailure(verdict: .held, message: "500"))
            ids.append(claim.id)
        }
        #expect(try outbox.drop(id: ids[0]).id == ids[0])
        #expect(throws: StoreError.entryBusy(id: kept.id)) { try outbox.drop(id: kept.id) }
        let result = try outbox.dropAll()
        #expect(result.dropped == Array(ids.dropFirst()))
        #expect(result.busy == [kept.id])
        #expect(try outbox.listing().items.map(\.id) == [kept.id])
        #expect(try files().count == 2)
    }

    @Test("a claim is exclusive across descriptors, and refused once the entry is gone")
    func claims() throws {
        let entry = try outbox.create(metadata, content: Array("x".utf8)).entry
        let first = try #require(try outbox.claimDue(entry))
        #expect(try Outbox(context: context).claimDue(entry) == nil)
        try first.markInFlight()
        try first.recordSuccess()
        // A second run that listed the entry before it was removed finds nothing to send.
        #expect(try outbox.claimDue(entry) == nil)
        #expect(throws: StoreError.noSuchEntry(id: entry.id)) { try outbox.claim(id: entry.id) }
        #expect(try files().isEmpty)
    }
}
