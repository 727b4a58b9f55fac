/// What kinds of content a service takes (`accepts = text, files`).
///
/// The same type, spelled the same, as the sxcu branch's (its `ServiceProfile.swift` and
/// `Configuration.swift`): whichever lands second drops this file (`takes(_:)` lives apart,
/// in `ContentKinds+Category.swift`).
public struct ContentKinds: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Text (every paste paste makes today).
    public static let text = ContentKinds(rawValue: 1)
    /// Images.
    public static let images = ContentKinds(rawValue: 2)
    /// Files of any kind (text among them).
    public static let files = ContentKinds(rawValue: 4)

    /// Whether a text paste can go to a service that takes these.
    public var takesText: Bool { contains(.text) || contains(.files) }

    /// The config spelling (`text, files`).
    public var configText: String {
        [(ContentKinds.text, "text"), (.images, "images"), (.files, "files")].filter { contains($0.0) }.map(\.1)
            .joined(separator: ", ")
    }
}

extension ContentKinds {
    /// Parses `text`, `images`, `files`, or several separated by commas.
    init?(configText text: String) {
        let names: [String: ContentKinds] = ["text": .text, "images": .images, "files": .files]
        var kinds: ContentKinds = []
        for word in text.split(separator: ",") {
            guard let kind = names[word.trimmingSpaces().lowercased()] else { return nil }
            kinds.insert(kind)
        }
        guard !kinds.isEmpty else { return nil }
        self = kinds
    }
}
