import Foundation
import Testing
import TestSupport
import X11Interop

@testable import Alerts

@Suite("Thumbnails: shrinking, placeholders and layout")
struct ThumbnailTests {
    let metrics = Metrics(scale: 1)

    @Test("a 1-pixel checkerboard shrinks to its average grey, not to a pattern")
    func checkerboard() {
        var pixels: [UInt8] = []
        for y in 0..<4 { for x in 0..<4 { pixels += (x + y) % 2 == 0 ? [0, 0, 0, 255] : [255, 255, 255, 255] } }
        let small = ImageScaling.boxFiltered(
            RGBAImage(width: 4, height: 4, pixels: pixels), to: Size(width: 2, height: 2))
        #expect(small.pixels == solid(2, 2, [128, 128, 128, 255]))
    }

    @Test("partial pixels count by the share they cover (3 → 2 pixels)")
    func fractionalSpans() {
        let row: [UInt8] = [0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255]
        let small = ImageScaling.boxFiltered(RGBAImage(width: 3, height: 1, pixels: row), to: Size(width: 2, height: 1))
        // Output pixel 0 covers source 0 wholly and half of source 1: (0·2 + 90·1) / 3 = 30.
        #expect(small.pixels == [30, 30, 30, 255, 150, 150, 150, 255])
    }

    @Test("a transparent pixel's colour does not bleed into its neighbour")
    func alphaWeighting() {
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 0]  // opaque red, fully transparent green
        let small = ImageScaling.boxFiltered(
            RGBAImage(width: 2, height: 1, pixels: pixels), to: Size(width: 1, height: 1))
        #expect(small.pixels == [255, 0, 0, 128])
    }

    @Test(
        "images shrink into the square keeping their shape; small ones keep their size",
        arguments: [
            (Size(width: 200, height: 100), Size(width: 80, height: 40)),
            (Size(width: 100, height: 400), Size(width: 20, height: 80)),
            (Size(width: 3000, height: 1), Size(width: 80, height: 1)),
            (Size(width: 40, height: 30), Size(width: 40, height: 30)),
            (Size(width: 80, height: 80), Size(width: 80, height: 80)),
        ])
    func fitting(size: Size, fitted: Size) {
        #expect(Thumbnail.fittedSize(size, within: 80) == fitted)
    }

    @Test(
        "other types, undecodable and oversized PNGs get a placeholder with the type's short name",
        arguments: [
            ("image/jpeg", "JPEG"), ("image/webp", "WEBP"), ("image/gif", "GIF"), ("image/bmp", "BMP"),
            ("image/x-ms-bmp", "BMP"), ("image/svg+xml; charset=utf-8", "SVG"), ("IMAGE/PNG", "PNG"),
            ("application/pdf", "PDF"), ("image/x-portable-anymap", "PORTA"), ("", "FILE"), ("image/\u{1B}[31m", "31M"),
        ])
    func placeholderLabels(mimeType: String, label: String) {
        #expect(Thumbnail.label(forMIMEType: mimeType) == label)
        let image = Alerts.Notification.Image(bytes: Array("not an image".utf8), mimeType: mimeType)
        #expect(Thumbnail(image, metrics: metrics) == .placeholder(label: label))
    }

    @Test("a PNG too large to decode, or damaged, gets the PNG placeholder")
    func pngPlaceholders() {
        let huge = TinyPNG.header(width: 8001, height: 8000) + TinyPNG.chunk("IDAT", []) + TinyPNG.chunk("IEND", [])
        let damaged = TinyPNG.header(width: 4, height: 4) + TinyPNG.chunk("IEND", [])
        for bytes in [huge, damaged] {
            #expect(
                Thumbnail(.init(bytes: bytes, mimeType: "image/png"), metrics: metrics) == .placeholder(label: "PNG"))
        }
    }

    @Test("a PNG is decoded and shrunk to fit the thumbnail square")
    func pictureThumbnail() throws {
        let png = TinyPNG.encode(width: 200, height: 100, rgba: solid(200, 100, [10, 20, 30, 255]))
        let thumbnail = Thumbnail(.init(bytes: png, mimeType: "image/png"), metrics: metrics)
        guard case .picture(let image) = thumbnail else {
            Issue.record("expected a picture, got \(thumbnail)")
            return
        }
        #expect(image.size == Size(width: metrics.thumbnailSide, height: metrics.thumbnailSide / 2))
        #expect(image.pixels == solid(80, 40, [10, 20, 30, 255]))
    }

    @Test(
        "a JPEG, GIF, WebP and BMP are decoded into a picture too, whatever MIME type they came with",
        arguments: ["JPEG:", "GIF:", "WEBP:", "BMP3:"])
    func otherKinds(format: String) throws {
        let png = TinyPNG.encode(width: 200, height: 100, rgba: solid(200, 100, [10, 20, 30, 255]))
        let file = try ImageFiles.convert(png, [], to: format)
        let thumbnail = Thumbnail(.init(bytes: file, mimeType: "application/octet-stream"), metrics: metrics)
        guard case .picture(let image) = thumbnail else {
            Issue.record("expected a picture, got \(thumbnail)")
            return
        }
        #expect(image.size == Size(width: metrics.thumbnailSide, height: metrics.thumbnailSide / 2))
    }

    @Test("the thumbnail sits between the accent bar and the text; the window grows to hold it")
    func layout() {
        let measurer = FixedWidthMeasurer()
        let note = Alerts.Notification(title: "Copied", body: "https://x.example/a", style: .success)
        let picture = Thumbnail.picture(RGBAImage(width: 80, height: 40, pixels: solid(80, 40, [1, 2, 3, 255])))
        for thumbnail in [picture, .placeholder(label: "JPEG")] {
            let layout = NotificationLayout(note, thumbnail: thumbnail, metrics: metrics, measurer: measurer)
            let box = NotificationLayout.box(of: thumbnail, metrics: metrics)
            #expect(box.x == metrics.accentWidth + metrics.padding && box.y == metrics.padding)
            #expect(layout.size.width == metrics.notificationWidth)
            #expect(layout.size.height >= box.maxY + metrics.padding)
            var texts: [String] = []
            for case .text(let text, let x, _, let role, _, _) in layout.commands where role != .secondary {
                texts.append(text)
                #expect(x >= box.maxX + metrics.padding)
                #expect(x + measurer.width(of: text, role: role) <= layout.size.width - metrics.padding)
            }
            #expect(texts == ["Copied", "https://x.example/a"])
        }
        let layout = NotificationLayout(note, thumbnail: picture, metrics: metrics, measurer: measurer)
        let frame = NotificationLayout.frame(of: picture, metrics: metrics)
        #expect(frame == Rect(x: 22, y: 36, width: 80, height: 40))
        #expect(layout.commands.contains { if case .image(_, at: Point(x: 22, y: 36)) = $0 { true } else { false } })
    }
}
