import SystemInterop

/// Hands the whole invocation to coreutils paste(1), unchanged.
///
/// Finds the next `paste` on `PATH` that is not this binary (compared by device and inode, so a
/// symlink to us is skipped too), else `/usr/bin/paste`, and `execv`s it with the same argv.
public enum Coreutils {
    /// The path of coreutils paste to run, or nil when none is found.
    public static func findPaste(path: String?, selfExecutable: String = "/proc/self/exe") -> String? {
        let ours = try? FileSystem.status(ofPath: selfExecutable)
        func isOurs(_ status: FileStatus) -> Bool { ours.map(status.isSameFile) ?? false }
        if let found = FileSystem.firstExecutable(named: "paste", inPath: path ?? "", where: { !isOurs($1) }) {
            return found
        }
        for fallback in ["/usr/bin/paste", "/bin/paste"] where FileSystem.isAccessible(fallback, for: .execute) {
            if let status = try? FileSystem.status(ofPath: fallback), !isOurs(status) {
                return fallback
            }
        }
        return nil
    }

    /// Replaces this process with coreutils paste; returns only when that fails.
    ///
    /// - Parameter arguments: the whole argv, argv[0] included, passed on unchanged (coreutils
    ///   names itself after argv[0] in its messages, as it would have had it been called directly).
    /// - Returns: Why `execv` failed.
    public static func exec(_ executable: String, arguments: [String]) -> Errno {
        CurrentProcess.replace(with: executable, arguments: arguments)
    }
}
