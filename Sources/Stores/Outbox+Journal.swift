import PasteCore
import SystemInterop

/// What a new outbox entry is made from: the one choice a run makes when it journals a text
/// (`Outbox.journal(_:_:)`).
public enum JournalText: Sendable {
    /// A text about to be read (stdin): the entry is made before the read, the read appends
    /// each chunk and says when it has ended (`OutboxClaim.finishReading`), and a stream's
    /// request tee continues it (`OutboxClaim.continueAsStream`). See `Outbox.createReading`.
    case reading
    /// Bytes whole in memory (the clipboard, a small file, a small stdin): written before the
    /// metadata names them. See `Outbox.create(_:content:inFlight:)`.
    case bytes([UInt8])
    /// A file too large for memory, copied into the entry in chunks and recorded whole.
    case file(path: String)
}

extension Outbox {
    /// Makes the entry that journals a text: the one way a run puts a text of its own in the
    /// outbox (stdin before its read; the clipboard's and `-f`'s texts when their upload fails,
    /// or before the send for a living paste).
    ///
    /// - Parameters:
    ///   - text: What the entry holds and how it comes in.
    ///   - metadata: Where the paste goes; its `created` is taken from the clock.
    /// - Returns: The claim on the new entry, held by this run until it lets it go: for
    ///   `.reading`, still to be read into; for `.bytes`, whole and `retryable`; for `.file`,
    ///   whole (its length recorded) and `writing` until the run records what became of it.
    /// - Throws: `StoreError` when the outbox cannot take the entry, or (`cannotRead`) the file
    ///   cannot be read; a half-made entry is removed.
    public func journal(_ text: JournalText, _ metadata: OutboxEntry.Metadata) throws(StoreError) -> OutboxClaim {
        switch text {
        case .reading:
            return try createReading(metadata)
        case .bytes(let bytes):
            return try create(metadata, content: bytes)
        case .file(let path):
            let claim = try create(metadata)
            do throws(StoreError) {
                try Outbox.copy(from: path, into: claim) { body in try FileSystem.forEachChunk(ofFile: path, body) }
                try claim.finishContent()
            } catch {
                try? claim.discard()
                throw error
            }
            return claim
        }
    }

    /// Appends every chunk `read` gives to the entry (the rest of a text that is not in the
    /// outbox whole yet); a read failure is `cannotRead(path: source)`.
    ///
    /// - Throws: `StoreError`: the entry cannot take it, or `read` failed.
    public static func copy(
        from source: String, into claim: OutboxClaim,
        _ read: ((ArraySlice<UInt8>) throws -> Void) throws -> Void
    ) throws(StoreError) {
        do {
            try read { try claim.append(Array($0)) }
        } catch let error as StoreError {
            throw error
        } catch let error as Errno {
            throw .cannotRead(path: source, errno: error)
        } catch {
            throw .cannotRead(path: source, errno: .ioError)
        }
    }
}
