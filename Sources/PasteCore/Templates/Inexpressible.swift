/// A part of a template that the config spelling cannot say (`--import-sxcu`).
public struct Inexpressible: Error, Sendable, Equatable {
    /// What it is, for the one-line message (`{prompt:…} (a window asking for text)`).
    public var feature: String

    /// Names what cannot be said.
    package init(feature: String) {
        self.feature = feature
    }
}
