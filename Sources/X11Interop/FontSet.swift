internal import CX11
internal import CXft

/// One text style's fonts: the main Xft font plus fallbacks found on demand for characters it lacks.
///
/// Owner of every `XftFont` it opens. Fonts belong to the display they were opened on, so the
/// owning `AlertWindow` calls `close()` before `XCloseDisplay`; `deinit` only asserts that.
///
/// Fallback follows suckless dmenu's `drw.c` (`xfont_create`/`drw_text`): for a character the main
/// font lacks (`XftCharExists` false), take the main pattern, add an `FcCharSet` holding that
/// character and let fontconfig match it (`XftFontMatch`): charset ranks above family in
/// fontconfig's matcher, so the match covers the character when any installed font does.
final class FontSet {
    private let display: OpaquePointer
    private let screen: Int32
    /// The fontconfig pattern the main font was opened from (also the base for fallbacks).
    let pattern: String
    private let primary: UnsafeMutablePointer<XftFont>
    private var fallbacks: [UnsafeMutablePointer<XftFont>] = []
    /// Which font draws a scalar the main font lacks: an index into `fallbacks`, or nil when no
    /// installed font has it (the main font then draws its missing-glyph box).
    private var fallbackForScalar: [UInt32: Int?] = [:]
    private var isClosed = false

    /// Bound on the fallback fonts one style may open, so hostile text cannot open hundreds.
    private static let maximumFallbacks = 16

    /// Opens the main font. Wraps `XftFontOpenName`.
    init(display: OpaquePointer, screen: Int32, pattern: String) throws(AlertWindowError) {
        guard let font = XftFontOpenName(display, screen, pattern) else {
            throw .fontUnavailable(pattern: pattern)
        }
        self.display = display
        self.screen = screen
        self.pattern = pattern
        self.primary = font
    }

    deinit { assert(isClosed, "FontSet must be closed before its display") }

    /// Closes every font opened. Wraps `XftFontClose`.
    func close() {
        guard !isClosed else { return }
        for font in fallbacks { XftFontClose(display, font) }
        fallbacks.removeAll()
        XftFontClose(display, primary)
        isClosed = true
    }

    /// Pixels above the baseline of the main font.
    var ascent: Int { Int(primary.pointee.ascent) }
    /// Pixels below the baseline of the main font.
    var descent: Int { Int(primary.pointee.descent) }
    /// Line height of the main font (ascent + descent; Xft's `height` adds leading some fonts lack).
    var lineHeight: Int { max(Int(primary.pointee.height), ascent + descent) }

    /// The horizontal advance of `text` in pixels. Wraps `XftTextExtentsUtf8` per font run.
    func width(of text: String) -> Int {
        var total = 0
        for run in runs(of: text) {
            total += advance(of: run.bytes, font: run.font)
        }
        return total
    }

    /// Draws `text` with its left end at `x` and its baseline at `y`.
    ///
    /// Wraps `XftDrawStringUtf8`, once per run of characters drawn by the same font.
    func draw(_ text: String, on draw: OpaquePointer, color: UnsafePointer<XftColor>, x: Int, y: Int) {
        var penX = x
        for run in runs(of: text) {
            run.bytes.withUnsafeBufferPointer { buffer in
                XftDrawStringUtf8(
                    draw, color, run.font, Int32(clamping: penX), Int32(clamping: y),
                    buffer.baseAddress, Int32(clamping: buffer.count))
            }
            penX += advance(of: run.bytes, font: run.font)
        }
    }

    // MARK: - Runs and fallback

    private struct Run {
        var font: UnsafeMutablePointer<XftFont>
        var bytes: [UInt8]
    }

    private func advance(of bytes: [UInt8], font: UnsafeMutablePointer<XftFont>) -> Int {
        var extents = XGlyphInfo()
        bytes.withUnsafeBufferPointer { buffer in
            XftTextExtentsUtf8(display, font, buffer.baseAddress, Int32(clamping: buffer.count), &extents)
        }
        return Int(extents.xOff)
    }

    /// Splits `text` into maximal runs drawn by one font each.
    private func runs(of text: String) -> [Run] {
        var result: [Run] = []
        for scalar in text.unicodeScalars {
            let font = font(for: scalar.value)
            if let last = result.indices.last, result[last].font == font {
                result[last].bytes.append(contentsOf: String(scalar).utf8)
            } else {
                result.append(Run(font: font, bytes: Array(String(scalar).utf8)))
            }
        }
        return result
    }

    private func font(for scalar: UInt32) -> UnsafeMutablePointer<XftFont> {
        if XftCharExists(display, primary, scalar) != 0 { return primary }
        if let known = fallbackForScalar[scalar] {
            return known.map { fallbacks[$0] } ?? primary
        }
        // An already opened fallback may cover it.
        if let index = fallbacks.firstIndex(where: { XftCharExists(display, $0, scalar) != 0 }) {
            fallbackForScalar[scalar] = index
            return fallbacks[index]
        }
        guard fallbacks.count < Self.maximumFallbacks, let font = openFallback(for: scalar) else {
            fallbackForScalar[scalar] = .some(nil)
            return primary
        }
        fallbacks.append(font)
        fallbackForScalar[scalar] = fallbacks.count - 1
        return font
    }

    /// Asks fontconfig for a font like the main one that has `scalar`.
    ///
    /// Wraps `FcNameParse`, `FcCharSetAddChar`, `FcPatternAddCharSet`, `XftFontMatch` (which runs
    /// `FcConfigSubstitute` and `XftDefaultSubstitute`) and `XftFontOpenPattern`.
    private func openFallback(for scalar: UInt32) -> UnsafeMutablePointer<XftFont>? {
        guard let charset = FcCharSetCreate() else { return nil }
        defer { FcCharSetDestroy(charset) }
        FcCharSetAddChar(charset, scalar)
        guard
            let query = pattern.withCString({ FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) })
        else { return nil }
        defer { FcPatternDestroy(query) }
        FcPatternAddCharSet(query, FC_CHARSET, charset)
        FcPatternAddBool(query, FC_SCALABLE, FcBool(FcTrue))
        var result = FcResultNoMatch
        guard let match = XftFontMatch(display, screen, query, &result) else { return nil }
        // On success the font owns `match`; on failure it is ours to destroy.
        guard let font = XftFontOpenPattern(display, match) else {
            FcPatternDestroy(match)
            return nil
        }
        guard XftCharExists(display, font, scalar) != 0 else {
            XftFontClose(display, font)
            return nil
        }
        return font
    }
}
