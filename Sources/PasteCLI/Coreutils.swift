#if canImport(Glibc)
    import Glibc
#endif

/// Hands the whole invocation to coreutils paste(1), unchanged.
///
/// Finds the next `paste` on `PATH` that is not this binary (compared by device and inode, so a
/// symlink to us is skipped too), else `/usr/bin/paste`, and `execv`s it with the same argv.
public enum Coreutils {
    /// The path of coreutils paste to run, or nil when none is found.
    public static func findPaste(path: String?, selfExecutable: String = "/proc/self/exe") -> String? {
        var ourStatus = stat()
        let haveOurs = unsafe stat(selfExecutable, &ourStatus) == 0
        for directory in (path ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = String(directory) + "/paste"
            var status = stat()
            guard unsafe stat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                unsafe access(candidate, X_OK) == 0
            else { continue }
            if haveOurs && status.st_dev == ourStatus.st_dev && status.st_ino == ourStatus.st_ino { continue }
            return candidate
        }
        for fallback in ["/usr/bin/paste", "/bin/paste"] where unsafe access(fallback, X_OK) == 0 {
            var status = stat()
            if unsafe stat(fallback, &status) == 0,
                !(haveOurs && status.st_dev == ourStatus.st_dev && status.st_ino == ourStatus.st_ino)
            {
                return fallback
            }
        }
        return nil
    }

    /// Replaces this process with coreutils paste; returns only when that fails.
    ///
    /// - Parameter arguments: the whole argv, argv[0] included, passed on unchanged (coreutils
    ///   names itself after argv[0] in its messages, as it would have had it been called directly).
    public static func exec(_ executable: String, arguments: [String]) -> SystemError {
        var cStrings = unsafe arguments.map { unsafe strdup($0) }
        unsafe cStrings.append(nil)
        unsafe execv(executable, &cStrings)
        let error = SystemError.current
        unsafe cStrings.forEach { unsafe free($0) }
        return error
    }
}

import PasteCore
