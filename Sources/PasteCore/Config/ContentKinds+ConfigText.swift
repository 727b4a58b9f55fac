import FoundationEssentials
import SystemInterop

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
