/// What a selection held: text, or an image with its MIME type.
public enum ClipboardContent: Sendable, Equatable {
    /// Text, as UTF-8 (`Clipboard.read` returns only this).
    case text([UInt8])
    /// An image's bytes, exactly as the owner sent them, and their MIME type (`image/png`, ...:
    /// one of `ImageTarget`'s, in lower case).
    case image([UInt8], type: String)

    /// The bytes, whichever kind they are.
    public var bytes: [UInt8] {
        switch self {
        case .text(let bytes), .image(let bytes, _): bytes
        }
    }
}
