internal import X11Interop

/// A QR code drawn for a phone's camera: black modules on white, with the quiet zone of four
/// light modules the QR specification asks for around it (ISO/IEC 18004, 7.3.8), each dark run
/// of a row one rectangle.
struct CodeLayout {
    /// Light modules around the code on each side.
    static let quietZone = 4
    /// Pixels per module: a URL's code (25 to 41 modules) comes out at 198 to 294 pixels with
    /// its quiet zone, which phone cameras read at arm's length from a laptop screen.
    static let modulePixels = 6

    /// The window's size.
    let size: Size
    /// Everything to draw.
    let commands: [DrawCommand]

    init(_ code: Alerts.Notification.Code) {
        let side = (code.size + 2 * Self.quietZone) * Self.modulePixels
        size = Size(width: side, height: side)
        var commands: [DrawCommand] = [.fill(Rect(x: 0, y: 0, width: side, height: side), Self.light, radius: 0)]
        for row in 0..<code.size {
            var column = 0
            while column < code.size {
                guard code.isDark[row * code.size + column] else {
                    column += 1
                    continue
                }
                let start = column
                while column < code.size && code.isDark[row * code.size + column] { column += 1 }
                commands.append(
                    .fill(
                        Rect(
                            x: (start + Self.quietZone) * Self.modulePixels,
                            y: (row + Self.quietZone) * Self.modulePixels,
                            width: (column - start) * Self.modulePixels, height: Self.modulePixels), Self.dark,
                        radius: 0))
            }
        }
        self.commands = commands
    }

    /// Pure white and black, whatever the theme: contrast is what a camera needs.
    static let light = Color(rgb: 0xFFFF_FF)
    static let dark = Color(rgb: 0x0000_00)
}
