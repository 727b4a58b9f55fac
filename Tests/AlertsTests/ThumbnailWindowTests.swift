import Foundation
import Testing
import TestSupport
import X11Interop

@testable import Alerts

/// The notification's thumbnail on a real X server: decoded with libpng, shrunk, composited
/// with RENDER, captured with xwd and checked pixel by pixel.
@Suite("Thumbnails in the notification under Xvfb", .tags(.x11), .needsXServer, .xvfb, .serialized)
struct ThumbnailWindowTests: ScopedSuite {
    /// Layout sizes at the pinned 96 DPI (scale 1).
    let metrics = Metrics(dotsPerInch: Double(Xvfb.dotsPerInch))
    let url = "https://pastie.example/pastes/4711/screenshot.png"

    /// A screenshot of the window the notification in `note` shows, as RGBA pixels, and its path.
    func capture(_ note: Alerts.Notification, name: String) throws -> (Screenshot, path: String) {
        let display = xvfb.display
        let call = BackgroundCall { try Alerts.notify(note, displayName: display, app: .paste) }
        let window = try xvfb.waitForPasteWindow()
        let path = try xvfb.screenshot(window: window, name: name)
        print("screenshot of the notification with a thumbnail: \(path)")
        try xvfb.xdotool("mousemove", "--window", window, "200", "5", "click", "1")
        try call.value(timeout: 10)
        let (width, height, pixels) = try ImageFiles.rgba(ofFile: path)
        return (Screenshot(width: width, height: height, pixels: pixels), path)
    }

    @Test("a picture's thumbnail matches ImageMagick's own box-filtered reduction of it")
    func photoThumbnail() throws {
        // ImageMagick's built-in 640 × 480 logo: a picture with gradients, text and edges.
        let png = try ImageFiles.make(["logo:"], as: "PNG24:")
        let note = Alerts.Notification(
            title: "Copied", body: url, style: .success, timeout: .seconds(60),
            image: .init(bytes: png, mimeType: "image/png"))
        let (shot, _) = try capture(note, name: "notification-thumbnail")
        let expected = try ImageFiles.rgba(of: png, ["-filter", "Box", "-resize", "80x60!"])
        let frame = NotificationLayout.frame(
            of: .picture(RGBAImage(width: 80, height: 60, pixels: [UInt8](repeating: 0, count: 80 * 60 * 4))),
            metrics: metrics)
        var difference = 0
        for y in 0..<60 {
            for x in 0..<80 {
                let reference = expected[((y * 80 + x) * 4)..<((y * 80 + x) * 4 + 3)]
                difference += zip(shot.rgb(frame.x + x, frame.y + y), reference).map { abs(Int($0) - Int($1)) }.reduce(
                    0, +)
            }
        }
        let meanDifference = Double(difference) / Double(80 * 60 * 3)
        #expect(meanDifference < 2, "mean difference per channel from ImageMagick's reduction: \(meanDifference)")
    }

    @Test("a PNG's thumbnail shows beside the URL in the image's colours, shrunk to fit")
    func pictureThumbnail() throws {
        // 240 × 120: left half red, right half blue, a white dot every third pixel across and
        // down on the red half: shrunk 3 times, each dot must melt into its 3 × 3 block (a ninth
        // white) instead of showing as a pattern.
        var pixels: [UInt8] = []
        for y in 0..<120 {
            for x in 0..<240 {
                if x < 120 {
                    pixels += (x % 3 == 0 && y % 3 == 0) ? [255, 255, 255, 255] : [200, 20, 40, 255]
                } else {
                    pixels += [30, 60, 200, 255]
                }
            }
        }
        let png = TinyPNG.encode(width: 240, height: 120, rgba: pixels)
        let note = Alerts.Notification(
            title: "Copied", body: url, style: .success, timeout: .seconds(60),
            image: .init(bytes: png, mimeType: "image/png"))
        let (shot, _) = try capture(note, name: "notification-thumbnail-colours")
        #expect(shot.width == metrics.notificationWidth)
        #expect(shot.height >= metrics.thumbnailSide + 2 * metrics.padding)

        let frame = NotificationLayout.frame(
            of: .picture(RGBAImage(width: 80, height: 40, pixels: [UInt8](repeating: 0, count: 80 * 40 * 4))),
            metrics: metrics)
        #expect(frame == Rect(x: 22, y: 36, width: 80, height: 40))
        // The red half with its dots is 8/9 red + 1/9 white; the blue half stays blue.
        let gridRed: [UInt8] = [206, 46, 64]
        let blue: [UInt8] = [30, 60, 200]
        let left = Rect(x: frame.x + 2, y: frame.y + 2, width: 36, height: 36)
        let right = Rect(x: frame.x + 42, y: frame.y + 2, width: 36, height: 36)
        #expect(shot.share(of: left, near: gridRed, tolerance: 2) > 0.95, "left half: \(shot.colours(in: left))")
        #expect(shot.share(of: right, near: blue, tolerance: 6) > 0.95, "right half: \(shot.colours(in: right))")
        #expect(shot.share(of: frame, near: [0xFA, 0xFA, 0xFB], tolerance: 2) == 0, "the thumbnail is drawn")
        // The text moved right of the thumbnail: nothing but surface between it and the text.
        let gap = Rect(x: frame.maxX + 2, y: frame.y, width: 10, height: frame.height)
        #expect(shot.share(of: gap, near: [0xFA, 0xFA, 0xFB], tolerance: 2) == 1)
    }

    @Test("a transparent PNG composes over the notification's surface")
    func transparentThumbnail() throws {
        // 80 × 80: the top half fully transparent (its colour, green, must not show), the bottom
        // half black at 50 % alpha.
        let top = [UInt8]([0, 255, 0, 0])
        let bottom = [UInt8]([0, 0, 0, 128])
        var pixels: [UInt8] = []
        for y in 0..<80 { for _ in 0..<80 { pixels += y < 40 ? top : bottom } }
        let png = TinyPNG.encode(width: 80, height: 80, rgba: pixels)
        let note = Alerts.Notification(
            title: "Copied", body: url, style: .success, timeout: .seconds(60),
            image: .init(bytes: png, mimeType: "image/png"))
        let (shot, _) = try capture(note, name: "notification-thumbnail-transparent")
        let frame = Rect(x: metrics.accentWidth + metrics.padding, y: metrics.padding, width: 80, height: 80)
        let surface: [UInt8] = [0xFA, 0xFA, 0xFB]
        // Surface × (1 − 128/255) ≈ 125.
        let half: [UInt8] = [125, 125, 125]
        let upper = Rect(x: frame.x, y: frame.y, width: 80, height: 40)
        let lower = Rect(x: frame.x, y: frame.y + 40, width: 80, height: 40)
        #expect(shot.share(of: upper, near: surface, tolerance: 1) == 1, "upper: \(shot.colours(in: upper))")
        #expect(shot.share(of: lower, near: half, tolerance: 2) == 1, "lower: \(shot.colours(in: lower))")
    }

    @Test("a TIFF (no decoder) gets the drawn placeholder labelled TIFF")
    func placeholder() throws {
        let tiff = try ImageFiles.convert(
            TinyPNG.encode(width: 16, height: 16, rgba: [UInt8](repeating: 200, count: 16 * 16 * 4)), [], to: "TIFF:")
        let note = Alerts.Notification(
            title: "Copied", body: url, style: .success, timeout: .seconds(60),
            image: .init(bytes: tiff, mimeType: "image/tiff"))
        let (shot, _) = try capture(note, name: "notification-placeholder")
        let tile = NotificationLayout.box(of: .placeholder(label: "TIFF"), metrics: metrics)
        #expect(tile.width == metrics.placeholderSide)
        // The tile's grey, the glyph's dark and light greys, and the white inside the frame.
        #expect(shot.share(of: tile, near: [0xE6, 0xE7, 0xEB], tolerance: 2) > 0.3)
        #expect(shot.share(of: tile, near: [0x6B, 0x6E, 0x76], tolerance: 2) > 0.05)
        #expect(shot.share(of: tile, near: [0xA9, 0xAC, 0xB4], tolerance: 2) > 0.01)
        #expect(shot.share(of: tile, near: [0xFF, 0xFF, 0xFF], tolerance: 2) > 0.01)
        // The label: dark text pixels in the tile's lower part.
        let label = Rect(x: tile.x, y: tile.y + tile.height * 2 / 3, width: tile.width, height: tile.height / 3)
        #expect(shot.share(of: label, near: [0x6B, 0x6E, 0x76], tolerance: 40) > 0.03)
    }
}

/// A captured window as 8-bit RGBA.
struct Screenshot {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    /// The RGB of the pixel at `x`, `y`.
    func rgb(_ x: Int, _ y: Int) -> [UInt8] {
        let base = (y * width + x) * 4
        return Array(pixels[base..<(base + 3)])
    }

    /// The share of the pixels in `rect` whose channels are within `tolerance` of `colour`.
    func share(of rect: Rect, near colour: [UInt8], tolerance: Int) -> Double {
        var matching = 0
        var total = 0
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                total += 1
                if zip(rgb(x, y), colour).allSatisfy({ abs(Int($0) - Int($1)) <= tolerance }) { matching += 1 }
            }
        }
        return total == 0 ? 0 : Double(matching) / Double(total)
    }

    /// The distinct colours in `rect` with their counts, most frequent first (for messages).
    func colours(in rect: Rect) -> String {
        var counts: [[UInt8]: Int] = [:]
        for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { counts[rgb(x, y), default: 0] += 1 } }
        return counts.sorted { $0.value > $1.value }.prefix(5).map { "\($0.key)×\($0.value)" }.joined(separator: " ")
    }
}
