internal import X11Interop

/// Measures text for layout; the X side answers with Xft, tests with a fixed-width fake.
protocol TextMeasuring {
    /// Advance width of `text` in pixels.
    func width(of text: String, role: FontRole) -> Int
    /// Height of one line.
    func lineHeight(role: FontRole) -> Int
    /// Distance from a line's top to its baseline.
    func ascent(role: FontRole) -> Int
}
