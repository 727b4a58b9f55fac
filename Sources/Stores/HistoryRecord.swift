import FoundationEssentials
import PasteCore

/// One paste that went out: where it went, what it was, and how to take it back.
///
/// Stored as one JSON object per line in the history file (see `History`). Times are whole
/// seconds in ISO 8601 UTC (`2025-01-31T12:00:00Z`); keys are snake_case so scripts can read
/// the file with `jq`.
public struct HistoryRecord: Codable, Sendable, Equatable {
    /// When the upload finished.
    public var time: Date
    /// The service's name (`pastie`, or the ad-hoc `--url` endpoint).
    public var service: String
    /// The paste's URL as the service gave it (already sanitized by the caller).
    public var url: String
    /// The number of bytes uploaded.
    public var byteCount: Int64
    /// The SHA-256 digest of the content, lower-case hexadecimal.
    public var sha256: String
    /// The title sent with the paste, if any.
    public var title: String?
    /// A deletion token the service returned, if any.
    public var deletionToken: String?
    /// A deletion URL the service returned, if any.
    public var deletionURL: String?
    /// The first line of the text, shortened, for the `--pick` list.
    public var preview: String?
    /// `PasteOptions.repeatKey` of the paste: what besides the text and the service made it what
    /// it is (private, expiry, title, language, burn). The repeat window reuses only a record
    /// whose key is the same; records written before it existed have none.
    public var options: String?
    /// The content's MIME type without parameters (`image/png`, `text/plain`); nil in records
    /// written before types were recorded (text, then).
    public var type: String?
    /// The living paste (`paste --update NAME`) this record made or updated; nil for others.
    /// `--history` shows a living paste once, with how many updates it had.
    public var living: String?
    /// The secrets masked in the paste (`--redact`), by kind and place, never a value; nil
    /// when none was.
    public var redacted: [Redacted]?

    /// One masked secret: its kind (`github-token`), line and column in the text as read, or
    /// in the value it was in (`field`: `title`, `language`, `field NAME`).
    public struct Redacted: Codable, Sendable, Equatable {
        public var kind: String
        public var line: Int
        public var column: Int
        /// The value that held it when it was not the text (absent for the text).
        public var field: String?

        /// Makes a record of one masked secret.
        public init(kind: String, line: Int, column: Int, field: String? = nil) {
            self.kind = kind
            self.line = line
            self.column = column
            self.field = field
        }

        /// `{"column":13,"kind":"github-token","line":2}`, keys sorted as in `jsonLine` (and
        /// `"field":"title"` between column and kind for a value's).
        public var jsonObject: String {
            "{\"column\":\(column),"
                + (field.map { "\"field\":\(JSONText.quote($0))," } ?? "")
                + "\"kind\":\(JSONText.quote(kind)),\"line\":\(line)}"
        }
    }

    /// The longest preview kept, in characters: enough to recognise a paste in a list.
    public static let maximumPreviewLength = 80
    /// How much of a text its preview looks at for a first line that is not blank.
    public static let previewWindow = 4096

    /// Makes a record.
    public init(
        time: Date, service: String, url: String, byteCount: Int64, sha256: String,
        title: String? = nil, deletionToken: String? = nil, deletionURL: String? = nil,
        preview: String? = nil, options: String? = nil, type: String? = nil
    ) {
        self.time = time
        self.service = service
        self.url = url
        self.byteCount = byteCount
        self.sha256 = sha256
        self.title = title
        self.deletionToken = deletionToken
        self.deletionURL = deletionURL
        self.preview = preview
        self.options = options
        self.type = type
    }

    enum CodingKeys: String, CodingKey {
        case time, service, url
        case byteCount = "bytes"
        case sha256, title
        case deletionToken = "delete_token"
        case deletionURL = "delete_url"
        case preview, options, type, living, redacted
    }

    /// The record as one line of JSON, without the newline: keys sorted, absent fields left
    /// out, the time as `2025-01-31T12:00:00Z` — byte for byte what `JSONEncoder` writes with
    /// `.sortedKeys`, `.withoutEscapingSlashes` and `.iso8601`, without its start-up cost (its
    /// first use was a tenth of a hotkey run: `scripts/bench`).
    public var jsonLine: String {
        var fields: [(key: String, value: String)] = [
            ("bytes", String(byteCount)), ("service", JSONText.quote(service)), ("sha256", JSONText.quote(sha256)),
            ("time", JSONText.quote(JSONText.timestamp(time))), ("url", JSONText.quote(url)),
        ]
        if let deletionToken { fields.append(("delete_token", JSONText.quote(deletionToken))) }
        if let deletionURL { fields.append(("delete_url", JSONText.quote(deletionURL))) }
        if let preview { fields.append(("preview", JSONText.quote(preview))) }
        if let options { fields.append(("options", JSONText.quote(options))) }
        if let title { fields.append(("title", JSONText.quote(title))) }
        if let type { fields.append(("type", JSONText.quote(type))) }
        if let living { fields.append(("living", JSONText.quote(living))) }
        if let redacted { fields.append(("redacted", "[" + redacted.map(\.jsonObject).joined(separator: ",") + "]")) }
        fields.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        // A loop, not `joined(separator:)`: that one is generic code whose metadata was made at
        // run time, on the hotkey's path.
        var line = "{"
        for index in fields.indices {
            if index > 0 { line += "," }
            line += "\"" + fields[index].key + "\":" + fields[index].value
        }
        return line + "}"
    }

    /// The first non-blank line of `text`, trimmed, control characters dropped, and shortened to
    /// `maximumPreviewLength` characters (with `…` when cut). Nil when there is no such line.
    ///
    /// Only the first 4 KiB are looked at, so a huge paste costs nothing here.
    public static func preview(of text: [UInt8]) -> String? {
        let window = text.prefix(previewWindow)
        for line in window.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            // Printable ASCII, the common case, needs no Unicode tables: only spaces to trim.
            if line.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                guard let first = line.firstIndex(where: { $0 != 0x20 }) else { continue }
                let last = line.lastIndex(where: { $0 != 0x20 })!
                let trimmed = line[first...last]
                if trimmed.count <= maximumPreviewLength { return String(decoding: trimmed, as: UTF8.self) }
                return String(decoding: trimmed.prefix(maximumPreviewLength - 1), as: UTF8.self) + "…"
            }
            // Control characters (tabs, escapes, a stray CR) become spaces: the preview is shown
            // in a terminal and a window and must not steer either.
            var cleaned = String.UnicodeScalarView()
            for scalar in String(decoding: line, as: UTF8.self).unicodeScalars {
                let isControl = scalar.properties.generalCategory == .control
                cleaned.append(isControl || scalar == "\u{FFFD}" ? " " : scalar)
            }
            let trimmed = String(
                String(cleaned).drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
            if trimmed.isEmpty { continue }
            if trimmed.count <= maximumPreviewLength { return trimmed }
            return String(trimmed.prefix(maximumPreviewLength - 1)) + "…"
        }
        return nil
    }
}
