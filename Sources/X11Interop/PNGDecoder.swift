internal import CPng

/// Why `PNGDecoder` gave no image.
public enum PNGDecodingError: Error, Hashable, Sendable {
    /// The bytes do not start with the PNG signature.
    case notPNG
    /// The header names more pixels than the caller allows; nothing was decoded.
    case tooLarge(width: Int, height: Int)
    /// libpng refused the data (bad CRC, truncated stream, bad header, ...); its message.
    case invalid(reason: String)
}

/// Decodes PNG files with libpng into `RGBAImage`s.
///
/// Uses libpng's simplified API, which accepts every colour type (palette, grey, grey+alpha,
/// RGB, RGBA), every bit depth (1 to 16) and interlacing, and converts to 8-bit RGBA
/// (`PNG_FORMAT_RGBA`) the way `png_set_expand`, `png_set_gray_to_rgb`, `png_set_add_alpha` and
/// `png_set_strip_16` would, with colour handled by the sRGB transfer curve.
public enum PNGDecoder {
    /// The eight bytes every PNG file starts with (PNG specification §5.2).
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether `bytes` start with the PNG signature.
    public static func hasSignature(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: signature)
    }

    /// Decodes a whole PNG file held in memory.
    ///
    /// The header is read first, and an image of more than `maximumPixelCount` pixels is refused
    /// before anything is allocated for it: decoding takes 4 bytes a pixel. libpng's own limits
    /// apply as well (at most 1,000,000 pixels a row, 8 MB for an ancillary chunk). A 16-bit
    /// image without gamma information is taken as sRGB-encoded
    /// (`PNG_IMAGE_FLAG_16BIT_sRGB`), as image tools write them.
    ///
    /// Wraps `png_image_begin_read_from_memory`, `png_image_finish_read` and `png_image_free`.
    /// - Throws: `PNGDecodingError`.
    public static func decode(_ bytes: [UInt8], maximumPixelCount: Int) throws(PNGDecodingError) -> RGBAImage {
        guard hasSignature(bytes) else { throw .notPNG }
        // libpng reads from `bytes` until png_image_finish_read returns: both calls happen
        // inside this one closure, while the buffer is pinned.
        let result = bytes.withUnsafeBytes { raw -> Result<RGBAImage, PNGDecodingError> in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            defer { png_image_free(&image) }
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                return .failure(.invalid(reason: message(of: &image)))
            }
            let width = Int(image.width)
            let height = Int(image.height)
            // Both are below 2³¹ (PNG specification §11.2.2): the product cannot overflow.
            guard width * height <= maximumPixelCount else {
                return .failure(.tooLarge(width: width, height: height))
            }
            // PNG_FORMAT_RGBA, spelled out: Swift does not import a macro built of macros.
            image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
            image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
            let byteCount = width * height * 4
            var finished = false
            let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, count in
                finished = png_image_finish_read(&image, nil, buffer.baseAddress, 0, nil) != 0
                // On failure the buffer's content is undefined: zero it rather than expose it.
                if !finished { buffer.initialize(repeating: 0) }
                count = byteCount
            }
            guard finished else { return .failure(.invalid(reason: message(of: &image))) }
            return .success(RGBAImage(width: width, height: height, pixels: pixels))
        }
        return try result.get()
    }

    /// The text libpng left in `image.message` (a NUL-terminated `char[64]`).
    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
