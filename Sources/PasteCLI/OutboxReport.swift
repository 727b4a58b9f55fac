import FoundationEssentials
import PasteCore
import Stores
import SystemInterop

/// How `paste --outbox` and `paste --retry` show the outbox: one line per entry, a JSON array,
/// and one stderr line for each thing a recovery pass did or could not read.
enum OutboxReport {
    /// Reports what the listing's recovery pass did and what it could not read: one stderr
    /// line each, heard even under `-q` (an entry held, files of a killed run removed).
    static func report(_ listing: OutboxListing, output: Output) {
        for recovery in listing.recovered { output.notice(recovery.message) }
        for problem in listing.problems { output.notice(problem.message) }
    }

    /// One entry on one line: id, state, age, service, size, attempts, when it is tried next (a
    /// retryable entry), then the preview (or the content's type), the URL of a paste it made
    /// that the history could not record, and the last error.
    ///
    /// `3fa9c01  retryable  5 min ago  pastie  12 B  1 attempt  next try in 40 s (backoff after 1 failed attempt)  "first line"  last error: …`
    static func line(for item: OutboxListing.Item, now: Date) -> String {
        let metadata = item.entry.metadata
        var columns = [
            item.id,
            item.state.rawValue + (item.isBusy ? " (busy)" : ""),
            Age.text(from: metadata.created, to: now),
            serviceText(of: item),
            ProgressBar.byteText(item.contentSize),
            "\(metadata.attempts) \(metadata.attempts == 1 ? "attempt" : "attempts")",
        ]
        if let next = nextTry(of: item, now: now) { columns.append(next) }
        columns += contentColumns(of: item)
        if !item.isWhole, item.state != .writing, item.state != .inFlight {
            columns.append("not whole: \(item.contentSize) of \(metadata.byteCount ?? 0) bytes")
        }
        if let url = metadata.pastedURL { columns.append("pasted as \(Sanitizer.printable(url, limit: 2_048))") }
        if let lastError = metadata.lastError { columns.append("last error: \(lastError)") }
        return columns.joined(separator: "  ")
    }

    /// One entry `paste --retry -n` would send: id, service, size, then the preview (or the
    /// content's type).
    ///
    /// `3fa9c01  pastie  12 B  "first line"`
    static func dryRunLine(for item: OutboxListing.Item) -> String {
        ([item.id, serviceText(of: item), ProgressBar.byteText(item.contentSize)] + contentColumns(of: item))
            .joined(separator: "  ")
    }

    /// When an unattended `paste --retry` tries a retryable entry next, and why it waits:
    /// `due`, or `next try in 40 s (backoff after 2 failed attempts)`; nil for an entry that is
    /// not retryable (its state and last error say why).
    static func nextTry(of item: OutboxListing.Item, now: Date) -> String? {
        guard item.state == .retryable, !item.isBusy else { return nil }
        guard let wait = item.wait(at: now) else { return "due" }
        let attempts = item.entry.metadata.attempts
        return "next try in \(waitText(wait)) (backoff after \(attempts) failed "
            + "\(attempts == 1 ? "attempt" : "attempts"); 'paste --retry' at a terminal sends it now)"
    }

    /// A wait as the listing says it: `40 s`, `3 min`, `2 h`.
    static func waitText(_ wait: Duration) -> String {
        let seconds = max(1, Int(wait.timeInterval.rounded(.up)))
        switch seconds {
        case ..<120: return "\(seconds) s"
        case ..<7_200: return "\((seconds + 59) / 60) min"
        default: return "\((seconds + 3_599) / 3_600) h"
        }
    }

    /// The service column: the entry's `--url`, shortened, or its service's name.
    private static func serviceText(of item: OutboxListing.Item) -> String {
        item.entry.metadata.serviceURL.map { Sanitizer.printable($0, limit: 80) } ?? item.entry.metadata.service
    }

    /// The preview, quoted, or the content's type in brackets (none for a text without a
    /// visible line).
    private static func contentColumns(of item: OutboxListing.Item) -> [String] {
        if let type = item.entry.metadata.contentType, !RetryStage.isText(type) { return ["[\(type)]"] }
        return item.preview.map { ["\"\($0)\""] } ?? []
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
            "\"pasted_url\":\(text(metadata.pastedURL))",
            "\"pasted_delete\":\(text(metadata.pastedDeletion))",
        ]
        return "{" + members.joined(separator: ",") + "}"
    }
}
