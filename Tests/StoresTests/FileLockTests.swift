import Foundation
import Glibc
import PasteCore
import TestSupport
import Testing

@testable import Stores

/// A released lock is free at once, even while another descriptor of its open file description
/// is open: the copy a child that another thread is spawning holds from its `clone` to its
/// `exec`, here a `dup` of ours. (A flake of OutboxTests under load: an entry's claim had just
/// gone, and the next `claim(id:)` found it `entryBusy`.)
@Suite("File locks: released at once, whatever copies of the descriptor there are", .temporaryHome)
struct FileLockTests: ScopedSuite {
    @Test("a lock released while a copy of its descriptor is open can be taken again at once")
    func releasedDespiteCopy() throws {
        let path = home.root.appendingPathComponent("entry.content").path
        var lock: FileLock? = try FileLock(path: path)
        let copy = dup(try #require(lock).file.rawValue)
        try #require(copy >= 0)
        defer { close(copy) }
        #expect(try FileLock.attempt(path: path) == nil, "held")
        lock = nil
        #expect(try FileLock.attempt(path: path) != nil, "released though the copy is open")
    }

    @Test("an outbox entry whose claim went is claimed again at once, a copy of its descriptor still open")
    func claimAfterRelease() throws {
        let outbox = Outbox(folder: home.stateHome.appendingPathComponent("paste/outbox").path)
        var claim: OutboxClaim? = try outbox.create(
            OutboxEntry.Metadata(service: "pastie", created: Date()), content: Array("held".utf8), inFlight: true)
        let entry = try #require(claim).recordFailure(OutboxFailure(verdict: .held, message: "failed"))
        let copy = dup(try #require(claim).lock.file.rawValue)
        try #require(copy >= 0)
        defer { close(copy) }
        claim = nil
        #expect(try outbox.claim(id: entry.id).state == .held)
    }
}
