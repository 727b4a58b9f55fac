import Testing
import TestSupport
import X11Interop

/// `ImageDecoder` and the decoders behind it (libjpeg-turbo, giflib, libwebp, plain-Swift BMP),
/// held against ImageMagick's own reading of the same files.
@Suite("Image decoding: JPEG, GIF, WebP, BMP")
struct ImageDecoderTests {
    /// The eight opaque colours of `PNGDecodingTests`, 4 × 2.
    static let source = TinyPNG.encode(width: 4, height: 2, rgba: Array(PNGDecodingTests.colours.joined()))

    @Test(
        "lossless kinds decode to exactly ImageMagick's pixels",
        arguments: [
            ("GIF:", [String]()), ("GIF:", ["-interlace", "GIF"]), ("WEBP:", ["-define", "webp:lossless=true"]),
            ("BMP3:", []), ("BMP3:", ["-type", "Palette"]), ("BMP2:", []), ("BMP:", ["-alpha", "on"]),
            ("BMP3:", ["-define", "bmp:subtype=RGB565"]),
        ] as [(String, [String])])
    func lossless(format: String, arguments: [String]) throws {
        let file = try ImageFiles.convert(Self.source, arguments, to: format)
        let image = try ImageDecoder.decode(file, maximumPixelCount: 100)
        #expect(image.width == 4 && image.height == 2)
        let expected = try ImageFiles.rgba(of: file, [])
        if arguments.contains("bmp:subtype=RGB565") {
            // 5 and 6 bits a channel: each is scaled back to 8 bits, ImageMagick rounds alike.
            for index in 0..<8 {
                #expect(
                    isClose(
                        image.pixels[(index * 4)..<(index * 4 + 4)], Array(expected[(index * 4)..<(index * 4 + 4)]),
                        tolerance: 8))
            }
        } else {
            #expect(image.pixels == expected)
        }
    }

    @Test("a JPEG decodes close to its colours; a lossy WebP too", arguments: ["JPEG:", "WEBP:"])
    func lossy(format: String) throws {
        let flat = try ImageFiles.make(["-size", "64x32", "xc:#2080c0"], as: "PNG:")
        let file = try ImageFiles.convert(flat, ["-quality", "95"], to: format)
        let image = try ImageDecoder.decode(file, maximumPixelCount: 10_000)
        #expect(image.width == 64 && image.height == 32)
        let centre = (16 * 64 + 32) * 4
        #expect(isClose(image.pixels[centre..<(centre + 4)], [0x20, 0x80, 0xC0, 255], tolerance: 6))
    }

    @Test("a JPEG decodes at the smallest DCT scale that keeps a thumbnail's side")
    func jpegScale() throws {
        let file = try ImageFiles.make(["-size", "1000x600", "xc:#2080c0"], as: "JPEG:")
        let image = try JPEGDecoder.decode(file, maximumPixelCount: 1_000_000, minimumSide: 128)
        // 1/8 would be 125 × 75, below 128; 1/4 is the next smaller than 3/8.
        #expect(image.width == 250 && image.height == 150)
        let full = try JPEGDecoder.decode(file, maximumPixelCount: 1_000_000)
        #expect(full.width == 1000 && full.height == 600)
    }

    @Test("a GIF's transparent index comes out transparent, the first frame of an animation alone")
    func gifTransparencyAndFrames() throws {
        let transparent = try ImageFiles.make(
            ["-size", "4x2", "xc:none", "-fill", "red", "-draw", "point 0,0"], as: "GIF:")
        let image = try GIFDecoder.decode(transparent, maximumPixelCount: 100)
        #expect(Array(image.pixels[0..<4]) == [255, 0, 0, 255])
        #expect(image.pixels[7] == 0)
        let animation = try ImageFiles.make(["-size", "4x2", "xc:red", "xc:blue"], as: "GIF:")
        let first = try GIFDecoder.decode(animation, maximumPixelCount: 100)
        #expect(Array(first.pixels[0..<4]) == [255, 0, 0, 255])
    }

    @Test(
        "images past the pixel limit are refused before decoding",
        arguments: ["JPEG:", "GIF:", "WEBP:", "BMP3:"])
    func tooLarge(format: String) throws {
        let file = try ImageFiles.make(["-size", "200x100", "xc:gray"], as: format)
        #expect(throws: ImageDecodingError.tooLarge(width: 200, height: 100)) {
            try ImageDecoder.decode(file, maximumPixelCount: 19_999)
        }
    }

    @Test("truncated files are invalid, not a crash", arguments: ["JPEG:", "GIF:", "WEBP:", "BMP3:"])
    func truncated(format: String) throws {
        let file = try ImageFiles.make(["-size", "64x64", "xc:", "+noise", "Random"], as: format)
        #expect(throws: ImageDecodingError.self) {
            try ImageDecoder.decode(Array(file.prefix(file.count / 2)), maximumPixelCount: 10_000)
        }
    }

    @Test(
        "kinds with no decoder are unsupported: TIFF, ICO, an animated WebP", arguments: ["TIFF:", "ICO:", "webp-anim"])
    func unsupported(format: String) throws {
        let file =
            format == "webp-anim"
            ? try ImageFiles.make(["-size", "4x2", "xc:red", "xc:blue"], as: "WEBP:")
            : try ImageFiles.convert(Self.source, [], to: format)
        #expect(throws: ImageDecodingError.unsupported) { try ImageDecoder.decode(file, maximumPixelCount: 100) }
    }

    @Test(
        "a BMP of a depth it does not know, or with no colour bits, is refused, not a crash", arguments: [0, 2, 12, 48])
    func bmpDepths(bitsPerPixel: Int) throws {
        var file = try ImageFiles.convert(Self.source, [], to: "BMP3:")
        file[28] = UInt8(bitsPerPixel & 0xFF)
        file[29] = UInt8(bitsPerPixel >> 8)
        #expect(throws: ImageDecodingError.self) { try BMPDecoder.decode(file, maximumPixelCount: 100) }
    }

    @Test("every prefix of a file, and every byte of its header flipped, is an error or an image, never a crash")
    func damaged() throws {
        for format in ["JPEG:", "GIF:", "WEBP:", "BMP3:", "BMP:"] {
            let file = try ImageFiles.convert(Self.source, [], to: format)
            for length in 0..<min(file.count, 200) {
                _ = try? ImageDecoder.decode(Array(file.prefix(length)), maximumPixelCount: 10_000)
            }
            for index in 0..<min(file.count, 80) {
                for value: UInt8 in [0, 0xFF, file[index] ^ 0x80] {
                    var damaged = file
                    damaged[index] = value
                    _ = try? ImageDecoder.decode(damaged, maximumPixelCount: 10_000)
                }
            }
        }
    }
}
