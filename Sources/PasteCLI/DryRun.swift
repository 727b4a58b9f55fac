import FoundationEssentials
import PasteCore

/// `--dry-run`: the exact request that would go out, secrets masked, nothing sent.
enum DryRun {
    static func describe(_ request: UploadRequest, expansion: ValueExpansion, label: String) -> String {
        var lines: [String] = []
        if request.isTCP {
            lines.append("TCP \(request.url)")
        } else {
            lines.append("\(request.method) \(request.url)")
        }
        for header in request.headers { lines.append(expansion.redact(Redaction.header(header))) }
        switch request.body {
        case .multipart(let fields):
            lines.append("Content-Type: multipart/form-data")
            for field in fields {
                switch field.value {
                case .text(let value): lines.append("  \(field.name)=\(expansion.redact(value))")
                case .content(let source, let fileName, _):
                    lines.append("  \(field.name)=<\(describe(source, label: label))>" + (fileName.map { " filename=\($0)" } ?? ""))
                }
            }
        case .form(let fields):
            lines.append("Content-Type: application/x-www-form-urlencoded")
            for (index, field) in fields.enumerated() {
                lines.append("  \(field.name)=" + (index == 0 ? "<\(label), \(field.value.utf8.count) bytes>" : expansion.redact(field.value)))
            }
        case .raw(let source, let contentType):
            lines.append("Content-Type: \(contentType)")
            lines.append("  <\(describe(source, label: label))>")
        case .rendered(let bytes, let contentType):
            lines.append("Content-Type: \(contentType)")
            lines.append("  <JSON, \(bytes.count) bytes, with \(label) as the content>")
        }
        lines.append("result: \(request.result.configText)")
        return lines.joined(separator: "\n") + "\n"
    }

    static func describe(_ source: ContentSource, label: String) -> String {
        switch source {
        case .bytes(let bytes): "\(label), \(bytes.count) bytes"
        case .file(_, let size): "\(label), \(size) bytes, streamed"
        case .stream: "\(label), streamed chunked"
        }
    }
}

/// `--json` output: one object per paste (schema in paste(1), JSON OUTPUT).
enum JSONOutput {
    static func object(for paste: PasteResult, fileName: String?) -> String {
        var members = [
            "\"url\":\(JSONText.quote(paste.url))",
            "\"service\":\(JSONText.quote(paste.service))",
            "\"bytes\":\(paste.byteCount)",
            "\"sha256\":\(JSONText.quote(paste.sha256))",
            "\"title\":\(paste.title.map(JSONText.quote) ?? "null")",
            "\"deletion\":\(paste.deletion.map(JSONText.quote) ?? "null")",
            "\"repeat\":\(paste.isRepeat)",
        ]
        if let fileName { members.append("\"file\":\(JSONText.quote(fileName))") }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func object(for record: HistoryRecord) -> String {
        let members = [
            "\"time\":\(JSONText.quote(timestamp(record.time)))",
            "\"service\":\(JSONText.quote(record.service))",
            "\"url\":\(JSONText.quote(record.url))",
            "\"bytes\":\(record.byteCount)",
            "\"sha256\":\(JSONText.quote(record.sha256))",
            "\"title\":\(record.title.map(JSONText.quote) ?? "null")",
            "\"deletion_token\":\(record.deletionToken.map(JSONText.quote) ?? "null")",
            "\"deletion_url\":\(record.deletionURL.map(JSONText.quote) ?? "null")",
        ]
        return "{" + members.joined(separator: ",") + "}"
    }
}

extension JSONOutput {
    /// ISO 8601 in UTC, seconds precision (`2026-11-30T04:50:00Z`).
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
