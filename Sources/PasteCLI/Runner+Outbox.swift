import PasteCore
import Stores
import SystemInterop

extension Runner {
    /// `paste --outbox …`: list the entries, show one's text, send one now, or drop entries.
    ///
    /// Listing runs the recovery pass (what it did is one stderr line each); `show`, `send` and
    /// `drop` find the entry by id (any unique start of four or more hexadecimal digits).
    func runOutbox(_ command: OutboxCommand) throws -> ExitStatus {
        let outbox = Outbox(context: context)
        switch command {
        case .list:
            let listing = try outbox.listing()
            OutboxReport.report(listing, output: output)
            let now = context.now()
            if invocation.isJSON {
                output.result(OutboxReport.json(listing.items, now: now))
            } else {
                for item in listing.items { output.result(OutboxReport.line(for: item, now: now)) }
                if listing.items.isEmpty { output.note("the outbox is empty") }
            }
            return .success
        case .show(let id):
            let entry = try outbox.find(id: id)
            do {
                try outbox.forEachContentChunk(of: entry) { try output.raw($0) }
            } catch let error as Errno {
                throw StoreError.cannotWrite(path: "stdout", errno: error)
            }
            return .success
        case .send(let id):
            let entry = try outbox.find(id: id)
            if let url = entry.metadata.pastedURL {
                // It made its paste already, when the history could not record it (issue 45,
                // item 4): sent again, it would make a second. Its link is what was asked for.
                output.result(url)
                output.note(
                    "outbox entry \(entry.id) was pasted already (the link above; the history could not record it "
                        + "then), so it is not sent again; 'paste --outbox drop \(entry.id)' drops it once the link "
                        + "is kept")
                return .success
            }
            let configuration = try loadConfiguration()
            return try UploadPipeline(context: context, output: output, seams: seams).send(
                id: id, PlanResolver.resolveRetry(invocation, configuration))
        case .drop(let id):
            let entry = try outbox.drop(id: id)
            output.note("dropped outbox entry \(entry.id)")
            return .success
        case .dropAll:
            let result = try outbox.dropAll()
            for id in result.busy {
                output.error("outbox entry \(id) is being written or sent by another paste run; it was left")
            }
            output.note("dropped \(result.dropped.count) outbox \(result.dropped.count == 1 ? "entry" : "entries")")
            return result.busy.isEmpty ? .success : .temporaryFailure
        }
    }
}
