/// A value of the paste that a template can hold.
public enum Placeholder: String, Sendable, CaseIterable {
    /// The text being pasted (body templates only).
    case content
    /// The `-f` file's name, else `paste.txt`.
    case filename
    /// `-t TITLE`.
    case title
    /// `-l LANG`, or the language of the `-f` file's extension.
    case lang
    /// `-e DURATION` in the service's expiry unit.
    case expiry
    /// `true` with `-p`.
    case `private`

    /// The name `{filename}` stands for when the paste is not a file.
    public static let defaultFileName = "paste.txt"
}
