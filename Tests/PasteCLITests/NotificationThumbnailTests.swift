import Foundation
import Testing
import TestSupport

/// The desktop notification of an uploaded image carries its thumbnail as `image-data`
/// (`(iiibiiay)`, spec 1.2) for every kind paste decodes (PNG, JPEG, GIF, WebP, BMP), shrunk
/// to fit 128 × 128; a kind it does not decode (TIFF) goes without a picture (issue 24, item
/// 2). On a private session bus, with the recording notification server.
@Suite("Notification thumbnails of every image kind", .temporaryHome, .mock, .serialized)
struct NotificationThumbnailTests: ScopedSuite {
    /// A 300 × 200 image of one colour, as `format`, in the home; its path.
    func image(_ format: String, name: String) throws -> String {
        let bytes = try TestImages.make(["-size", "300x200", "xc:#2080c0"], as: format)
        let path = home.root.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Uploads the file at `path` to the mock's 0x0 with a desktop notification; the
    /// notification the server got.
    func notify(_ path: String) throws -> [String: Any] {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try desktopRunner(home: home, bus: bus)
        try paste.writeConfig("[paste]\nretries = 0\n[service \"0x0\"]\nurl = \(mock.url("/0x0/"))\n")
        let result = try paste.run(["-f", path, "-S", "0x0", "--notify", "--no-copy"])
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let note = try #require(server.notifications.first, "no Notify: \(server.output)")
        // Not copied (--no-copy), so "Pasted" rather than "Copied".
        #expect(note["summary"] as? String == "Pasted")
        return note
    }

    @Test(
        "image-data: 128 × 85, stride 512, alpha, 8 bits, 4 channels, the colour at its centre",
        arguments: [("png", 0), ("jpeg", 6), ("gif", 0), ("webp", 6), ("bmp", 0)])
    func thumbnail(format: String, tolerance: Int) throws {
        let note = try notify(try image(format, name: "shot.\(format)"))
        let hints = try #require(note["hints"] as? [String: Any])
        // 300 × 200 fitted to 128: 128 × round(200 × 128 / 300) = 128 × 85 (a JPEG decoded at
        // 1/2 in the DCT first, 150 × 100, fits to the same).
        #expect(hints["image-data"] as? [Int] == [128, 85, 128 * 4, 1, 8, 4, 128 * 85 * 4])
        let centre = try #require(note["image-centre"] as? [Int])
        #expect(centre.count == 4)
        for (channel, expected) in zip(centre, [0x20, 0x80, 0xC0, 255]) {
            #expect(abs(channel - expected) <= tolerance, "\(centre)")
        }
    }

    @Test("a TIFF, which paste does not decode, goes without a picture (no image-data, no image-path)")
    func undecoded() throws {
        let note = try notify(try image("tiff", name: "scan.tiff"))
        let hints = try #require(note["hints"] as? [String: Any])
        #expect(hints["image-data"] == nil)
        #expect(hints["image-path"] == nil)
        #expect(hints["image_path"] == nil)
    }
}
