internal import X11Interop

/// What a notification shows beside its text for an uploaded image.
enum Thumbnail: Hashable, Sendable {
    /// The image, decoded and already shrunk to fit `Metrics.thumbnailSide`.
    case picture(RGBAImage)
    /// A drawn "image" glyph labelled with the type's short name ("JPEG"): for types that are
    /// not decoded, for data that does not decode, and for images too large to decode.
    case placeholder(label: String)

    /// The most pixels decoded for a thumbnail: 64 megapixels (8000 × 8000), 256 MB of RGBA
    /// while it is shrunk. Larger images (or a header that claims so) get the placeholder.
    static let maximumPixelCount = 64_000_000

    /// Decodes and shrinks `image`, or chooses its placeholder.
    ///
    /// Bytes that `ImageDecoder` reads (PNG, JPEG, GIF, WebP, BMP, by their signature) are
    /// decoded, whatever the MIME type says; other types get the placeholder.
    init(_ image: Alerts.Notification.Image, metrics: Metrics) {
        let label = Self.label(forMIMEType: image.mimeType)
        guard
            let decoded = try? ImageDecoder.decode(
                image.bytes, maximumPixelCount: Self.maximumPixelCount, minimumSide: metrics.thumbnailSide)
        else {
            self = .placeholder(label: label)
            return
        }
        let size = Self.fittedSize(decoded.size, within: metrics.thumbnailSide)
        self = .picture(ImageScaling.boxFiltered(decoded, to: size))
    }

    /// The size of an image of `size` shrunk to fit a `side` × `side` square, aspect kept; an
    /// image that already fits keeps its size (a thumbnail is never blown up). Never 0.
    static func fittedSize(_ size: Size, within side: Int) -> Size {
        guard size.width > side || size.height > side else { return size }
        if size.width >= size.height {
            return Size(width: side, height: max(1, (size.height * side + size.width / 2) / size.width))
        }
        return Size(width: max(1, (size.width * side + size.height / 2) / size.height), height: side)
    }

    /// Short names for types whose subtype does not read as one.
    private static let knownLabels = [
        "jpeg": "JPEG", "pjpeg": "JPEG", "x-ms-bmp": "BMP", "x-icon": "ICO", "vnd.microsoft.icon": "ICO",
        "svg+xml": "SVG",
    ]
    /// Longest label: it must fit the placeholder's width in the secondary font.
    static let maximumLabelLength = 5

    /// The short name shown in a placeholder: `image/jpeg` → "JPEG", `image/webp` → "WEBP".
    ///
    /// The subtype, without parameters, an `x-`/`vnd.` prefix or a `+suffix`, in capitals,
    /// letters and digits only, at most `maximumLabelLength` of them; "FILE" when nothing is left.
    static func label(forMIMEType mimeType: String) -> String {
        let essence = mimeType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let subtype = essence.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        let lowered = String(subtype.filter { !$0.isWhitespace }).lowercased()
        if let known = knownLabels[lowered] { return known }
        var name = Substring(lowered)
        for prefix in ["x-", "vnd."] where name.hasPrefix(prefix) { name = name.dropFirst(prefix.count) }
        name = name.prefix { $0 != "+" }
        let letters = name.unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        let label = String(String.UnicodeScalarView(letters.prefix(maximumLabelLength))).uppercased()
        return label.isEmpty ? "FILE" : label
    }
}

extension Alerts {
    /// An image decoded and shrunk to fit a `side` × `side` square, aspect kept, as RGBA pixels
    /// (for a desktop notification's `image-data`); nil when it does not decode (a kind
    /// `ImageDecoder` does not read: TIFF, ICO, AVIF, HEIC, SVG; broken data; too large).
    public static func thumbnail(of image: Notification.Image, side: Int) -> (width: Int, height: Int, pixels: [UInt8])?
    {
        guard
            let decoded = try? ImageDecoder.decode(
                image.bytes, maximumPixelCount: Thumbnail.maximumPixelCount, minimumSide: side)
        else { return nil }
        let shrunk = ImageScaling.boxFiltered(decoded, to: Thumbnail.fittedSize(decoded.size, within: side))
        return (shrunk.width, shrunk.height, shrunk.pixels)
    }
}
