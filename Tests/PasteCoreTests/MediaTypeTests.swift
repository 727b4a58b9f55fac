import Foundation
import Testing
import TestSupport

@testable import PasteCore

/// A file's type from its bytes and name: signatures, then the extension, then text or not.
@Suite("Media types")
struct MediaTypeTests {
    @Test(
        "real images made by ImageMagick are known by their bytes, whatever their name",
        arguments: [
            ("png", "image/png", "png"), ("jpeg", "image/jpeg", "jpg"), ("gif", "image/gif", "gif"),
            ("webp", "image/webp", "webp"), ("bmp", "image/bmp", "bmp"), ("tiff", "image/tiff", "tif"),
        ])
    func realImages(format: String, name: String, fileExtension: String) throws {
        let bytes = try TestImages.make(["-size", "40x30", "gradient:red-blue"], as: format)
        for fileName in ["shot.\(format)", "notes.txt", "noextension", nil] as [String?] {
            let type = MediaType.detect(
                start: bytes.prefix(MediaType.signatureLength), isWhole: false, fileName: fileName)
            #expect(type.name == name, "\(fileName ?? "no name")")
            #expect(type.category == .image)
            #expect(type.fileExtension == fileExtension)
        }
        #expect(MediaType.detect(start: bytes, isWhole: true, fileName: nil).name == name)
    }

    @Test(
        "other binary formats are known by their signatures",
        arguments: [
            (Array("%PDF-1.7\n%\u{E2}\u{E3}".utf8), "application/pdf"),
            ([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00], "application/zip"),
            ([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00], "application/gzip"),
            ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04], "application/x-xz"),
            ([0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x00], "application/zstd"),
            (Array("BZh91AY&SY".utf8) + [0x00, 0x01], "application/x-bzip2"),
            ([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00], "application/x-executable"),
            (Array("SQLite format 3".utf8) + [0, 0x10], "application/vnd.sqlite3"),
            ([0x00, 0x00, 0x00, 0x18] + Array("ftypmp42".utf8), "video/mp4"),
            ([0x00, 0x00, 0x00, 0x1C] + Array("ftypavif".utf8), "image/avif"),
            (Array("ID3".utf8) + [0x04, 0x00, 0x00], "audio/mpeg"),
            (Array(repeating: 0x61, count: 257) + Array("ustar".utf8) + [0, 0x30, 0x30], "application/x-tar"),
        ] as [([UInt8], String)])
    func signatures(bytes: [UInt8], name: String) {
        let type = MediaType.detect(start: bytes, isWhole: true, fileName: "file.txt")
        #expect(type.name == name)
        #expect(type.category == (name.hasPrefix("image/") ? .image : .binary))
    }

    @Test("a real tar and gzip made by the system tools are known")
    func realArchives() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("hello\n".utf8).write(to: folder.appendingPathComponent("a.txt"))
        let tar = folder.appendingPathComponent("a.tar").path
        let made = try runProcess("/bin/tar", ["-cf", tar, "-C", folder.path, "a.txt"])
        #expect(made.status == 0)
        let tarBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tar)))
        #expect(
            MediaType.detect(start: tarBytes.prefix(512), isWhole: false, fileName: "a.tar").name == "application/x-tar"
        )
        #expect(try runProcess("/bin/gzip", ["-k", tar]).status == 0)
        let gzip = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tar + ".gz")))
        #expect(MediaType.detect(start: gzip, isWhole: true, fileName: nil).name == "application/gzip")
    }

    @Test("text is text/plain, UTF-8 or bust; the extension names text types")
    func text() {
        let text = Array("plain words, ünïcödé, 日本語, 🎉\n".utf8)
        #expect(MediaType.detect(start: text, isWhole: true, fileName: nil) == .plainText)
        #expect(MediaType.detect(start: text, isWhole: true, fileName: "notes") == .plainText)
        let json = MediaType.detect(start: Array("{\"a\": 1}".utf8), isWhole: true, fileName: "/tmp/data.JSON")
        #expect(json.name == "application/json")
        #expect(json.category == .text)
        let svg = MediaType.detect(
            start: Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), isWhole: true, fileName: "logo.svg")
        #expect(svg.name == "image/svg+xml")
        #expect(svg.category == .text)
        // "BM" starts words; without a bitmap header it is text.
        #expect(MediaType.detect(start: Array("BMW and BMX bikes".utf8), isWhole: true, fileName: nil) == .plainText)
    }

    @Test("the extension is used only when it agrees with the bytes")
    func extensionAgreement() {
        let binary: [UInt8] = [0xFF, 0xFB, 0x90, 0x64, 0x00, 0x0F, 0xF0, 0x00]  // an MP3 frame, no ID3 tag
        #expect(MediaType.detect(start: binary, isWhole: true, fileName: "song.mp3").name == "audio/mpeg")
        #expect(MediaType.detect(start: binary, isWhole: true, fileName: "blob") == .octetStream)
        #expect(MediaType.detect(start: binary, isWhole: true, fileName: "notes.txt") == .octetStream)
        // Text named like an image is text: nothing would decode it as a PNG.
        #expect(MediaType.detect(start: Array("not a png".utf8), isWhole: true, fileName: "shot.png") == .plainText)
        #expect(MediaType.detect(start: Array("x".utf8), isWhole: true, fileName: ".png") == .plainText)
    }

    @Test(
        "UTF-8 checks: bad sequences and NUL are binary; a character cut at the end is not, unless the file ends there",
        arguments: [
            ([0x61, 0x00, 0x62], false, false),
            ([0xC0, 0x80], false, false),  // overlong NUL
            ([0xED, 0xA0, 0x80], false, false),  // a surrogate
            ([0xF4, 0x90, 0x80, 0x80], false, false),  // past U+10FFFF
            ([0xFF], false, false),
            ([0x61, 0xE2, 0x82], false, true),  // "€" cut after two bytes
            ([0x61, 0xE2, 0x82], true, false),
            ([0x61, 0xE2, 0x82, 0xAC], true, true),
            ([0xF0, 0x9F, 0x8E, 0x89], true, true),
        ] as [([UInt8], Bool, Bool)])
    func utf8(bytes: [UInt8], isWhole: Bool, isText: Bool) {
        #expect(MediaType.isUTF8Text(bytes, isWhole: isWhole) == isText)
    }

    @Test("clipboard image types and their upload names")
    func clipboardImages() {
        let expected = [
            "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif", "image/bmp": "bmp",
        ]
        for (name, fileExtension) in expected {
            let type = MediaType(imageType: name)
            #expect(type?.essence == name)
            #expect(type?.category == .image)
            #expect(type?.fileExtension == fileExtension)
        }
        #expect(MediaType(imageType: "Image/PNG")?.name == "image/png")
        #expect(MediaType(imageType: "text/plain") == nil)
        #expect(MediaType(imageType: "application/pdf") == nil)
        // 2025-01-31 12:34:56 UTC.
        let time = Date(timeIntervalSince1970: 1_738_326_896)
        #expect(MediaType(imageType: "image/png")?.clipboardFileName(at: time) == "clipboard-20250131-123456.png")
        #expect(MediaType(imageType: "image/jpeg")?.clipboardFileName(at: time) == "clipboard-20250131-123456.jpg")
        #expect(MediaType.octetStream.clipboardFileName(at: time) == "clipboard-20250131-123456")
    }

    @Test(
        "a type recorded by name (an outbox entry's) comes back with its category",
        arguments: [
            ("image/png", "image/png", MediaType.Category.image, "png" as String?),
            ("application/pdf", "application/pdf", .binary, "pdf"),
            ("IMAGE/JPEG", "image/jpeg", .image, "jpg"),
            ("application/octet-stream", "application/octet-stream", .binary, nil),
            ("image/x-portable-pixmap", "image/x-portable-pixmap", .image, nil),
            ("text/x-log; charset=latin1", "text/x-log; charset=latin1", .text, nil),
        ])
    func recorded(name: String, expected: String, category: MediaType.Category, fileExtension: String?) {
        let type = MediaType(recordedName: name)
        #expect(type.name == expected)
        #expect(type.category == category)
        #expect(type.fileExtension == fileExtension)
    }
}
