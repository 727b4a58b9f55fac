internal import X11Interop

/// The placeholder for an image that is not shown: a tile with a framed landscape (a sun and
/// two hills, the usual "image" glyph) and the type's short name ("JPEG") under it.
///
/// Proportions are fractions of the tile's side, so it scales with the DPI like the rest.
enum PlaceholderGlyph {
    /// Draw commands for the placeholder filling `tile`.
    static func commands(label: String, in tile: Rect, metrics: Metrics, measurer: any TextMeasuring) -> [DrawCommand] {
        let side = tile.width
        func part(_ fraction: Double) -> Int { Int((Double(side) * fraction).rounded()) }
        // The picture frame: upper part of the tile, leaving room for the label.
        let frame = Rect(x: tile.x + part(0.2), y: tile.y + part(0.14), width: part(0.6), height: part(0.46))
        let stroke = max(1, metrics.pixels(2))
        let inner = frame.insetBy(stroke)
        // A sun top left, a light hill behind a dark one (fractions of the inner frame).
        func point(_ x: Double, _ y: Double) -> Point {
            Point(
                x: inner.x + Int((Double(inner.width) * x).rounded()),
                y: inner.y + Int((Double(inner.height) * y).rounded()))
        }
        let sunSide = max(2, Int((Double(inner.width) * 0.2).rounded()))
        let sunCentre = point(0.28, 0.3)
        let sun = Rect(x: sunCentre.x - sunSide / 2, y: sunCentre.y - sunSide / 2, width: sunSide, height: sunSide)
        let farHill = [point(0, 1), point(0.3, 0.55), point(0.62, 1)]
        let nearHill = [point(0.3, 1), point(0.68, 0.3), point(1, 0.72), point(1, 1)]
        let lineHeight = measurer.lineHeight(role: .secondary)
        let labelText = TextWrapping.ellipsized(
            label, maxWidth: side - 2 * metrics.pixels(4), measure: { measurer.width(of: $0, role: .secondary) })
        let labelWidth = measurer.width(of: labelText, role: .secondary)
        let labelTop = frame.maxY + (tile.maxY - frame.maxY - lineHeight) / 2
        return [
            .fill(tile, Palette.button, radius: metrics.cornerRadius),
            .fill(frame, Palette.secondaryText, radius: 0),
            .fill(inner, Palette.field, radius: 0),
            .fill(sun, Palette.scrollThumb, radius: sunSide / 2),
            .polygon(farHill, Palette.scrollThumb),
            .polygon(nearHill, Palette.secondaryText),
            .text(
                labelText, x: tile.x + (side - labelWidth) / 2, baseline: labelTop + measurer.ascent(role: .secondary),
                role: .secondary, color: Palette.secondaryText, clip: tile),
        ]
    }
}
