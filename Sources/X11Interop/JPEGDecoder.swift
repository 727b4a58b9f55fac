internal import CJpeg

/// Decodes JPEG files with libjpeg-turbo's TurboJPEG API into `RGBAImage`s.
///
/// TurboJPEG converts every JPEG colour space it can (grey, YCbCr, RGB) to 8-bit RGBA
/// (`TJPF_RGBA`), and decodes at a fraction of the size in the DCT itself, which is how a
/// thumbnail of a 12-megapixel photo costs a 48th of the memory. CMYK and YCCK files, which it
/// does not convert to RGB, are refused (`.invalid`). The EXIF orientation is not applied.
public enum JPEGDecoder {
    /// Whether `bytes` start as a JPEG file does (SOI, then a marker: ITU T.81 §B.1.1.2).
    public static func hasSignature(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xFF, 0xD8, 0xFF])
    }

    /// Decodes a whole JPEG file held in memory, at the smallest of TurboJPEG's scales (1/8,
    /// 1/4, 3/8, 1/2 ... 1) that keeps the longer side at least `minimumSide`.
    ///
    /// The header is read first; an image whose decoded size has more than `maximumPixelCount`
    /// pixels is refused before anything is allocated for it.
    ///
    /// Wraps `tjInitDecompress`, `tjDecompressHeader3`, `tjGetScalingFactors`, `tjDecompress2`,
    /// `tjGetErrorStr2` and `tjDestroy`.
    /// - Parameters:
    ///   - minimumSide: the longer side the result must keep (a thumbnail's side); nil decodes
    ///     at full size.
    /// - Throws: `ImageDecodingError`.
    public static func decode(_ bytes: [UInt8], maximumPixelCount: Int, minimumSide: Int? = nil)
        throws(ImageDecodingError) -> RGBAImage
    {
        guard hasSignature(bytes) else { throw .unsupported }
        guard let handle = tjInitDecompress() else { throw .invalid(reason: "tjInitDecompress failed") }
        defer { tjDestroy(handle) }
        // TurboJPEG reads from `bytes` only inside these calls, while the buffer is pinned.
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<RGBAImage, ImageDecodingError> in
            var width: Int32 = 0
            var height: Int32 = 0
            var subsampling: Int32 = 0
            var colourSpace: Int32 = 0
            guard
                tjDecompressHeader3(
                    handle, buffer.baseAddress, UInt(buffer.count), &width, &height, &subsampling, &colourSpace)
                    == 0
            else { return .failure(.invalid(reason: message(of: handle))) }
            let (scaledWidth, scaledHeight) = scaledSize(Int(width), Int(height), minimumSide: minimumSide)
            guard scaledWidth * scaledHeight <= maximumPixelCount else {
                return .failure(.tooLarge(width: Int(width), height: Int(height)))
            }
            let byteCount = scaledWidth * scaledHeight * 4
            var finished = false
            let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { output, count in
                finished =
                    tjDecompress2(
                        handle, buffer.baseAddress, UInt(buffer.count), output.baseAddress, Int32(scaledWidth),
                        Int32(scaledWidth * 4), Int32(scaledHeight), Int32(TJPF_RGBA.rawValue), 0) == 0
                // On failure the buffer may be partly written: zero it rather than expose it.
                if !finished { output.initialize(repeating: 0) }
                count = byteCount
            }
            guard finished else { return .failure(.invalid(reason: message(of: handle))) }
            return .success(RGBAImage(width: scaledWidth, height: scaledHeight, pixels: pixels))
        }
        return try result.get()
    }

    /// The size TurboJPEG decodes `width` × `height` at: the smallest of its scaling factors
    /// whose longer side is still at least `minimumSide` (`TJSCALED`: `ceil(side × num / denom)`).
    static func scaledSize(_ width: Int, _ height: Int, minimumSide: Int?) -> (Int, Int) {
        guard let minimumSide else { return (width, height) }
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
        var best = (width, height)
        for index in 0..<Int(count) {
            let factor = factors[index]
            let num = Int(factor.num)
            let denom = Int(factor.denom)
            guard num > 0, denom > 0, num <= denom else { continue }
            let scaled = ((width * num + denom - 1) / denom, (height * num + denom - 1) / denom)
            if max(scaled.0, scaled.1) >= minimumSide, scaled.0 * scaled.1 < best.0 * best.1 { best = scaled }
        }
        return best
    }

    /// The handle's last error message.
    private static func message(of handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}
