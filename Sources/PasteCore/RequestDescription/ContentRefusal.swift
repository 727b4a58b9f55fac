/// Why a paste cannot go to the service chosen for it (`ServiceChoice`).
public enum ContentRefusal: PasteError, Equatable {
    /// An image, no `-S`, and no `image-service` set.
    case noImageService(source: String, type: String)
    /// The service does not take this kind of content (`accepts`).
    case notAccepted(service: String, accepts: ContentKinds, source: String, type: String, category: MediaType.Category)
    /// The service takes files, but its format cannot carry one (a sxcu definition with a JSON
    /// body, or a built-in given another format).
    case cannotCarryFiles(service: String, format: String)

    public var message: String {
        switch self {
        case .noImageService(let source, let type):
            "\(source) holds \(Self.image(type)), and no service for images is chosen, so nothing was uploaded: "
                + "name one with -S NAME, or add 'image-service = NAME' under [paste] in the config "
                + "('paste --list-services' lists them)"
        case .notAccepted(let service, let accepts, let source, let type, let category):
            switch category {
            case .text:
                "service '\(service)' takes \(accepts.configText) only, not text, so nothing was uploaded: "
                    + "name a service that takes text with -S NAME"
            case .image:
                "\(source) holds \(Self.image(type)), but service '\(service)' takes \(accepts.configText) only, "
                    + "so nothing was uploaded: name a service that takes images with -S NAME, or add "
                    + "'image-service = NAME' under [paste] in the config"
            case .binary:
                "\(source) holds binary data (\(type)), but service '\(service)' takes \(accepts.configText) only, "
                    + "so nothing was uploaded: name a service that takes files with -S NAME"
            }
        case .cannotCarryFiles(let service, let format):
            "service '\(service)' accepts files but format = \(format) cannot carry one; "
                + "use format = multipart or raw"
        }
    }

    /// An image, its media type as a person says it: `image/png` is "an image (PNG)".
    static func image(_ type: String) -> String {
        guard type.hasPrefix("image/") else { return "an image (\(type))" }
        let name = type.dropFirst("image/".count).prefix { $0 != "+" && $0 != ";" }.uppercased()
        return name.isEmpty ? "an image" : "an image (\(name))"
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .noImageService, .notAccepted: .badInput
        case .cannotCarryFiles: .config
        }
    }
}
