/// Decodes an image of any kind paste can show a picture of, chosen by its first bytes (not by
/// the MIME type it came with): PNG (libpng), JPEG (libjpeg-turbo), GIF's first frame (giflib),
/// still WebP (libwebp) and uncompressed BMP (plain Swift).
///
/// TIFF, ICO, AVIF, HEIC/HEIF and SVG are not decoded (`.unsupported`): each needs a library
/// paste does not link (libtiff and its codecs, libheif with libde265 and libaom, librsvg with
/// cairo and pango), for files that are rarely on a clipboard or uploaded at a hotkey.
public enum ImageDecoder {
    /// Decodes `bytes`; a JPEG at the smallest DCT scale that keeps the longer side at least
    /// `minimumSide` (the others at full size).
    ///
    /// - Throws: `ImageDecodingError` (`.unsupported` for a kind that is not decoded).
    public static func decode(_ bytes: [UInt8], maximumPixelCount: Int, minimumSide: Int? = nil)
        throws(ImageDecodingError) -> RGBAImage
    {
        if PNGDecoder.hasSignature(bytes) {
            do {
                return try PNGDecoder.decode(bytes, maximumPixelCount: maximumPixelCount)
            } catch {
                switch error {
                case .notPNG: throw .unsupported
                case .tooLarge(let width, let height): throw .tooLarge(width: width, height: height)
                case .invalid(let reason): throw .invalid(reason: reason)
                }
            }
        }
        if JPEGDecoder.hasSignature(bytes) {
            return try JPEGDecoder.decode(bytes, maximumPixelCount: maximumPixelCount, minimumSide: minimumSide)
        }
        if GIFDecoder.hasSignature(bytes) { return try GIFDecoder.decode(bytes, maximumPixelCount: maximumPixelCount) }
        if WebPDecoder.hasSignature(bytes) {
            return try WebPDecoder.decode(bytes, maximumPixelCount: maximumPixelCount)
        }
        if BMPDecoder.hasSignature(bytes) { return try BMPDecoder.decode(bytes, maximumPixelCount: maximumPixelCount) }
        throw .unsupported
    }
}
