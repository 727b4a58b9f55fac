import Foundation
import Testing
import TestSupport
import X11Interop

/// `width` × `height` pixels of one colour.
func solid(_ width: Int, _ height: Int, _ rgba: [UInt8]) -> [UInt8] {
    Array([[UInt8]](repeating: rgba, count: width * height).joined())
}

/// The colour type (IHDR byte 25) and bit depth (byte 24) a PNG file declares.
func colourTypeAndDepth(_ png: [UInt8]) -> (type: UInt8, depth: UInt8) { (png[25], png[24]) }

/// Whether two pixels' channels differ by at most `tolerance`.
func isClose(_ a: ArraySlice<UInt8>, _ b: [UInt8], tolerance: Int) -> Bool {
    zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
}

@Suite("PNG decoding with libpng")
struct PNGDecodingTests {
    /// Eight opaque colours, 4 × 2.
    static let colours: [[UInt8]] = [
        [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255],
        [0, 0, 0, 255], [128, 128, 128, 255], [255, 200, 0, 255], [20, 120, 220, 255],
    ]
    /// Four greys with four alphas, 4 × 1.
    static let greysWithAlpha: [[UInt8]] = [
        [0, 0, 0, 255], [64, 64, 64, 0], [128, 128, 128, 128], [255, 255, 255, 255],
    ]

    @Test("our own encoder's RGBA PNG decodes to the same pixels")
    func roundTrip() throws {
        let pixels = Array(Self.colours.joined())
        let png = TinyPNG.encode(width: 4, height: 2, rgba: pixels)
        let image = try PNGDecoder.decode(png, maximumPixelCount: 100)
        #expect(image.width == 4 && image.height == 2)
        #expect(image.pixels == pixels)
    }

    @Test(
        "every colour type and depth comes out as RGBA8: palette, RGB, 16-bit, interlaced",
        arguments: [
            ("PNG8:", [String](), UInt8(3), UInt8(8)),
            ("PNG24:", [], 2, 8),
            ("PNG48:", [], 2, 16),
            ("PNG24:", ["-interlace", "PNG"], 2, 8),
        ] as [(String, [String], UInt8, UInt8)])
    func colourVariants(format: String, arguments: [String], colourType: UInt8, depth: UInt8) throws {
        let source = TinyPNG.encode(width: 4, height: 2, rgba: Array(Self.colours.joined()))
        let png = try ImageFiles.convert(source, arguments, to: format)
        #expect(colourTypeAndDepth(png) == (colourType, depth), "ImageMagick wrote another kind of PNG")
        let image = try PNGDecoder.decode(png, maximumPixelCount: 100)
        #expect(image.width == 4 && image.height == 2)
        for (index, colour) in Self.colours.enumerated() {
            #expect(isClose(image.pixels[(index * 4)..<(index * 4 + 4)], colour, tolerance: 1), "pixel \(index)")
        }
    }

    @Test(
        "grey, grey with alpha, 16-bit grey with alpha and 1-bit come out as RGBA8",
        arguments: [
            ([String](), UInt8(4), UInt8(8), false),
            (["-define", "png:color-type=4", "-define", "png:bit-depth=16"], 4, 16, false),
            (["-alpha", "off", "-define", "png:color-type=0", "-define", "png:bit-depth=8"], 0, 8, false),
            (
                ["-alpha", "off", "-threshold", "50%", "-define", "png:color-type=0", "-define", "png:bit-depth=1"], 0,
                1, true
            ),
        ] as [([String], UInt8, UInt8, Bool)])
    func greyVariants(arguments: [String], colourType: UInt8, depth: UInt8, isBilevel: Bool) throws {
        let source = TinyPNG.encode(width: 4, height: 1, rgba: Array(Self.greysWithAlpha.joined()))
        let png = try ImageFiles.convert(source, ["-colorspace", "Gray"] + arguments, to: "PNG:")
        #expect(colourTypeAndDepth(png) == (colourType, depth), "ImageMagick wrote another kind of PNG")
        let image = try PNGDecoder.decode(png, maximumPixelCount: 100)
        let hasAlpha = colourType == 4
        for (index, pixel) in Self.greysWithAlpha.enumerated() {
            var expected = pixel
            if isBilevel { expected = pixel[0] >= 128 ? [255, 255, 255, 255] : [0, 0, 0, 255] }
            if !hasAlpha { expected[3] = 255 }
            let got = image.pixels[(index * 4)..<(index * 4 + 4)]
            // A fully transparent pixel's grey is meaningless (tools store 0): check alpha only.
            if expected[3] == 0 {
                #expect(got.last == 0, "pixel \(index)")
            } else {
                #expect(isClose(got, expected, tolerance: 1), "pixel \(index): \(Array(got)) for \(expected)")
            }
        }
    }

    @Test("an image over the pixel limit is refused from its header, before any decoding")
    func tooLarge() {
        // IHDR claims 9000 × 9000 (81 megapixels); the image data is empty.
        let png = TinyPNG.header(width: 9000, height: 9000) + TinyPNG.chunk("IDAT", []) + TinyPNG.chunk("IEND", [])
        #expect(throws: PNGDecodingError.tooLarge(width: 9000, height: 9000)) {
            try PNGDecoder.decode(png, maximumPixelCount: 64_000_000)
        }
    }

    @Test("data that is not a PNG, or a damaged one, is an error, never a crash")
    func damaged() throws {
        #expect(throws: PNGDecodingError.notPNG) { try PNGDecoder.decode([1, 2, 3], maximumPixelCount: 100) }
        let good = TinyPNG.encode(width: 8, height: 8, rgba: solid(8, 8, [9, 9, 9, 255]))
        // Truncated in the middle of the image data.
        #expect(throws: PNGDecodingError.self) {
            try PNGDecoder.decode(Array(good.prefix(good.count - 40)), maximumPixelCount: 100)
        }
        // A flipped bit in IHDR fails its CRC.
        var flipped = good
        flipped[20] ^= 0x40
        #expect(throws: PNGDecodingError.self) { try PNGDecoder.decode(flipped, maximumPixelCount: 100) }
    }
}
