import FoundationEssentials
import PasteCore

/// How `paste --outbox` and `paste --retry` show the outbox: one line per entry, a JSON array,
/// and one stderr line for each thing a recovery pass did or could not read.
enum OutboxReport {
    /// Reports what the listing's recovery pass did and what it could not read: one stderr
    /// line each, heard even under `-q` (an entry held, files of a killed run removed).
    static func report(_ listing: OutboxListing, output: Output) {
        for recovery in listing.recovered { output.notice(recovery.message) }
        for problem in listing.problems { output.notice(problem.message) }
    }

    /// One entry on one line: id, state, age, service, size, attempts, then the preview (or the
    /// content's type) and the last error.
    ///
    /// `3fa9c01  retryable  5 min ago  pastie  12 B  1 attempt  "first line"  last error: …`
    static func line(for item: OutboxListing.Item, now: Date) -> String {
        let metadata = item.entry.metadata
        var columns = [
            item.id,
            item.state.rawValue + (item.isBusy ? " (busy)" : ""),
            Age.text(from: metadata.created, to: now),
            metadata.serviceURL.map { Sanitizer.printable($0, limit: 80) } ?? metadata.service,
            ProgressBar.byteText(item.contentSize),
            "\(metadata.attempts) \(metadata.attempts == 1 ? "attempt" : "attempts")",
        ]
        if let type = metadata.contentType, !RetryStage.isText(type) {
            columns.append("[\(type)]")
        } else if let preview = item.preview {
            columns.append("\"\(preview)\"")
        }
        if !item.isWhole, item.state != .writing, item.state != .inFlight {
            columns.append("not whole: \(item.contentSize) of \(metadata.byteCount ?? 0) bytes")
        }
        if let lastError = metadata.lastError { columns.append("last error: \(lastError)") }
        return columns.joined(separator: "  ")
    }

    /// The entries as one JSON array of objects, oldest first (schema in paste(1), `--outbox`).
    static func json(_ items: [OutboxListing.Item], now: Date) -> String {
        "[" + items.map { object(for: $0, now: now) }.joined(separator: ",") + "]"
    }

    static func object(for item: OutboxListing.Item, now: Date) -> String {
        let metadata = item.entry.metadata
        func text(_ value: String?) -> String { value.map(JSONText.quote) ?? "null" }
        func time(_ value: Date?) -> String { value.map { JSONText.quote(JSONText.timestamp($0)) } ?? "null" }
        let members = [
            "\"id\":\(JSONText.quote(item.id))",
            "\"name\":\(JSONText.quote(item.entry.name))",
            "\"state\":\(JSONText.quote(item.state.rawValue))",
            "\"busy\":\(item.isBusy)",
            "\"service\":\(JSONText.quote(metadata.service))",
            "\"service_url\":\(text(metadata.serviceURL))",
            "\"created\":\(time(metadata.created))",
            "\"age_seconds\":\(Int(now.timeIntervalSince(metadata.created).rounded(.down)))",
            "\"bytes\":\(item.contentSize)",
            "\"whole\":\(item.isWhole)",
            "\"attempts\":\(metadata.attempts)",
            "\"last_error\":\(text(metadata.lastError))",
            "\"last_attempt\":\(time(metadata.lastAttempt))",
            "\"next_attempt\":\(time(metadata.nextAttempt))",
            "\"title\":\(text(metadata.title))",
            "\"file\":\(text(metadata.fileName))",
            "\"type\":\(text(metadata.contentType))",
            "\"preview\":\(text(item.preview))",
        ]
        return "{" + members.joined(separator: ",") + "}"
    }
}
