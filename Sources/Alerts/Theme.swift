internal import X11Interop

/// Our own look: sizes in pixels at 96 DPI, scaled by the screen's DPI.
struct Metrics: Hashable, Sendable {
    /// Pixels per layout unit: the display's DPI over 96, never below 1.
    var scale: Double

    /// Metrics for a screen at `dotsPerInch` (Xft.dpi or the physical size).
    init(dotsPerInch: Double) {
        scale = Self.scale(forDotsPerInch: dotsPerInch)
    }

    /// Metrics at exactly `scale` (tests).
    init(scale: Double) {
        self.scale = scale
    }

    /// Largest scale honoured: beyond it the screen facts are surely wrong (a bogus mm size).
    static let maximumScale = 4.0

    /// The scale for a DPI: 96 DPI (X's reference) is 1; below it stays 1 so nothing gets cramped.
    static func scale(forDotsPerInch dpi: Double) -> Double {
        guard dpi.isFinite, dpi > 0 else { return 1 }
        return min(maximumScale, max(1, dpi / 96))
    }

    /// `units` at 96 DPI, in pixels at this scale.
    func pixels(_ units: Int) -> Int { Int((Double(units) * scale).rounded()) }

    /// Space around the content and between a window's edge and its text.
    var padding: Int { pixels(16) }
    /// Space between stacked elements.
    var gap: Int { pixels(8) }
    /// Width of the coloured bar on a notification's left edge.
    var accentWidth: Int { pixels(6) }
    /// Corner radius of buttons, rows and the text field.
    var cornerRadius: Int { pixels(6) }
    /// Window border width.
    var borderWidth: Int { pixels(1) }
    /// Height of one stacked button.
    var buttonHeight: Int { pixels(34) }
    /// Height of the text field.
    var fieldHeight: Int { pixels(34) }
    /// Space inside the text field and buttons, left and right of the text.
    var innerPadding: Int { pixels(10) }
    /// Space above and below the two lines of a picker row.
    var rowPadding: Int { pixels(6) }
    /// Width of the text cursor.
    var cursorWidth: Int { pixels(2) }
    /// Width of the picker's scroll bar.
    var scrollBarWidth: Int { pixels(4) }
    /// A notification's width: wide enough for most URLs on two lines.
    var notificationWidth: Int { pixels(400) }
    /// Prompt and confirm width.
    var dialogWidth: Int { pixels(440) }
    /// Picker width.
    var pickerWidth: Int { pixels(520) }
    /// Distance between a notification and the monitor's edges.
    var screenMargin: Int { pixels(16) }
    /// The square a notification's thumbnail is fitted into.
    var thumbnailSide: Int { pixels(80) }
    /// The side of the placeholder drawn for an image that cannot be shown (an icon's size).
    var placeholderSide: Int { pixels(56) }

    /// Lines of body text shown before the rest is cut with an ellipsis.
    var maximumBodyLines: Int { 6 }
    /// Rows a picker shows at once; more rows scroll.
    var maximumVisibleRows: Int { 8 }
}

/// Our colours: a light surface, dark text, a green success and red failure accent.
enum Palette {
    static let surface = Color(rgb: 0xFAFA_FB)
    static let border = Color(rgb: 0xC8CA_D0)
    static let text = Color(rgb: 0x1D1D_22)
    static let secondaryText = Color(rgb: 0x6B6E_76)
    static let success = Color(rgb: 0x2E9E_5B)
    static let failure = Color(rgb: 0xD64A_41)
    static let focus = Color(rgb: 0x2F6F_E4)
    static let onFocus = Color(rgb: 0xFFFF_FF)
    static let button = Color(rgb: 0xE6E7_EB)
    static let field = Color(rgb: 0xFFFF_FF)
    static let selectedRow = Color(rgb: 0xDCE7_FC)
    static let scrollThumb = Color(rgb: 0xA9AC_B4)
}

/// Fontconfig patterns per role; Xft applies the screen DPI to point sizes itself.
enum FontPatterns {
    static let heading = "sans-serif:size=12:weight=bold"
    static let body = "sans-serif:size=11"
    static let secondary = "sans-serif:size=9"

    static func pattern(for role: FontRole) -> String {
        switch role {
        case .heading: heading
        case .body: body
        case .secondary: secondary
        }
    }
}
