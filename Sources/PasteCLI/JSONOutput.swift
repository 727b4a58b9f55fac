import PasteCore
import Stores

/// `--json` output: one object per paste (schema in paste(1), JSON OUTPUT).
enum JSONOutput {
    static func object(for paste: PasteResult, fileName: String?) -> String {
        var members = [
            "\"url\":\(JSONText.quote(paste.url))",
            "\"service\":\(JSONText.quote(paste.service))",
            "\"bytes\":\(paste.byteCount)",
            "\"sha256\":\(JSONText.quote(paste.sha256))",
            "\"title\":\(paste.title.map(JSONText.quote) ?? "null")",
            "\"deletion\":\(paste.deletion.map { JSONText.quote($0.text) } ?? "null")",
            "\"repeat\":\(paste.isRepeat)",
            "\"type\":\(JSONText.quote(paste.type))",
        ]
        if let fileName { members.append("\"file\":\(JSONText.quote(fileName))") }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func object(for record: HistoryRecord) -> String {
        let members = [
            "\"time\":\(JSONText.quote(JSONText.timestamp(record.time)))",
            "\"service\":\(JSONText.quote(record.service))",
            "\"url\":\(JSONText.quote(record.url))",
            "\"bytes\":\(record.byteCount)",
            "\"sha256\":\(JSONText.quote(record.sha256))",
            "\"title\":\(record.title.map(JSONText.quote) ?? "null")",
            "\"deletion_token\":\(record.deletionToken.map(JSONText.quote) ?? "null")",
            "\"deletion_url\":\(record.deletionURL.map(JSONText.quote) ?? "null")",
            "\"type\":\(record.type.map(JSONText.quote) ?? "null")",
        ]
        return "{" + members.joined(separator: ",") + "}"
    }
}
