import PasteCore

/// Where the text of this run comes from.
public enum InputChoice: Sendable, Equatable {
    /// stdin when it is a pipe, a file or a socket; otherwise the clipboard.
    case automatic
    /// The CLIPBOARD selection (`-c`).
    case clipboard
    /// The PRIMARY selection (`-P`).
    case primary
    /// These files, one paste each (`-f`).
    case files([FileName])
}
