import PasteCore
import ShareX
import SystemInterop

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
        // A name to type after -S: "My Host (text)" becomes my-host-text.
        var named = profile
        named.name = Self.serviceName(profile.name)
        let section: String
        do {
            section = try named.configSection()
        } catch {
            throw ShareXError.inexpressible(file: path, feature: error.feature)
        }
        output.text("# From the ShareX custom uploader \(path)\n" + section)
        return .success
    }

    /// A definition's `Name` as a service name: lowercase letters, digits, `.`, `_` and `-`,
    /// anything else a single `-`.
    static func serviceName(_ name: String) -> String {
        var result = ""
        for character in name.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber || ".-_".contains(character)) {
                result.append(character)
            } else if !result.isEmpty && !result.hasSuffix("-") {
                result.append("-")
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        return result.isEmpty ? "sharex" : result
    }
}
