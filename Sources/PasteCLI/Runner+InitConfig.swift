import PasteCore
import Stores
import SystemInterop

extension Runner {
    /// `--init-config`: writes the commented starter config (`StarterConfig`) to `--config FILE`,
    /// else to the default config path, and says where; an existing file is left as it is.
    ///
    /// - Throws: `StarterConfigFailure`.
    func writeStarterConfig() throws(StarterConfigFailure) {
        let path = invocation.configPath ?? context.defaultConfigPath
        // Not followed: a dangling link is there too, and is not written through.
        if (try? FileSystem.status(ofPath: path, followingSymbolicLinks: false)) != nil {
            throw .exists(path: path)
        }
        do {
            try AtomicFile.write(Array(StarterConfig.text.utf8), to: path)
        } catch {
            throw .cannotWrite(error)
        }
        output.note("wrote a starter config to '\(path)': 'service =' there chooses where pastes go")
    }
}
