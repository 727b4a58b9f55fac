import Foundation
import PasteCore
import Stores
import TestSupport
import Testing

/// The temporaries a killed writer leaves beside an entry's metadata (`.N.json.tmp-…`) go with
/// the entry: a claim that sends an entry another run made removes them when it removes the
/// entry, so none is stranded when a recovery pass found the entry busy meanwhile.
@Suite("Outbox temporaries of killed writers", .temporaryHome)
struct OutboxTemporarySweepTests: OutboxInAHome {
    /// A waiting entry, its run gone, with the temporaries a writer killed mid-write left.
    func entryWithDeadWritersFiles(_ text: String) throws -> OutboxEntry {
        let entry = try outbox.create(
            OutboxEntry.Metadata(service: "pastie", created: Date()), content: Array(text.utf8)
        ).entry
        for tag in ["4194000-1x2y3z", "pending"] {
            try Data("{".utf8).write(to: URL(fileURLWithPath: folder + "/." + entry.name + ".json.tmp-" + tag))
        }
        return entry
    }

    /// The temporaries of the entry named `name` in the folder now.
    func temporaries(of name: String) throws -> [String] {
        try files().filter { $0.hasPrefix("." + name + ".json.tmp-") }
    }

    @Test("claiming an entry another run made removes that run's temporaries at once; sent, nothing is left")
    func claimTakesTheTemporaries() throws {
        let entry = try entryWithDeadWritersFiles("waiting")
        let claim = try #require(try outbox.claimDue(entry))
        #expect(try files() == [entry.name + ".content", entry.name + ".json"])
        try claim.markInFlight()
        try claim.recordSuccess()
        #expect(try files().isEmpty)
    }

    @Test("a pass that finds the entry busy finds no dead writer's file beside it, nor after the holder is done")
    func busyPassThenRemoval() throws {
        let entry = try entryWithDeadWritersFiles("held by a flush")
        let claim = try outbox.claim(id: entry.id)
        let listing = try outbox.listing()
        #expect(listing.items.map(\.isBusy) == [true])
        #expect(try temporaries(of: entry.name).isEmpty)
        try claim.recordSuccess()
        #expect(try files().isEmpty)
    }

    @Test("a claim that fails again keeps the entry, without the dead writers' files")
    func failedSend() throws {
        let entry = try entryWithDeadWritersFiles("failed again")
        let claim = try #require(try outbox.claimDue(entry))
        try claim.markInFlight()
        try claim.recordFailure(OutboxFailure(verdict: .retryable, message: "refused"))
        #expect(try files() == [entry.name + ".content", entry.name + ".json"])
    }

    @Test("the files of an entry a live run holds are left alone by a claim that cannot take it")
    func liveWritersFilesStay() throws {
        // Being read (its reading file), and being written (a metadata write under way).
        let reading = try outbox.createReading(OutboxEntry.Metadata(service: "pastie", created: Date()))
        let writing = try outbox.create(OutboxEntry.Metadata(service: "pastie", created: Date()))
        let underWay = folder + "/." + writing.entry.name + ".json.tmp-4194001-live"
        try Data("{".utf8).write(to: URL(fileURLWithPath: underWay))
        #expect(try outbox.claimDue(writing.entry) == nil)
        #expect(throws: StoreError.self) { try outbox.claim(id: writing.id) }
        _ = try outbox.listing()
        #expect(try temporaries(of: reading.entry.name) == ["." + reading.entry.name + ".json.tmp-reading"])
        #expect(try temporaries(of: writing.entry.name) == ["." + writing.entry.name + ".json.tmp-4194001-live"])
        withExtendedLifetime((reading, writing)) {}
    }
}
