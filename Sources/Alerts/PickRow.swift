/// One choice in the list picker: a main line and a quieter second line.
public struct PickRow: Hashable, Sendable {
    /// The main line, e.g. the paste's URL or title.
    public var primary: String
    /// The second line, e.g. "pastie · 3 min ago"; empty for none.
    public var secondary: String

    /// Makes a row.
    public init(primary: String, secondary: String = "") {
        self.primary = primary
        self.secondary = secondary
    }
}
