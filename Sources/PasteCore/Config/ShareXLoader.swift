/// Reads the ShareX custom uploader at `path` (`~/` for `home`) into a profile named `name`.
///
/// PasteCore's config resolution meets `.sxcu` definitions (`sxcu = PATH` in a service section,
/// `-S PATH.sxcu`) but does not import ShareX, the module above it that reads them: PasteCLI
/// passes ShareX's `ShareXUploader.load` in (`Configuration.load(explicitPath:context:shareX:)`).
public typealias ShareXLoader =
    @Sendable (_ path: String, _ name: String, _ home: String?) throws(ShareXError) -> ServiceProfile
