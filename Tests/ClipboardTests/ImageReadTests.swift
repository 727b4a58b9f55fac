import Foundation
import Testing
import TestSupport
import X11Interop

@testable import Clipboard

/// Reading text or an image (`readContent`): real PNGs put by xclip, read back byte-exact, and
/// scripted owners for what xclip cannot play.
@Suite("Reading images", .tags(.x11), .needsXServer, .sharedXvfb, .serialized)
struct ImageReadTests: ScopedSuite {
    static let timeout = Duration.seconds(10)

    /// Puts `bytes` on CLIPBOARD with `xclip -t type` and waits until it owns it.
    static func putWithXclip(_ bytes: [UInt8], type: String, on server: Xvfb) throws {
        try Selections.startOwnerTool(
            ["/usr/bin/xclip", "-i", "-selection", "clipboard", "-t", type], input: bytes, on: server,
            selection: .clipboard)
    }

    @Test("a PNG put by xclip is read byte-exact, with its type, small and past INCR's threshold")
    func pngFromXclip() throws {
        let server = xvfb
        for png in [try TestImages.smallPNG(), try TestImages.noisePNG()] {
            try Self.putWithXclip(png, type: "image/png", on: server)
            let content = try Selections.clipboard(server).readContent(
                .clipboard, timeout: Self.timeout, preferences: ContentPreferences())
            #expect(content == .image(png, type: "image/png"), "\(png.count) bytes")
        }
    }

    @Test("a JPEG put by xclip comes back as image/jpeg, byte-exact, also when an image is preferred")
    func jpegFromXclip() throws {
        let server = xvfb
        let jpeg = try TestImages.make(["-size", "320x200", "gradient:red-blue"], as: "jpeg")
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
        try Self.putWithXclip(jpeg, type: "image/jpeg", on: server)
        for prefersImage in [false, true] {
            let content = try Selections.clipboard(server).readContent(
                .clipboard, timeout: Self.timeout, preferences: ContentPreferences(prefersImage: prefersImage))
            #expect(content == .image(jpeg, type: "image/jpeg"))
        }
    }

    @Test("text stays one round trip: a text owner is asked UTF8_STRING with TARGETS beside it, the text unchanged")
    func textCostsOneStep() throws {
        let server = xvfb
        let text = Selections.text(size: 5000)
        let owner = try ScriptedOwner(
            on: server,
            answers: ["UTF8_STRING": .bytes(text, type: "UTF8_STRING"), "image/png": .bytes([1], type: "image/png")])
        defer { owner.stop() }
        let content = try Selections.clipboard(server).readContent(
            .clipboard, timeout: Self.timeout, preferences: ContentPreferences())
        #expect(content == .text(text))
        #expect(owner.requestedTargets == ["TARGETS", "UTF8_STRING"])
    }

    @Test("an owner with text and an image: text wins, the image when preferred (TARGETS first, then the image)")
    func textAndImage() throws {
        let server = xvfb
        let png = try TestImages.noisePNG(side: 400)
        let text = Array("a caption".utf8)
        let owner = try ScriptedOwner(
            on: server,
            answers: ["UTF8_STRING": .bytes(text, type: "UTF8_STRING"), "image/png": .bytes(png, type: "image/png")])
        defer { owner.stop() }
        let clipboard = Selections.clipboard(server)
        #expect(
            try clipboard.readContent(.clipboard, timeout: Self.timeout, preferences: ContentPreferences())
                == .text(text))
        #expect(owner.requestedTargets == ["TARGETS", "UTF8_STRING"])
        let preferred = try clipboard.readContent(
            .clipboard, timeout: Self.timeout, preferences: ContentPreferences(prefersImage: true))
        #expect(preferred == .image(png, type: "image/png"))
        #expect(owner.requestedTargets == ["TARGETS", "UTF8_STRING", "TARGETS", "image/png"])
        // The text-only read is not affected by the image.
        #expect(try clipboard.read(.clipboard, timeout: Self.timeout) == text)
    }

    @Test("an image-only owner that refuses text: UTF8_STRING refused, TARGETS names the image, the best one is read")
    func refusingImageOwner() throws {
        let server = xvfb
        let png = try TestImages.smallPNG()
        let gif = try TestImages.make(["-size", "8x8", "xc:red"], as: "gif")
        let owner = try ScriptedOwner(
            on: server,
            answers: ["image/gif": .bytes(gif, type: "image/gif"), "image/png": .bytes(png, type: "image/png")])
        defer { owner.stop() }
        let content = try Selections.clipboard(server).readContent(
            .clipboard, timeout: Self.timeout, preferences: ContentPreferences())
        #expect(content == .image(png, type: "image/png"))
        #expect(owner.requestedTargets == ["TARGETS", "UTF8_STRING", "image/png"])
    }

    @Test("an owner with neither text nor an image is noContentTarget, naming what it offers")
    func neitherTextNorImage() throws {
        let server = xvfb
        let owner = try ScriptedOwner(
            on: server, answers: ["application/pdf": .bytes([0x25, 0x50], type: "application/pdf")])
        defer { owner.stop() }
        let error = #expect(throws: ClipboardError.self) {
            try Selections.clipboard(server).readContent(
                .clipboard, timeout: Self.timeout, preferences: ContentPreferences())
        }
        #expect(error == .noContentTarget(.clipboard, available: ["application/pdf"]))
        #expect(error?.kind == .badInput)
        #expect(error?.message == "the clipboard holds neither text nor an image (it offers: application/pdf)")
    }

    @Test("an owner that sends an image without end is stopped at the limit", arguments: [false, true])
    func endlessOwnerStops(prefersImage: Bool) throws {
        let server = xvfb
        let owner = try ScriptedOwner(on: server, answers: ["image/png": .endless(type: "image/png")])
        defer { owner.stop() }
        let limit = 1 << 20
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: ClipboardError.tooLarge(.clipboard, type: "image/png", limit: limit)) {
            try Selections.clipboard(server).readContent(
                .clipboard, timeout: Self.timeout,
                preferences: ContentPreferences(prefersImage: prefersImage, imageLimit: limit))
        }
        // Stopped by the limit, not by a deadline.
        #expect(clock.now - start < Self.timeout)
    }

    @Test("an xclip image past the limit is refused, one within it is read")
    func xclipLimit() throws {
        let server = xvfb
        let png = try TestImages.noisePNG(side: 500)
        try Self.putWithXclip(png, type: "image/png", on: server)
        let error = #expect(throws: ClipboardError.self) {
            try Selections.clipboard(server).readContent(
                .clipboard, timeout: Self.timeout, preferences: ContentPreferences(imageLimit: png.count - 1))
        }
        #expect(error == .tooLarge(.clipboard, type: "image/png", limit: png.count - 1))
        #expect(
            error?.message == "the clipboard's image/png is over the limit of \(png.count - 1) bytes; reading stopped")
        // The refused read left xclip mid-transfer, waiting for a deletion on the first
        // reader's window (paste exits there): the second read is a new owner's and a new
        // reader's, as the next run of paste would be.
        try Self.putWithXclip(png, type: "image/png", on: server)
        #expect(
            try Selections.clipboard(server).readContent(
                .clipboard, timeout: Self.timeout, preferences: ContentPreferences(imageLimit: png.count))
                == .image(png, type: "image/png"))
    }

    @Test("text owners are read as before, xclip's and xsel's alike")
    func textFromTools() throws {
        let server = xvfb
        let text = Selections.text(size: 300 * 1024)
        try Selections.startOwnerTool(["/usr/bin/xsel", "-i", "-b"], input: text, on: server, selection: .clipboard)
        #expect(
            try Selections.clipboard(server).readContent(
                .clipboard, timeout: Self.timeout, preferences: ContentPreferences(prefersImage: true)) == .text(text))
    }

    @Test("an image read keeping the connection, then the URL put back: xclip reads the URL")
    func imageKeepingConnection() throws {
        let server = xvfb
        let png = try TestImages.noisePNG(side: 400)
        try Self.putWithXclip(png, type: "image/png", on: server)
        let read = try Selections.clipboard(server).read(
            ReadRequest(.clipboard, timeout: Self.timeout, copyTarget: .clipboard))
        #expect(read.content == .image(png, type: "image/png"))
        try #require(read.write).complete(with: Array("http://example.test/0x0/1.png".utf8))
        #expect(try server.clipboardText() == "http://example.test/0x0/1.png")
    }
}
