import Foundation
import QRInterop
import Testing
import TestSupport

@testable import PasteCLI

/// `--qr`: the URL as a QR code, read back by an independent decoder (zbarimg), on a terminal's
/// stderr and as a desktop notification's image.
@Suite("--qr: the URL as a QR code", .temporaryHome, .mock)
struct QRTests: ScopedSuite {
    static let url = "http://127.0.0.1:8080/pastes/123456"

    @Test("the notification image of a URL's code decodes back to the URL (zbarimg)")
    func decodes() throws {
        let image = QRPicture.image(try QRCode.encode(Self.url))
        // A binary PGM of the red channel: black modules on white.
        var pgm = Array("P5\n\(image.width) \(image.height)\n255\n".utf8)
        pgm += stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] }
        let path = home.root.appendingPathComponent("code.pgm").path
        try Data(pgm).write(to: URL(fileURLWithPath: path))
        let result = try runProcess("/usr/bin/zbarimg", ["-q", "--raw", path], timeout: 30)
        #expect(result.status == 0, "zbarimg: \(result.err)")
        #expect(result.out == Self.url + "\n")
    }

    @Test("the half blocks hold the code's modules, two rows a line, in a quiet zone of four")
    func halfBlocks() throws {
        let code = try QRCode.encode(Self.url)
        let side = code.size + 2 * QRPicture.quietZone
        let lines = QRPicture.halfBlocks(code, inColour: false).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "")
        let rows = lines.dropLast()
        #expect(rows.count == (side + 1) / 2)
        for (index, line) in rows.enumerated() {
            #expect(line.count == side)
            for (column, character) in line.enumerated() {
                let top = code.isDark(row: 2 * index - 4, column: column - 4)
                let bottom = code.isDark(row: 2 * index - 3, column: column - 4)
                let expected: Character = top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " ")
                #expect(character == expected)
            }
        }
        let coloured = QRPicture.halfBlocks(code, inColour: true).split(separator: "\n")
        #expect(coloured.allSatisfy { $0.hasPrefix("\u{1B}[30;107m") && $0.hasSuffix("\u{1B}[0m") })
    }

    @Test("on a terminal the code follows the URL on stderr; elsewhere nothing is added")
    func terminal() throws {
        let paste = PasteRunner(home: home)
        let command =
            "printf 'qr me' | '\(BuiltProducts.path(of: "paste"))' --qr --no-copy --url '\(mock.url("/pastes/create"))'"
        let result = try paste.runOnTerminal(command)
        #expect(result.status == 0, "\(result.out)")
        let url = try #require(result.out.split(separator: "\r\n").first.map(String.init))
        let code = try QRCode.encode(url)
        #expect(
            result.out == url + "\r\n" + QRPicture.halfBlocks(code, inColour: false).replacing("\n", with: "\r\n"))
        let piped = try paste.run(["--qr", "--no-copy", "--url", mock.url("/pastes/create"), "--new"], stdin: "qr me")
        #expect(piped.status == 0)
        #expect(piped.err == "")
    }

    @Test("with a desktop notification, the code is its image")
    func notificationImage() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try desktopRunner(home: home, bus: bus)
        let result = try paste.run(
            ["--qr", "--notify", "--no-copy", "--url", mock.url("/pastes/create")], stdin: "qr me\n")
        #expect(result.status == 0)
        #expect(result.err == "")
        let code = try QRCode.encode(result.out.trimmingCharacters(in: .newlines))
        let side = (code.size + 2 * QRPicture.quietZone) * QRPicture.pixelsPerModule
        let hints = try #require(server.notifications.first?["hints"] as? [String: Any])
        #expect(hints["image-data"] as? [Int] == [side, side, side * 4, 1, 8, 4, side * side * 4])
    }
}
