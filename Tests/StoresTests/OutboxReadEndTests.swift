import Foundation
import PasteCore
import Stores
import TestSupport
import Testing

/// The end of stdin said before its last bytes move (`OutboxClaim.markReadEnded(byteCount:)`):
/// a run killed after they landed leaves a whole entry, one killed before leaves none, and
/// never a whole text that no pass can tell from a part.
@Suite("Outbox: the end of a read said before it", .temporaryHome)
struct OutboxReadEndTests: OutboxInAHome {
    /// An entry being read whose run said the end at `said` bytes, then died with `landed` in.
    func killedReading(said: String, landed: String) throws -> OutboxEntry {
        let claim = try outbox.createReading(OutboxEntry.Metadata(service: "pastie", created: Date()))
        try claim.markReadEnded(byteCount: Int64(said.utf8.count))
        #expect(claim.hasReadEnded)
        try claim.append(Array(landed.utf8))
        return claim.entry
    }

    @Test("killed once every byte is in: the next pass makes it a whole, retryable entry")
    func killedAfterTheLastBytes() throws {
        let entry = try killedReading(said: "all of stdin\n", landed: "all of stdin\n")
        #expect(try files() == ["." + entry.name + ".json.tmp-pending", entry.name + ".content"])
        let listing = try outbox.listing()
        #expect(listing.items.map(\.state) == [.retryable])
        #expect(listing.items.first?.isWhole == true)
        #expect(try files() == [entry.name + ".content", entry.name + ".json"])
        #expect(try outbox.claim(id: entry.id).readContent() == Array("all of stdin\n".utf8))
    }

    @Test("killed with a part in: no entry (the rest is still in stdin)")
    func killedBeforeTheLastBytes() throws {
        _ = try killedReading(said: "all of stdin\n", landed: "all of")
        let listing = try outbox.listing()
        #expect(listing.items.isEmpty)
        #expect(try files().filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test("said, then finished: one whole entry, the end not said twice")
    func saidThenFinished() throws {
        let claim = try outbox.createReading(OutboxEntry.Metadata(service: "pastie", created: Date()))
        try claim.markReadEnded(byteCount: 5)
        try claim.append(Array("hello".utf8))
        try claim.markReadEnded()
        try claim.finishReading()
        #expect(claim.state == .retryable && claim.entry.metadata.byteCount == 5)
        #expect(try files() == [claim.entry.name + ".content", claim.entry.name + ".json"])
    }
}
