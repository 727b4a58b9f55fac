internal import CX11
internal import CXft

// Drawing through the RENDER extension (libXrender, whose header Xft's brings in): what core X
// cannot do, namely compositing with alpha and anti-aliased shapes.

extension AlertWindow {
    /// Fills the polygon through `points` (window coordinates, closed automatically) with
    /// `color`, anti-aliased, by the non-zero winding rule.
    ///
    /// Wraps `XRenderCreateSolidFill` and `XRenderCompositeDoublePoly` (which tessellates into
    /// trapezoids and rasterises them into an 8-bit coverage mask, `PictStandardA8`).
    public func fillPolygon(_ points: [Point], color fillColor: Color) {
        guard points.count >= 3, let target = makeRenderTarget() else { return }
        let pointer = xDisplay
        var render = XRenderColor(
            red: UInt16(fillColor.red) * 0x101, green: UInt16(fillColor.green) * 0x101,
            blue: UInt16(fillColor.blue) * 0x101, alpha: 0xFFFF)
        let source = XRenderCreateSolidFill(pointer, &render)
        defer { XRenderFreePicture(pointer, source) }
        let coverage = XRenderFindStandardFormat(pointer, Int32(PictStandardA8))
        var vertices = points.map { XPointDouble(x: Double($0.x), y: Double($0.y)) }
        XRenderCompositeDoublePoly(
            pointer, Int32(PictOpOver), source, target, coverage, 0, 0, 0, 0, &vertices, Int32(vertices.count),
            0 /* winding: non-zero */)
    }

    /// Composites `image` over what is drawn, its top-left corner at `origin`, one image pixel to
    /// one screen pixel; transparent parts let the window show through (`PictOpOver`).
    ///
    /// The pixels are premultiplied into a 32-bit ARGB pixmap (`XCreatePixmap` of depth 32,
    /// `XPutImage`, which Xlib splits into requests the server accepts), then composited.
    /// Wraps `XRenderFindStandardFormat(PictStandardARGB32)`, `XRenderCreatePicture` and
    /// `XRenderComposite`; every resource made here is freed before returning.
    public func drawImage(_ image: RGBAImage, at origin: Point) {
        guard image.width > 0, image.height > 0, let target = makeRenderTarget() else { return }
        let pointer = xDisplay
        guard let format = XRenderFindStandardFormat(pointer, Int32(PictStandardARGB32)) else { return }
        let (width, height) = (UInt32(image.width), UInt32(image.height))
        let pixmap = XCreatePixmap(pointer, window, width, height, 32)
        defer { XFreePixmap(pointer, pixmap) }
        let graphics = XCreateGC(pointer, pixmap, 0, nil)
        defer { XFreeGC(pointer, graphics) }
        var words = Self.premultipliedARGB(image)
        words.withUnsafeMutableBytes { raw in
            var ximage = XImage()
            ximage.width = Int32(image.width)
            ximage.height = Int32(image.height)
            ximage.xoffset = 0
            ximage.format = ZPixmap
            ximage.data = raw.baseAddress?.assumingMemoryBound(to: CChar.self)
            // The words are in this machine's byte order; Xlib swaps them for the server if needed.
            ximage.byte_order = Self.hostByteOrder
            ximage.bitmap_unit = 32
            ximage.bitmap_bit_order = Self.hostByteOrder
            ximage.bitmap_pad = 32
            ximage.depth = 32
            ximage.bytes_per_line = Int32(image.width * 4)
            ximage.bits_per_pixel = 32
            ximage.red_mask = 0xFF_0000
            ximage.green_mask = 0xFF00
            ximage.blue_mask = 0xFF
            _ = XInitImage(&ximage)
            _ = XPutImage(pointer, pixmap, graphics, &ximage, 0, 0, 0, 0, width, height)
        }
        let source = XRenderCreatePicture(pointer, pixmap, format, 0, nil)
        defer { XRenderFreePicture(pointer, source) }
        XRenderComposite(
            pointer, Int32(PictOpOver), source, 0, target, 0, 0, 0, 0, Int32(clamping: origin.x),
            Int32(clamping: origin.y), width, height)
    }

    /// `LSBFirst` on a little-endian machine, else `MSBFirst`.
    private static var hostByteOrder: Int32 { 1.littleEndian == 1 ? LSBFirst : MSBFirst }

    /// RENDER's `PictStandardARGB32` pixels: `0xAARRGGBB` words, colour premultiplied by alpha
    /// (the Render protocol's convention), rounded to nearest.
    static func premultipliedARGB(_ image: RGBAImage) -> [UInt32] {
        let count = image.width * image.height
        return [UInt32](unsafeUninitializedCapacity: count) { words, initialized in
            image.pixels.withUnsafeBufferPointer { bytes in
                for index in 0..<count {
                    let red = UInt32(bytes[4 * index])
                    let green = UInt32(bytes[4 * index + 1])
                    let blue = UInt32(bytes[4 * index + 2])
                    let alpha = UInt32(bytes[4 * index + 3])
                    words[index] =
                        alpha << 24 | premultiply(red, by: alpha) << 16 | premultiply(green, by: alpha) << 8
                        | premultiply(blue, by: alpha)
                }
            }
            initialized = count
        }
    }

    /// `value × alpha / 255`, rounded, without a division (the classic exact trick).
    private static func premultiply(_ value: UInt32, by alpha: UInt32) -> UInt32 {
        let product = value * alpha + 128
        return (product + (product >> 8)) >> 8
    }

    /// The back buffer as a RENDER picture in the window's visual format, made once.
    /// Wraps `XRenderFindVisualFormat` and `XRenderCreatePicture`.
    private func makeRenderTarget() -> Picture? {
        if renderTarget != 0 { return renderTarget }
        let (pixmap, visual) = backBufferPixmap
        guard pixmap != 0, let format = XRenderFindVisualFormat(xDisplay, visual) else { return nil }
        renderTarget = XRenderCreatePicture(xDisplay, pixmap, format, 0, nil)
        return renderTarget
    }
}
