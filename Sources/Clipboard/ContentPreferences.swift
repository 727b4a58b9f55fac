/// How `Clipboard.readContent` chooses between text and an image, and how much it reads.
public struct ContentPreferences: Sendable, Equatable {
    /// Whether an owner that offers both text and an image is asked for the image (`--image`);
    /// otherwise text wins.
    public var prefersImage: Bool
    /// The most bytes of an image read: an owner that sends more is stopped with
    /// `ClipboardError.tooLarge` (normally the service's `max-size`, when under `readLimit`).
    public var imageLimit: Int
    /// The most bytes of anything read, text or image (paste's `max-clipboard`): an owner that
    /// sends more is stopped with `ClipboardError.exceedsLimit`.
    public var readLimit: Int

    /// The image limit when the caller has none of its own: more than any screenshot (a 4K
    /// screen as PNG is under 30 MiB), little enough to refuse an owner that sends forever
    /// before memory runs short.
    public static let defaultImageLimit = 64 << 20

    /// The read limit when the caller has none of its own (paste's `max-clipboard` default):
    /// far more text than anyone copies, little enough that an owner sending forever is stopped
    /// before memory runs short.
    public static let defaultReadLimit = 1 << 30

    /// Makes preferences; by default text wins, images are read up to `defaultImageLimit` and
    /// anything up to `defaultReadLimit`.
    public init(
        prefersImage: Bool = false, imageLimit: Int = defaultImageLimit, readLimit: Int = defaultReadLimit
    ) {
        self.prefersImage = prefersImage
        self.imageLimit = imageLimit
        self.readLimit = readLimit
    }
}
