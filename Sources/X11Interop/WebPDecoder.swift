internal import CWebP

/// Decodes still WebP files (lossy, lossless, with or without alpha) with libwebp into
/// `RGBAImage`s. An animated WebP is refused (`.unsupported`): its frames need libwebpdemux.
public enum WebPDecoder {
    /// Whether `bytes` start as a WebP file does (`RIFF`, a size, `WEBP`: RFC 9649 §2.5).
    public static func hasSignature(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && bytes[0..<4].elementsEqual("RIFF".utf8) && bytes[8..<12].elementsEqual("WEBP".utf8)
    }

    /// Decodes a whole WebP file held in memory.
    ///
    /// The header is read first (`WebPGetFeatures`); an image of more than `maximumPixelCount`
    /// pixels is refused before anything is allocated for it.
    ///
    /// Wraps `WebPGetFeatures` and `WebPDecodeRGBAInto`.
    /// - Throws: `ImageDecodingError`.
    public static func decode(_ bytes: [UInt8], maximumPixelCount: Int) throws(ImageDecodingError) -> RGBAImage {
        guard hasSignature(bytes) else { throw .unsupported }
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<RGBAImage, ImageDecodingError> in
            var features = WebPBitstreamFeatures()
            let status = WebPGetFeatures(buffer.baseAddress, buffer.count, &features)
            guard status == VP8_STATUS_OK else { return .failure(.invalid(reason: "VP8 status \(status.rawValue)")) }
            guard features.has_animation == 0 else { return .failure(.unsupported) }
            let width = Int(features.width)
            let height = Int(features.height)
            guard width * height <= maximumPixelCount else { return .failure(.tooLarge(width: width, height: height)) }
            let byteCount = width * height * 4
            var finished = false
            let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { output, count in
                finished =
                    WebPDecodeRGBAInto(
                        buffer.baseAddress, buffer.count, output.baseAddress, byteCount, Int32(width * 4))
                    != nil
                if !finished { output.initialize(repeating: 0) }
                count = byteCount
            }
            guard finished else { return .failure(.invalid(reason: "the image data does not decode")) }
            return .success(RGBAImage(width: width, height: height, pixels: pixels))
        }
        return try result.get()
    }
}
