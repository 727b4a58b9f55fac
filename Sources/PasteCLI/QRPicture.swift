import Alerts
import Notify
import QRInterop

/// `--qr`'s code drawn: as text for a terminal, and as pixels for a notification's image.
///
/// Both keep the quiet zone of four light modules the QR specification (ISO/IEC 18004, 7.3.8)
/// asks for around the code: without it many phone cameras do not find the code.
enum QRPicture {
    /// Light modules around the code on each side.
    static let quietZone = 4

    /// The code as UTF-8 half blocks, two module rows per line (`▀` the upper dark, `▄` the
    /// lower, `█` both, a space neither), each line ending in a newline.
    ///
    /// In colour (a terminal that takes it), black on bright white whatever the terminal's own
    /// colours (`ESC[30;107m` … `ESC[0m` on each line), so a dark terminal does not show the code
    /// inverted; without, the blocks are the terminal's foreground on its background (right on
    /// a light terminal).
    static func halfBlocks(_ code: QRCode, inColour: Bool) -> String {
        let range = -quietZone..<(code.size + quietZone)
        var text = ""
        var row = -quietZone
        while row < code.size + quietZone {
            if inColour { text += "\u{1B}[30;107m" }
            for column in range {
                switch (code.isDark(row: row, column: column), code.isDark(row: row + 1, column: column)) {
                case (true, true): text += "█"
                case (true, false): text += "▀"
                case (false, true): text += "▄"
                case (false, false): text += " "
                }
            }
            if inColour { text += "\u{1B}[0m" }
            text += "\n"
            row += 2
        }
        return text
    }

    /// Pixels per module in the notification's image: a URL's code (25 to 41 modules) comes out
    /// at 132 to 196 pixels with its quiet zone, about what servers show an image at.
    static let pixelsPerModule = 4

    /// The code as an RGBA image, black on white, for the notification's `image-data`.
    static func image(_ code: QRCode) -> NotificationImage {
        let side = (code.size + 2 * quietZone) * pixelsPerModule
        var pixels = [UInt8](repeating: 255, count: side * side * 4)
        for y in 0..<side {
            for x in 0..<side
            where code.isDark(row: y / pixelsPerModule - quietZone, column: x / pixelsPerModule - quietZone) {
                let base = (y * side + x) * 4
                pixels[base] = 0
                pixels[base + 1] = 0
                pixels[base + 2] = 0
            }
        }
        return NotificationImage(width: side, height: side, hasAlpha: true, pixels: pixels)
    }

    /// The code's modules for the notification window, which shows it on a click (its own
    /// quiet zone included: `Alerts.Notification.Code`).
    static func windowCode(_ code: QRCode) -> Alerts.Notification.Code {
        Alerts.Notification.Code(
            size: code.size,
            isDark: (0..<code.size * code.size).map { code.isDark(row: $0 / code.size, column: $0 % code.size) })
    }
}
