/// Decodes uncompressed BMP files in plain Swift into `RGBAImage`s.
///
/// No Debian library decodes BMP on its own (gdk-pixbuf and ImageMagick bring dozens more), and
/// the uncompressed layouts are simple: 1, 4 and 8 bits a pixel through a colour table, 24-bit
/// BGR, and 16 and 32 bits a pixel through channel masks (`BI_RGB`, `BI_BITFIELDS`,
/// `BI_ALPHABITFIELDS`), rows bottom-up or top-down, each padded to four bytes. Run-length,
/// JPEG and PNG compression are refused (`.unsupported`).
public enum BMPDecoder {
    /// The DIB header sizes a BMP can have: core (12), info (40), v2 to v5 (52 … 124).
    static let headerSizes = [12, 40, 52, 56, 64, 108, 124]

    /// Whether `bytes` start as a BMP file does: `BM`, four reserved bytes that are zero after
    /// the size, and a known DIB header size (`BM` alone starts words).
    public static func hasSignature(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 18, bytes[0] == 0x42, bytes[1] == 0x4D, bytes[6...9].allSatisfy({ $0 == 0 }) else {
            return false
        }
        return headerSizes.contains(Int(littleEndian32(bytes, 14)))
    }

    /// Decodes a whole BMP file held in memory; an image of more than `maximumPixelCount`
    /// pixels is refused before anything is allocated for it.
    /// - Throws: `ImageDecodingError`.
    public static func decode(_ bytes: [UInt8], maximumPixelCount: Int) throws(ImageDecodingError) -> RGBAImage {
        guard hasSignature(bytes) else { throw .unsupported }
        let headerSize = Int(littleEndian32(bytes, 14))
        let isCore = headerSize == 12
        guard bytes.count >= 14 + headerSize else { throw .invalid(reason: "truncated header") }
        let width: Int
        let signedHeight: Int
        let bitsPerPixel: Int
        var compression = 0
        var coloursUsed = 0
        if isCore {
            width = Int(littleEndian16(bytes, 18))
            signedHeight = Int(littleEndian16(bytes, 20))
            bitsPerPixel = Int(littleEndian16(bytes, 24))
        } else {
            width = Int(Int32(bitPattern: littleEndian32(bytes, 18)))
            signedHeight = Int(Int32(bitPattern: littleEndian32(bytes, 22)))
            bitsPerPixel = Int(littleEndian16(bytes, 28))
            compression = Int(littleEndian32(bytes, 30))
            coloursUsed = Int(littleEndian32(bytes, 46))
        }
        let height = abs(signedHeight)
        let isTopDown = signedHeight < 0
        guard width > 0, height > 0 else { throw .invalid(reason: "empty image") }
        guard width * height <= maximumPixelCount else { throw .tooLarge(width: width, height: height) }
        guard [1, 4, 8, 16, 24, 32].contains(bitsPerPixel) else { throw .unsupported }
        let masks = try channelMasks(
            bytes, headerSize: headerSize, bitsPerPixel: bitsPerPixel, compression: compression)
        var palette: [[UInt8]] = []
        if bitsPerPixel <= 8 {
            guard [1, 4, 8].contains(bitsPerPixel), compression == 0 else { throw .unsupported }
            let entrySize = isCore ? 3 : 4
            let count = coloursUsed > 0 ? min(coloursUsed, 1 << bitsPerPixel) : 1 << bitsPerPixel
            let start = 14 + headerSize
            guard bytes.count >= start + count * entrySize else { throw .invalid(reason: "truncated colour table") }
            palette = (0..<count).map { entry in
                let at = start + entry * entrySize
                return [bytes[at + 2], bytes[at + 1], bytes[at], 255]
            }
        } else if bitsPerPixel == 24 {
            guard compression == 0 else { throw .unsupported }
        }
        let dataOffset = Int(littleEndian32(bytes, 10))
        let rowStride = (bitsPerPixel * width + 31) / 32 * 4
        guard dataOffset >= 14, bytes.count >= dataOffset + rowStride * height else {
            throw .invalid(reason: "truncated pixel data")
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            let source = dataOffset + (isTopDown ? row : height - 1 - row) * rowStride
            for column in 0..<width {
                let at = (row * width + column) * 4
                let rgba: [UInt8]
                switch bitsPerPixel {
                case 1, 4, 8:
                    let bit = column * bitsPerPixel
                    let byte = bytes[source + bit / 8]
                    let index = Int(byte >> (8 - bitsPerPixel - bit % 8)) & ((1 << bitsPerPixel) - 1)
                    rgba = index < palette.count ? palette[index] : [0, 0, 0, 255]
                case 24:
                    let p = source + column * 3
                    rgba = [bytes[p + 2], bytes[p + 1], bytes[p], 255]
                default:
                    let p = source + column * (bitsPerPixel / 8)
                    let value =
                        bitsPerPixel == 16 ? UInt32(littleEndian16(bytes, p)) : littleEndian32(bytes, p)
                    rgba = masks.map { $0.channel(of: value) }
                }
                pixels[at] = rgba[0]
                pixels[at + 1] = rgba[1]
                pixels[at + 2] = rgba[2]
                pixels[at + 3] = rgba[3]
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// One channel's bits in a 16- or 32-bit pixel.
    struct ChannelMask {
        var mask: UInt32
        /// A channel with no mask (alpha in most files) reads as this.
        var absent: UInt8 = 255

        /// The channel scaled to 8 bits.
        func channel(of value: UInt32) -> UInt8 {
            guard mask != 0 else { return absent }
            let shift = mask.trailingZeroBitCount
            // In 64 bits: a mask may span all 32 (255 × 2³² would not fit).
            let maximum = UInt64(mask >> shift)
            return UInt8(UInt64((value & mask) >> shift) * 255 / maximum)
        }
    }

    /// The red, green, blue and alpha masks of a 16- or 32-bit image: the defaults of `BI_RGB`
    /// (5-5-5, 8-8-8 with the fourth byte unused), else the ones after the info header (at byte
    /// 54, whichever header version holds them; alpha only in v3 and later, or
    /// `BI_ALPHABITFIELDS`).
    static func channelMasks(_ bytes: [UInt8], headerSize: Int, bitsPerPixel: Int, compression: Int)
        throws(ImageDecodingError) -> [ChannelMask]
    {
        guard bitsPerPixel == 16 || bitsPerPixel == 32 else { return [] }
        switch compression {
        case 0:
            return bitsPerPixel == 16
                ? [.init(mask: 0x7C00), .init(mask: 0x03E0), .init(mask: 0x001F), .init(mask: 0)]
                : [.init(mask: 0xFF_0000), .init(mask: 0xFF00), .init(mask: 0xFF), .init(mask: 0)]
        case 3, 6:
            let hasAlpha = compression == 6 || headerSize >= 56
            guard bytes.count >= (hasAlpha ? 70 : 66) else { throw .invalid(reason: "truncated channel masks") }
            var masks = [54, 58, 62].map { ChannelMask(mask: littleEndian32(bytes, $0)) }
            var alpha = ChannelMask(mask: hasAlpha ? littleEndian32(bytes, 66) : 0)
            if masks.contains(where: { $0.mask == 0 }) { throw .invalid(reason: "a colour channel has no bits") }
            alpha.absent = 255
            masks.append(alpha)
            return masks
        default:
            throw .unsupported
        }
    }

    private static func littleEndian16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func littleEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
