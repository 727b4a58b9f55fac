import PasteCore

/// Why `--bind-key` or `--unbind-key` wrote nothing (or could not finish).
enum BindKeyError: PasteError, Equatable {
    /// The most of a holder's name shown: a dconf path and a config line fit.
    static let shownHolderLength = 240

    /// The key's spelling is not one `--bind-key` reads.
    case badKey(String)
    /// No desktop could be told from the environment.
    case unknownDesktop(current: String?)
    /// The key is held by something else; `holder` names it as the desktop does.
    case taken(key: HotKey, desktop: KeyDesktop, holder: String)
    /// paste bound a key already (the record in the state folder).
    case alreadyBound(key: String, desktop: String)
    /// A tool the desktop's settings need is not installed.
    case toolMissing(tool: String, desktop: KeyDesktop)
    /// A tool failed.
    case toolFailed(command: String, failure: CommandFailure)
    /// A file could not be read or written.
    case file(path: String, reason: String)
    /// The record paste keeps of what it wrote is unreadable.
    case badRecord(path: String)
    /// The desktop's current settings say something paste cannot read.
    case unreadable(what: String, desktop: KeyDesktop)

    var message: String {
        switch self {
        case .badKey(let text):
            "bad key '\(shown: text)': expected modifiers and a key joined by '+', such as Super+Shift+V or Ctrl+Alt+P"
        case .unknownDesktop(let current):
            "cannot tell which desktop this is (XDG_CURRENT_DESKTOP is "
                + (current.map { "'\(shown: $0)'" } ?? "unset")
                + "); --bind-key knows GNOME, KDE Plasma, Xfce, sway, i3 and Hyprland"
        case .taken(let key, let desktop, let holder):
            "\(key) is taken on \(desktop.name) by \(shown: holder, limit: Self.shownHolderLength); nothing was written"
        case .alreadyBound(let key, let desktop):
            "paste is already bound to \(key) on \(desktop); 'paste --unbind-key' removes it first"
        case .toolMissing(let tool, let desktop):
            "\(tool) is not installed; \(desktop.name)'s shortcuts are written with it"
        case .toolFailed(let command, let failure):
            "'\(shown: command)' failed: \(failure)"
        case .file(let path, let reason):
            "cannot write '\(shownPath: path)': \(reason)"
        case .badRecord(let path):
            "the record of the bound key '\(shownPath: path)' is unreadable; nothing was undone"
        case .unreadable(let what, let desktop):
            "cannot read \(what) of \(desktop.name); nothing was written"
        }
    }

    var hint: String? {
        switch self {
        case .badKey: "try 'paste --help'"
        case .unknownDesktop: "docs/recipes.md binds a key by hand on other desktops (also in paste(1), KEY BINDING)"
        case .taken: "choose another key: paste --bind-key KEY"
        default: nil
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .badKey, .alreadyBound: .usage
        case .file, .badRecord: .ioError
        default: .unavailable
        }
    }

}
