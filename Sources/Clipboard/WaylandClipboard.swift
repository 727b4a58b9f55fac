import SystemInterop

/// The Wayland clipboard through wl-clipboard's `wl-paste` and `wl-copy`.
///
/// The tools are started with `posix_spawn` (no shell); the text goes through a socket, never
/// the command line.
public struct WaylandClipboard: Clipboard, Sendable {
    /// The path of `wl-paste`.
    public let pasteTool: String
    /// The path of `wl-copy`.
    public let copyTool: String
    /// The environment the tools run in (`WAYLAND_DISPLAY`, `XDG_RUNTIME_DIR`).
    public let environment: [String: String]

    /// Finds wl-clipboard on the `PATH` of `environment`.
    /// - Throws: `ClipboardError.waylandToolMissing` when either tool is absent.
    public init(environment: [String: String]) throws(ClipboardError) {
        guard let paste = ExecutableSearch.find("wl-paste", in: environment) else {
            throw .waylandToolMissing(tool: "wl-paste")
        }
        guard let copy = ExecutableSearch.find("wl-copy", in: environment) else {
            throw .waylandToolMissing(tool: "wl-copy")
        }
        pasteTool = paste
        copyTool = copy
        self.environment = environment
    }

    /// How long `write` waits to hand the text to `wl-copy`.
    static let copyTimeout = Duration.seconds(10)

    /// Reads the selection with `wl-paste --no-newline --type text`.
    public func read(_ selection: Selection, timeout: Duration) throws(ClipboardError) -> [UInt8] {
        let primary = selection == .primary ? ["--primary"] : []
        let (status, text) = try capture([pasteTool, "--no-newline", "--type", "text"] + primary, selection, timeout)
        if status == 0 {
            guard !text.isEmpty else { throw .empty(selection) }
            return text
        }
        // wl-paste fails both for "nothing is copied" and "no text type": tell them apart.
        let (listStatus, list) = try capture([pasteTool, "--list-types"] + primary, selection, timeout)
        let types = String(decoding: list, as: UTF8.self).split(separator: "\n").map(String.init)
        guard listStatus == 0, !types.isEmpty else { throw .empty(selection) }
        throw .noTextTarget(selection, available: types)
    }

    /// Writes with `wl-copy`, which forks a server and exits once it owns the selection.
    public func write(_ text: [UInt8], to selection: Selection) throws(ClipboardError) {
        let arguments = [copyTool] + (selection == .primary ? ["--primary"] : [])
        guard let pair = try? FileDescriptor.makeSocketPair() else {
            throw .waylandToolFailed(tool: "wl-copy", status: -1)
        }
        let ours = pair.first
        let theirs = pair.second
        let spawned = try? ChildProcess.spawn(
            copyTool, arguments: arguments, environment: environment, standardInput: .descriptor(theirs.rawValue),
            standardOutput: .null, standardError: .null, newSession: true)
        _ = consume theirs
        guard let child = spawned else { throw .waylandToolMissing(tool: "wl-copy") }
        try? ours.setNonBlocking()
        try? ours.sendAll(text, before: .now + Self.copyTimeout)
        _ = consume ours
        let status = child.waitForExit()
        guard status == 0 else { throw .waylandToolFailed(tool: "wl-copy", status: status) }
    }

    /// Runs a tool and collects its stdout.
    private func capture(
        _ arguments: [String], _ selection: Selection, _ timeout: Duration
    ) throws(ClipboardError) -> (Int32, [UInt8]) {
        guard let pair = try? FileDescriptor.makeSocketPair() else {
            throw .waylandToolFailed(tool: "wl-paste", status: -1)
        }
        let ours = pair.first
        let theirs = pair.second
        let spawned = try? ChildProcess.spawn(
            arguments[0], arguments: arguments, environment: environment, standardInput: .null,
            standardOutput: .descriptor(theirs.rawValue), standardError: .null, newSession: false)
        _ = consume theirs
        guard let child = spawned else { throw .waylandToolMissing(tool: "wl-paste") }
        let output = try? ours.readAll(idleTimeout: timeout)
        if output == nil { try? child.send(.kill) }
        let status = child.waitForExit()
        guard let bytes = output else { throw .timedOut(selection, seconds: timeout.seconds) }
        return (status, bytes)
    }
}

/// Finds executables on a `PATH` given as data.
enum ExecutableSearch {
    /// The first executable file called `name` in `environment["PATH"]`.
    static func find(_ name: String, in environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if FileSystem.isAccessible(candidate, for: .execute) { return candidate }
        }
        return nil
    }
}
