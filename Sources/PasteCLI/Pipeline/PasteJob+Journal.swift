import PasteCore
import SystemInterop
import Stores

extension PasteJob.FreshText {
    /// Makes the outbox entry that keeps this text: the one place a run journals a text of its
    /// own (`Outbox.journal`), at one of three moments.
    ///
    /// - stdin, before its read (`ReadStage`, with `unreadStandardInput`): the read appends to
    ///   the entry, and a stream's request tee continues it as it is sent, so the entry is made
    ///   once and no byte is written to it twice.
    /// - A living paste's text (the clipboard's or a file's), before its send (`SendStage`): an
    ///   update that fails waits in the outbox, and a newer one replaces it there.
    /// - The clipboard's and `-f`'s texts when their upload fails (`RecordStage`): a paste that
    ///   works never writes them.
    ///
    /// - Throws: `StoreError` when the outbox cannot take the text (`cannotOpen` for a stream
    ///   already under way without an entry: its start is gone).
    func journal(in outbox: Outbox) throws(StoreError) -> OutboxClaim {
        let text: JournalText
        if let bytes = input.bytes {
            text = .bytes(bytes)
        } else if case .file(let path, _) = input.content {
            text = .file(path: path)
        } else if case .stream(_, let prefix, nil, _) = input.content, prefix.isEmpty {
            text = .reading
        } else {
            throw .cannotOpen(path: outbox.folder, errno: .noSuchFileOrDirectory)
        }
        return try outbox.journal(text, metadata)
    }

    /// Holds a stream whole in a new outbox entry before anything of it is sent: its start
    /// (in memory) then the rest of its descriptor, read to the end a chunk at a time, so
    /// memory stays at one chunk whatever its size. For `--redact` on piped stdin past what is
    /// held in memory (`ReadStage`): the guard scans the entry whole, then the text is sent
    /// from it as it is, or masked from it (`GuardStage.mask`).
    ///
    /// The entry stays being read (`Outbox.journal(.reading, _:)`, its end not said) until the
    /// guard decides: a run killed before that leaves a content no recovery pass adopts (it
    /// removes it once stranded), so a text with secrets is never sent unmasked by a later
    /// `--retry`. `OutboxClaim.finishReading()` makes it an entry once it is clean.
    ///
    /// - Parameter service: where it goes: past its `max-size` the read stops (a stream of any
    ///   length is not written whole to be refused).
    /// - Throws: `StoreError` when the outbox cannot take it, or (`cannotRead`) stdin failed;
    ///   `StreamTooLarge` past the service's `max-size`. The half-made entry is removed.
    func hold(in outbox: Outbox, for service: ServiceProfile) throws -> OutboxClaim {
        guard case .stream(let descriptor, let prefix, nil, _) = input.content else {
            throw StoreError.cannotOpen(path: outbox.folder, errno: .invalidArgument)
        }
        let limit = service.maximumBytes.map { Int(clamping: $0) } ?? .max
        var total = prefix.count
        var isTooLarge = false
        let claim = try outbox.journal(.reading, metadata)
        do throws(StoreError) {
            try claim.append(prefix)
            try Outbox.copy(from: input.label, into: claim) { body in
                try FileDescriptor.withUnowned(descriptor) {
                    try $0.forEachChunk(chunkSize: PasteInput.journalChunk) { chunk in
                        total += chunk.count
                        if total > limit {
                            isTooLarge = true
                            throw PastLimit()
                        }
                        try body(chunk)
                    }
                }
            }
        } catch {
            try? claim.discard()
            guard isTooLarge else { throw error }
            throw StreamTooLarge(service: service.name, bytesRead: total, limit: Int64(limit))
        }
        return claim
    }

    /// Ends `hold`'s read at the service's `max-size`.
    private struct PastLimit: Error {}
}

extension PasteInput {
    /// Stdin before its read: what its journal entry is made for (`PasteJob.FreshText.journal`).
    static func unreadStandardInput(_ stdin: StandardStream) -> PasteInput {
        var input = PasteInput(
            content: .stream(fileDescriptor: stdin.rawValue, prefix: [], teePath: nil), label: "stdin", fileName: nil)
        input.isStandardInput = true
        return input
    }
}
