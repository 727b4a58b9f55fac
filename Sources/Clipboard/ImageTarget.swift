/// The image forms a selection can be converted to, in the order we prefer them: lossless and
/// universal first (freedesktop practice: owners name image targets by MIME type).
public enum ImageTarget: String, CaseIterable, Sendable {
    /// PNG: what screenshot tools and browsers offer first.
    case png = "image/png"
    /// JPEG: photos copied from viewers.
    case jpeg = "image/jpeg"
    /// WebP: images copied from web pages.
    case webp = "image/webp"
    /// GIF.
    case gif = "image/gif"
    /// BMP: what older toolkits convert to.
    case bmp = "image/bmp"

    /// The best image target among `offered` (a `TARGETS` reply or `wl-paste --list-types`),
    /// with its exact offered spelling; MIME types compare without regard to case.
    static func preferred(among offered: [String]) -> (target: ImageTarget, name: String)? {
        for target in allCases {
            if let name = offered.first(where: { $0.lowercased() == target.rawValue }) { return (target, name) }
        }
        return nil
    }

    /// The image target a reply type names, if it is one.
    init?(typeName: String) {
        self.init(rawValue: typeName.lowercased())
    }
}
