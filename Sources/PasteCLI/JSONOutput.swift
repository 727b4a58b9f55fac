import PasteCore
import SecretGuard
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
        if let language = paste.guessedLanguage {
            members.append("\"guessed_language\":\(JSONText.quote(language))")
        }
        if let living = paste.living {
            members.append("\"living\":\(JSONText.quote(living.name))")
            members.append("\"updates\":\(living.updates)")
            members.append("\"recreated\":\(living.isRecreated)")
        }
        if !paste.masked.isEmpty { members.append("\"redacted\":" + redactedArray(paste.masked)) }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// `[{"kind":"github-token","line":2,"column":13},…]`: what `--redact` masked, never a value;
    /// a secret masked in a value sent with the text names it last (`"field":"title"`).
    static func redactedArray(_ masked: [MaskedSecret]) -> String {
        "["
            + masked.map {
                "{\"kind\":\(JSONText.quote($0.pattern.rawValue)),\"line\":\($0.line),\"column\":\($0.column)"
                    + ($0.field.map { ",\"field\":\(JSONText.quote($0))" } ?? "") + "}"
            }.joined(separator: ",") + "]"
    }

    /// A paste that was not made, or a run that stopped before any was: the same keys every
    /// time (`error`, `message`, `status`, `outbox`, `file`), so a script reads one shape.
    ///
    /// - Parameters:
    ///   - status: the exit status the failure ends the run with; `error` is its name.
    ///   - message: the first line stderr says of it.
    ///   - outbox: the entry that holds the text and its state (`retryable`, `held`), if one does.
    static func failure(status: ExitStatus, message: String, outbox: (id: String, state: String)?, fileName: String?)
        -> String
    {
        let place = outbox.map { "{\"id\":\(JSONText.quote($0.id)),\"state\":\(JSONText.quote($0.state))}" }
        let members = [
            "\"error\":\(JSONText.quote(status.kind))",
            "\"message\":\(JSONText.quote(message))",
            "\"status\":\(status.rawValue)",
            "\"outbox\":\(place ?? "null")",
            "\"file\":\(fileName.map(JSONText.quote) ?? "null")",
        ]
        return "{" + members.joined(separator: ",") + "}"
    }

    /// A pipeline's failure as a `failure` object.
    static func object(for failure: PasteFailure, fileName: String?) -> String {
        let message =
            failure.terminalLines().lazy.compactMap { line -> String? in
                if case .error(let text) = line { return text }
                return nil
            }.first ?? failure.cause.message
        var outbox: (id: String, state: String)?
        if case .outbox(let id, let state) = failure.text { outbox = (id, state.rawValue) }
        return Self.failure(status: failure.exitStatus, message: message, outbox: outbox, fileName: fileName)
    }

    static func object(for record: HistoryRecord) -> String {
        let members =
            [
                "\"time\":\(JSONText.quote(JSONText.timestamp(record.time)))",
                "\"service\":\(JSONText.quote(record.service))",
                "\"url\":\(JSONText.quote(record.url))",
                "\"bytes\":\(record.byteCount)",
                "\"sha256\":\(JSONText.quote(record.sha256))",
                "\"title\":\(record.title.map(JSONText.quote) ?? "null")",
                "\"deletion_token\":\(record.deletionToken.map(JSONText.quote) ?? "null")",
                "\"deletion_url\":\(record.deletionURL.map(JSONText.quote) ?? "null")",
                "\"type\":\(record.type.map(JSONText.quote) ?? "null")",
            ] + (record.redacted.map { ["\"redacted\":[" + $0.map(\.jsonObject).joined(separator: ",") + "]"] } ?? [])
        return "{" + members.joined(separator: ",") + "}"
    }
}
