import FoundationEssentials

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

    /// The longest preview kept, in characters: enough to recognise a paste in a list.
    public static let maximumPreviewLength = 80

    /// Makes a record.
    public init(
        time: Date, service: String, url: String, byteCount: Int64, sha256: String,
        title: String? = nil, deletionToken: String? = nil, deletionURL: String? = nil,
        preview: String? = nil
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
    }

    enum CodingKeys: String, CodingKey {
        case time, service, url
        case byteCount = "bytes"
        case sha256, title
        case deletionToken = "delete_token"
        case deletionURL = "delete_url"
        case preview
    }

    /// The first non-blank line of `text`, trimmed, control characters dropped, and shortened to
    /// `maximumPreviewLength` characters (with `…` when cut). Nil when there is no such line.
    ///
    /// Only the first 4 KiB are looked at, so a huge paste costs nothing here.
    public static func preview(of text: [UInt8]) -> String? {
        let window = text.prefix(4096)
        for line in window.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
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
