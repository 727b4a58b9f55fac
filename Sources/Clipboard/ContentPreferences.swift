/// How `Clipboard.readContent` chooses between text and an image, and how much of an image it
/// reads.
public struct ContentPreferences: Sendable, Equatable {
    /// Whether an owner that offers both text and an image is asked for the image (`--image`);
    /// otherwise text wins.
    public var prefersImage: Bool
    /// The most bytes of an image read: an owner that sends more is stopped with
    /// `ClipboardError.tooLarge` (normally the service's `max-size`). Text has no limit.
    public var imageLimit: Int

    /// The image limit when the caller has none of its own: more than any screenshot (a 4K
    /// screen as PNG is under 30 MiB), little enough to refuse an owner that sends forever
    /// before memory runs short.
    public static let defaultImageLimit = 64 << 20

    /// Makes preferences; by default text wins and images are read up to `defaultImageLimit`.
    public init(prefersImage: Bool = false, imageLimit: Int = defaultImageLimit) {
        self.prefersImage = prefersImage
        self.imageLimit = imageLimit
    }
}
