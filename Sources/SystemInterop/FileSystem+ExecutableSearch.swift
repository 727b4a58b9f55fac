extension FileSystem {
    /// The folders searched when the environment has no `PATH` (glibc's `execvp` default,
    /// without its current folder).
    public static let defaultExecutablePath = "/usr/local/bin:/usr/bin:/bin"

    /// The first executable regular file called `name` in the folders of `path` that `accepts`
    /// takes, in order: the one search of `PATH` for every program paste starts or looks for.
    ///
    /// An empty entry (`/usr/bin::/bin`, a leading or trailing `:`) is skipped, never read as
    /// the current folder as `execvp` does: paste runs at a hotkey, in whatever folder the
    /// desktop started it, and must not run a program someone left there.
    /// - Parameters:
    ///   - name: a program's name (no `/`).
    ///   - path: the `PATH` value.
    ///   - accepts: a further test of a candidate and its status (not this very program).
    /// - Returns: the candidate's path, or nil when no folder holds one.
    public static func firstExecutable(
        named name: String, inPath path: String, where accepts: (String, FileStatus) -> Bool = { _, _ in true }
    ) -> String? {
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = String(folder) + "/" + name
            guard let status = try? FileSystem.status(ofPath: candidate), status.kind == .regular,
                FileSystem.isAccessible(candidate, for: .execute), accepts(candidate, status)
            else { continue }
            return candidate
        }
        return nil
    }
}
