/// Which service a paste goes to, by what it holds (`MediaType.Category`) and what services
/// take (`ServiceProfile.accepts`).
///
/// - Text goes where it always went: the service named for the run (`-S`, `--url`), else the
///   usual one (`PASTE_SERVICE`, `[paste] service`, the built-in default).
/// - An image goes to the service named for the run, else `image-service`; there is no
///   default, so no image reaches a public host unless the person named one.
/// - Any other binary file goes to the service named for the run, else the usual one; it must
///   accept files.
///
/// A service that does not take the content refuses it here, before anything is read further
/// or sent: one line naming `image-service` or `accepts`, exit status 65.
public enum ServiceChoice {
    /// The service for a paste of `type`.
    ///
    /// - Parameters:
    ///   - type: what the paste holds (`MediaType.detect`, `MediaType(imageType:)`, or
    ///     `MediaType.plainText`).
    ///   - source: the input as messages name it: `the clipboard`, `'shot.png'`, `stdin`.
    ///   - named: the service named for this run (`-S NAME`, `--url URL`), if any.
    ///   - usual: the service text goes to when none is named.
    ///   - imageService: the `image-service` profile (`Configuration.imageServiceProfile`).
    /// - Throws: `ContentRefusal` when the chosen service does not take the content, or no
    ///   service was named for an image.
    public static func service(
        for type: MediaType, from source: String, named: ServiceProfile?, usual: ServiceProfile,
        imageService: ServiceProfile?
    ) throws(ContentRefusal) -> ServiceProfile {
        let chosen: ServiceProfile
        switch type.category {
        case .text, .binary:
            chosen = named ?? usual
        case .image:
            guard let service = named ?? imageService else {
                throw .noImageService(source: source, type: type.essence)
            }
            chosen = service
        }
        guard chosen.accepts.takes(type.category) else {
            throw .notAccepted(
                service: chosen.name, accepts: chosen.accepts, source: source, type: type.essence,
                category: type.category)
        }
        if type.category != .text && !chosen.format.canCarryFiles {
            throw .cannotCarryFiles(service: chosen.name, format: chosen.format.rawValue)
        }
        return chosen
    }
}
