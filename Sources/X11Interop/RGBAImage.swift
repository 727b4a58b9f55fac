/// A decoded image in memory: 8-bit red, green, blue and alpha per pixel, rows top to bottom.
///
/// Alpha is straight (not premultiplied), as PNG stores it. Plain Swift storage: the Alerts
/// module scales it and `AlertWindow.drawImage` composites it.
public struct RGBAImage: Hashable, Sendable {
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    /// `width × height × 4` bytes: R, G, B, A for each pixel, row after row.
    public let pixels: [UInt8]

    /// Makes an image from its pixels.
    /// - Precondition: `pixels.count == width * height * 4`, sizes not negative.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4, "RGBA pixels do not fit the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The image's size.
    public var size: Size { Size(width: width, height: height) }
}
