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
