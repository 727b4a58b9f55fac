import PasteCore

/// How a paste is taken back, as its service said when it was made: a token to send back, or a
/// link to visit.
///
/// The history file keeps it in one of two fields (`delete_token`, `delete_url`), as it always
/// has; `HistoryRecord.deletion` reads and writes both.
public enum Deletion: Equatable, Sendable {
    /// A token the service wants back (0x0.st's `X-Token`, PrivateBin's `deletetoken`).
    case token(String)
    /// A link whose visit deletes the paste (pinnwand's removal URL).
    case link(String)

    /// What a service's answer gave for deletion (`ResultExtractor.Outcome.deletion`): a value
    /// that starts with `http` is a link, anything else a token.
    public init(answered value: String) {
        self = value.hasPrefix("http") ? .link(value) : .token(value)
    }

    /// The token or the link, as `--json` shows it.
    public var text: String {
        switch self {
        case .token(let token): token
        case .link(let link): link
        }
    }
}

extension HistoryRecord {
    /// The record's deletion data: its token when it has one, else its link.
    public var deletion: Deletion? {
        get { deletionToken.map(Deletion.token) ?? deletionURL.map(Deletion.link) }
        set {
            deletionToken = nil
            deletionURL = nil
            switch newValue {
            case .token(let token)?: deletionToken = token
            case .link(let link)?: deletionURL = link
            case nil: break
            }
        }
    }
}
