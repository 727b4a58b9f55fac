import Foundation

/// A throw-away home with its own XDG folders, removed by `remove()` or when the value is released.
///
/// Tests get one from the `.temporaryHome` trait, and pass `environment` to the processes they
/// start so nothing touches the real home.
public final class TemporaryHome: @unchecked Sendable {
    // Safe: all stored properties are immutable after init.
    /// The root folder.
    public let root: URL

    /// Makes a fresh folder under the system temporary directory.
    public init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("paste-test-\(UUID().uuidString)")
        for sub in ["config", "state", "cache", "data", "runtime"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        chmod(root.appendingPathComponent("runtime").path, 0o700)
    }

    deinit { remove() }

    /// Removes the folder and everything in it (again: nothing).
    public func remove() { try? FileManager.default.removeItem(at: root) }

    /// `$XDG_CONFIG_HOME`.
    public var configHome: URL { root.appendingPathComponent("config") }
    /// `$XDG_STATE_HOME`.
    public var stateHome: URL { root.appendingPathComponent("state") }

    /// The environment for a child: the XDG variables point here, and nothing of the caller's
    /// paste settings leaks in. `extra` is merged last; a value of nil removes a variable.
    public func environment(_ extra: [String: String?] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("PASTE_") && key != "PASTE_BUILT_PRODUCTS" {
            env[key] = nil
        }
        env["HOME"] = root.path
        env["XDG_CONFIG_HOME"] = configHome.path
        env["XDG_STATE_HOME"] = stateHome.path
        env["XDG_CACHE_HOME"] = root.appendingPathComponent("cache").path
        env["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
        env["XDG_RUNTIME_DIR"] = root.appendingPathComponent("runtime").path
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Writes `text` to a file under the root and returns its path.
    @discardableResult
    public func write(_ text: String, to relativePath: String, mode: Int = 0o600) throws -> String {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        chmod(url.path, mode_t(mode))
        return url.path
    }
}
