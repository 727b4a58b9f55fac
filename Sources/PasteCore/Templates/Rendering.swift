/// Which values of a template are escaped, and how.
public struct Rendering: Sendable, Equatable {
    /// How escaped values are written.
    public var escaping: Escaping
    /// Whether `${…}` secrets are escaped (in bodies, not in URLs: `url = ${env:PASTE_URL}`).
    public var escapesReferences: Bool
    /// Whether computed values (`{random:…}`, `{prompt:…}`, answer values) are escaped.
    public var escapesComputed: Bool

    /// Headers, form fields, file names: nothing escaped.
    public static let verbatim = Rendering(escaping: .none, escapesReferences: false, escapesComputed: false)
    /// A URL: placeholder values percent-encoded (a title may hold `&` or `/`).
    public static let url = Rendering(escaping: .percent, escapesReferences: false, escapesComputed: false)
    /// A JSON body: every value JSON-escaped.
    public static let json = Rendering(escaping: .json, escapesReferences: true, escapesComputed: true)
    /// An XML body: every value XML-escaped.
    public static let xml = Rendering(escaping: .xml, escapesReferences: true, escapesComputed: true)
}
