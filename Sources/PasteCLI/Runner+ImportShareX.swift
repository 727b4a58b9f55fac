import PasteCore

extension Runner {
    /// `--import-sxcu FILE`: prints the ShareX custom uploader as an equivalent `[service]`
    /// section, or fails naming the one feature a section cannot express (status 65; a file
    /// that is not a usable definition is status 78).
    func importShareX(_ path: String) throws -> ExitStatus {
        let profile: ServiceProfile
        do {
            profile = try ShareXUploader.load(path: path, home: context.home, checksPermissions: false)
        } catch {
            throw ConfigError.shareX(error)
        }
        let section: String
        do {
            section = try profile.configSection()
        } catch {
            throw ShareXError.inexpressible(file: path, feature: error.feature)
        }
        StandardStreams.out("# From the ShareX custom uploader \(path)\n" + section)
        return .success
    }
}
