/// Why an image decoder (`ImageDecoder`, `JPEGDecoder`, `GIFDecoder`, `WebPDecoder`,
/// `BMPDecoder`) gave no image.
public enum ImageDecodingError: Error, Hashable, Sendable {
    /// The bytes are not of a kind the decoder reads (no signature it knows, or a variant it
    /// does not decode: an animated WebP, a compressed BMP).
    case unsupported
    /// The image has more pixels than the caller allows; nothing was decoded.
    case tooLarge(width: Int, height: Int)
    /// The library refused the data (truncated, corrupt, bad header); its message.
    case invalid(reason: String)
}
