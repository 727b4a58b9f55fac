import PasteCore
import Testing

@testable import Stores

/// The digests already on disk: history's repeat keys and the outbox's entry ids are SHA-256
/// hexadecimal, and must read the same whichever SHA-256 computes them.
@Suite("Digests kept on disk")
struct DigestPinTests {
    @Test("the repeat key of a set of options is the one history already holds")
    func repeatKeyPinned() {
        // "private=false expiry=- never=false burn=false title=- lang=-"
        #expect(PasteOptions().repeatKey == "59af9dba46aa462d")
        // "private=true expiry=3600 never=false burn=false title=\"t\" lang=\"swift\""
        #expect(
            PasteOptions(title: "t", language: "swift", isPrivate: true, expirySeconds: 3600).repeatKey
                == "e8b53c4d007aadb8")
    }

    @Test("an entry's id is the one the outbox already shows for its name")
    func entryIDPinned() {
        #expect(OutboxEntry.id(ofName: "1764657600000-0000") == "339c331")
        #expect(OutboxEntry.id(ofName: "1764657600000-0001") == "5eef0fc")
    }
}
