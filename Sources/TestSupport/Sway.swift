import Foundation

/// A private sway (wlroots) compositor for a test: headless, with XWayland, in a runtime folder
/// of its own, killed on `stop()`.
///
/// sway refuses to run as root, so under root (CI) it runs as `nobody` (`setpriv`), in a runtime
/// folder owned by `nobody` with mode 0700; the clients under test stay ours: root may connect to
/// any socket, and `xhost +SI:localuser:<us>`, run as `nobody` once XWayland is up, lets our X
/// clients in. Nothing is guessed: the Wayland socket is the one sway creates in its folder, and
/// `DISPLAY` is what sway's own `exec` line writes to a file (XWayland starts after the socket).
public final class Sway: @unchecked Sendable {
    // Safe: every stored property is set once in init; `stop` is idempotent.
    /// The compositor's runtime folder (`XDG_RUNTIME_DIR` of its clients).
    public let runtimeDirectory: String
    /// The Wayland socket's name in `runtimeDirectory` (`WAYLAND_DISPLAY`).
    public let waylandDisplay: String
    /// XWayland's display name (`DISPLAY`).
    public let xDisplay: String
    private let process: SpawnedProcess
    private let logPath: String

    /// The installed sway, if any.
    public static let executable = ["/usr/bin/sway", "/usr/local/bin/sway"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The prefix that runs a command as the compositor's user: `setpriv` to `nobody` under root,
    /// nothing otherwise.
    static var asCompositorUser: [String] {
        getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] : []
    }

    /// Starts sway and waits (at most `timeout` seconds) for its socket, then for XWayland's
    /// display name.
    /// - Parameter configHome: a folder to keep sway's config in as a person's
    ///   `$XDG_CONFIG_HOME` does (`sway/config`, folders 0755, the file 0644: readable by
    ///   sway's user), rather than beside the socket; `swaymsg reload` reads it again there.
    /// - Throws: `SwayError` when it cannot start; tests fail loudly then, never skip.
    public init(timeout: Double = 20, configHome: String? = nil) throws {
        guard let executable = Self.executable else {
            throw SwayError(reason: "sway is not installed (scripts/bootstrap installs it)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sway-\(UUID().uuidString)").path
        guard mkdir(folder, 0o700) == 0 else { throw SwayError(reason: "cannot create \(folder): errno \(errno)") }
        if getuid() == 0 {
            guard let nobody = getpwnam("nobody") else { throw SwayError(reason: "there is no user nobody") }
            chown(folder, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        }
        runtimeDirectory = folder
        logPath = folder + "/sway.log"
        let displayFile = folder + "/x-display"
        // The config lives beside the socket, readable by sway's user only.
        var config = folder + "/config"
        if let configHome {
            for path in [configHome, configHome + "/sway"] {
                mkdir(path, 0o755)
                chmod(path, 0o755)
            }
            config = configHome + "/sway/config"
        }
        let text = """
            xwayland enable
            exec sh -c 'printf "%s" "$DISPLAY" > \(displayFile).part && mv \(displayFile).part \(displayFile)'

            """
        _ = FileManager.default.createFile(
            atPath: config, contents: Data(text.utf8), attributes: [.posixPermissions: 0o644])
        let environment = [
            "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": folder, "HOME": folder, "WLR_BACKENDS": "headless",
            "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
        ]
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let command = Self.asCompositorUser + [executable, "-c", config]
        // In its own folder: the test's (the checkout) may be closed to sway's user.
        process = try SpawnedProcess(
            command[0], Array(command.dropFirst()), environment: environment, currentDirectory: folder,
            standardOutput: .handle(log), standardError: .handle(log))
        try? log.close()

        // The socket first (`wayland-N`, whatever N sway took), then XWayland's display.
        var socket: String?
        var display: String?
        do {
            try waitUntil("sway's Wayland socket", timeout: timeout) { [process] in
                guard process.isRunning else { throw SwayError(reason: "sway exited") }
                socket = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.first {
                    $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock")
                }
                return socket != nil
            }
            try waitUntil("XWayland's DISPLAY from sway's exec line", timeout: timeout) { [process] in
                guard process.isRunning else { throw SwayError(reason: "sway exited") }
                display = try? String(contentsOfFile: displayFile, encoding: .utf8)
                return display?.isEmpty == false
            }
        } catch {
            process.send(SIGKILL)
            _ = process.wait(seconds: 10)
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: folder)
            throw SwayError(reason: "sway did not start: \(error)\n\(log.suffix(2000))")
        }
        waylandDisplay = socket!
        xDisplay = display!
        if getuid() == 0 {
            // XWayland starts on the first X client: this one, run as sway's user.
            let xhost = try runProcess(
                "/usr/bin/env", Self.asCompositorUser + ["/usr/bin/xhost", "+SI:localuser:root"],
                environment: ["PATH": "/usr/bin:/bin", "DISPLAY": xDisplay, "XDG_RUNTIME_DIR": folder], timeout: 20)
            guard xhost.status == 0 else {
                stop()
                throw SwayError(reason: "xhost +SI:localuser:root failed: \(xhost.err)")
            }
        }
    }

    deinit { stop() }

    /// The absolute path of sway's IPC socket (`SWAYSOCK`: `sway-ipc.UID.PID.sock` in its
    /// runtime folder).
    public var ipcSocketPath: String? { Self.ipcSocket(in: runtimeDirectory) }

    /// The absolute path of the sway IPC socket in the runtime folder `folder`, if there is one
    /// (`Desktop` looks its sway's up the same way).
    static func ipcSocket(in folder: String) -> String? {
        (try? FileManager.default.contentsOfDirectory(atPath: folder))?.first {
            $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock")
        }.map { folder + "/" + $0 }
    }

    /// The absolute path of the Wayland socket.
    public var socketPath: String { runtimeDirectory + "/" + waylandDisplay }

    /// `base` with this compositor's Wayland variables, and XWayland's `DISPLAY` when `withX`
    /// (else no `DISPLAY`).
    public func environment(_ base: [String: String], withX: Bool) -> [String: String] {
        var environment = base
        environment["WAYLAND_DISPLAY"] = waylandDisplay
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["DISPLAY"] = withX ? xDisplay : nil
        return environment
    }

    /// The tools' environment: only what they need, on a `PATH` with wl-clipboard and xclip.
    public var toolEnvironment: [String: String] {
        environment(["PATH": "/usr/bin:/bin"], withX: true)
    }

    /// The clipboard as `wl-paste --no-newline` reads it, with a deadline.
    public func waylandClipboard(timeout: Double = 10) throws -> ProcessResult {
        try runProcess("/usr/bin/wl-paste", ["--no-newline"], environment: toolEnvironment, timeout: timeout)
    }

    /// The clipboard as `xclip -o` reads it through XWayland, with a deadline.
    public func xClipboard(timeout: Double = 10) throws -> ProcessResult {
        try runProcess(
            "/usr/bin/xclip", ["-o", "-selection", "clipboard"], environment: toolEnvironment, timeout: timeout)
    }

    /// Copies `data` with `wl-copy` (as `type` when given) and waits until `wl-paste` reads it.
    ///
    /// wl-copy forks a server that keeps whatever stdio it got: it gets a file and /dev/null,
    /// nothing of ours (a pipe of ours would stay open as long as it serves).
    public func waylandCopy(_ data: Data, type: String? = nil) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wl-copy-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let input = try FileHandle(forReadingFrom: file)
        let copy = try SpawnedProcess(
            "/usr/bin/wl-copy", type.map { ["--type", $0] } ?? [], environment: toolEnvironment,
            standardInput: .handle(input))
        try? input.close()
        guard let status = copy.wait(seconds: 20), status == 0 else {
            throw SwayError(reason: "wl-copy failed or hung")
        }
        try waitUntil("wl-paste to read what wl-copy holds") {
            let read = try runProcess(
                "/usr/bin/wl-paste", ["--no-newline"] + (type.map { ["--type", $0] } ?? []),
                environment: toolEnvironment, timeout: 10)
            return read.status == 0 && read.stdout == data
        }
    }

    /// Opens an X window (`xlogo`) through XWayland and waits until sway gives it the focus
    /// (new windows get it; sway is asked for it every 3 s, as `Desktop.focusedXWindow` does):
    /// X clients may read a Wayland selection only while an X window has the focus. The window
    /// goes when the returned process is killed (or with sway).
    public func focusedXWindow() throws -> SpawnedProcess {
        let window = try SpawnedProcess("/usr/bin/xlogo", [], environment: toolEnvironment)
        var nudgeAt = Date().addingTimeInterval(3)
        do {
            try waitUntil("the X window to have sway's focus", timeout: 20) {
                guard window.isRunning else { throw SwayError(reason: "xlogo exited before it had the focus") }
                if try isXWindowFocused() { return true }
                if Date() >= nudgeAt, let socket = ipcSocketPath {
                    nudgeAt = Date().addingTimeInterval(3)
                    var environment = toolEnvironment
                    environment["SWAYSOCK"] = socket
                    _ = try? runProcess(
                        "/usr/bin/swaymsg", ["[shell=\"xwayland\"] focus"], environment: environment, timeout: 10)
                }
                return false
            }
        } catch {
            window.send(SIGKILL)
            throw error
        }
        return window
    }

    /// Whether sway's focused view is an XWayland one (`swaymsg -t get_tree`).
    func isXWindowFocused() throws -> Bool {
        guard let socket = ipcSocketPath else { return false }
        var environment = toolEnvironment
        environment["SWAYSOCK"] = socket
        let tree = try runProcess("/usr/bin/swaymsg", ["-r", "-t", "get_tree"], environment: environment, timeout: 10)
        guard tree.status == 0, let root = try? JSONSerialization.jsonObject(with: tree.stdout) else { return false }
        func focusedShell(_ node: Any) -> String? {
            guard let node = node as? [String: Any] else { return nil }
            if node["focused"] as? Bool == true, let shell = node["shell"] as? String { return shell }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [Any] ?? [] { if let found = focusedShell(child) { return found } }
            }
            return nil
        }
        return focusedShell(root) == "xwayland"
    }

    /// Stops the compositor (XWayland and every client connection go with it), waits for it and
    /// removes its folder.
    public func stop() {
        // SIGTERM first: sway then removes XWayland's lock file and sockets in /tmp, which a
        // killed one leaves behind for the next X server that picks that display number.
        if process.isRunning {
            process.send(SIGTERM)
            if process.wait(seconds: 5) == nil {
                process.send(SIGKILL)
                _ = process.wait(seconds: 10)
            }
        }
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }
}

/// Why sway could not be started.
public struct SwayError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
