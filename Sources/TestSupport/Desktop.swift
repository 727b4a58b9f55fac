import Foundation

/// A private KDE (kwin_wayland), GNOME (mutter), sway or labwc compositor for a test: headless,
/// with XWayland, on a session bus of its own (`dbus-run-session` with a config that names no
/// service folders: nothing installed is activated behind the test's back), in a runtime folder
/// of its own, stopped on `stop()`.
///
/// Nothing is guessed: the compositor starts a session program (`session.py`, written into the
/// folder) once its Wayland socket and XWayland are up, and that program records the
/// environment it was given (`WAYLAND_DISPLAY`, `DISPLAY`, `XAUTHORITY`, the bus address) in a
/// file the test waits for. Both compositors leave when that program does (mutter always, kwin
/// with `--exit-with-session`): `stop()` ends it, the clean stop.
///
/// - KDE: `kwin_wayland --virtual --xwayland`. The installed binary carries a file capability
///   (`cap_sys_resource`) that a sandbox may refuse to exec: a copy without it runs. Our X
///   clients get in by `xhost +SI:localuser:<us>`, run as the compositor's user.
/// - GNOME: `mutter --headless --wayland --virtual-monitor 1280x800`. Its seat has no keyboard,
///   and without one no client may set or read the clipboard ("This seat has no keyboard"):
///   the session program opens a RemoteDesktop session over D-Bus (jeepney) and presses and
///   releases Shift once, which makes mutter add a virtual keyboard, and holds the session open
///   until it ends. X clients need the `XAUTHORITY` file mutter wrote (root may read it).
///
/// - sway and labwc (wlroots): the headless backend (`WLR_BACKENDS=headless`, pixman), the
///   session program from sway's config (`exec`, then `swaymsg exit`) or labwc's `-S`; X
///   clients get in as for KDE.
///
/// All run as `nobody` under root (`Sway.asCompositorUser`). This system's compositors are
/// Debian 12's (kwin 5.27, mutter 43); with a `root` (`RootFileSystem.sid`: sway 1.12, kwin 6.7,
/// labwc 0.20, mutter 51) the compositor and every tool the helpers run (wl-paste, wl-copy,
/// xclip, xprop, xhost, xlogo) are the root's, in a runtime folder under /tmp, which both
/// systems share.
public final class Desktop: @unchecked Sendable {
    // Safe: every stored property is set once in init; `stop` is idempotent.
    /// Which desktop.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// KDE Plasma's compositor, kwin_wayland: data-control (wlr in 5.27; ext only in 6.5+).
        case kde
        /// GNOME's compositor, mutter: no data-control; its XWayland bridge carries the clipboard.
        case gnome
        /// sway (wlroots), started like the others (the `.sway` trait's `Sway` is the older way,
        /// kept for the Debian 12 suites): wlr-data-control, and ext too from 1.11.
        case sway
        /// labwc (wlroots, a stacking compositor): wlr- and ext-data-control.
        case labwc

        public var description: String {
            switch self {
            case .kde: "KDE (kwin_wayland)"
            case .gnome: "GNOME (mutter)"
            case .sway: "sway"
            case .labwc: "labwc"
            }
        }

        /// The compositor, as installed (in the system it runs from).
        public var executable: String {
            "/usr/bin/" + (self == .kde ? "kwin_wayland" : rawValue == "gnome" ? "mutter" : rawValue)
        }

        /// Whether it is installed on this system.
        public var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

        /// Whether it is installed in the root file system at `root` (nil: this system).
        public func isInstalled(in root: String?) -> Bool {
            FileManager.default.isExecutableFile(atPath: (root ?? "") + executable)
        }

        /// Whether it is a wlroots compositor (sway, labwc): a headless backend chosen by
        /// environment variables, and an X server that lets in only its own user.
        var isWlroots: Bool { self == .sway || self == .labwc }
    }

    /// Which desktop this is.
    public let kind: Kind
    /// The root file system the compositor and the tools run from (a sid root made by
    /// scripts/test-desktops-sid), or nil for this system's own.
    public let root: String?
    /// The compositor's runtime folder (`XDG_RUNTIME_DIR` of its clients).
    public let runtimeDirectory: String
    /// The Wayland socket's name in `runtimeDirectory` (`WAYLAND_DISPLAY`).
    public let waylandDisplay: String
    /// XWayland's display name (`DISPLAY`).
    public let xDisplay: String
    /// The X authority file X clients need (GNOME), if any.
    public let xAuthority: String?
    /// The compositor's session bus (`DBUS_SESSION_BUS_ADDRESS`).
    public let busAddress: String
    private let sessionProgram: Int32
    private let process: SpawnedProcess
    private let logPath: String

    /// How long the session program may take to say it is up: a cold kwin takes 2-3 s here,
    /// more on a loaded machine.
    public static let startTimeout = 60.0

    /// Starts the compositor and waits (at most `timeout` seconds) for its session program's
    /// record of the session.
    /// - Throws: `DesktopError` when it cannot start; tests fail loudly then, never skip.
    public init(_ kind: Kind, root: String? = nil, timeout: Double = startTimeout) throws {
        self.kind = kind
        self.root = root
        guard kind.isInstalled(in: root) else {
            throw DesktopError(
                reason: root.map { "\(kind.executable) is not in the root \($0) (scripts/test-desktops-sid makes it)" }
                    ?? "\(kind.executable) is not installed (scripts/bootstrap installs it)")
        }
        // In /tmp, which a root's compositor sees at the same path (`RootFileSystem`).
        let folder = (root == nil ? FileManager.default.temporaryDirectory : URL(fileURLWithPath: "/tmp"))
            .appendingPathComponent("\(kind.rawValue)-\(UUID().uuidString)").path
        guard mkdir(folder, 0o700) == 0 else { throw DesktopError(reason: "cannot create \(folder): errno \(errno)") }
        var owner: (uid_t, gid_t)?
        if getuid() == 0 {
            guard let nobody = getpwnam("nobody") else { throw DesktopError(reason: "there is no user nobody") }
            owner = (nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        }
        func own(_ path: String) { if let owner { chown(path, owner.0, owner.1) } }
        own(folder)
        runtimeDirectory = folder
        logPath = folder + "/compositor.log"
        let record = folder + "/session.json"

        // The files the compositor's user reads: the session program, the bus config and (KDE)
        // the compositor's copy, none writable by it.
        let script = folder + "/session.py"
        _ = FileManager.default.createFile(
            atPath: script, contents: Data(Self.sessionScript.utf8), attributes: [.posixPermissions: 0o755])
        let busConfig = folder + "/bus.conf"
        _ = FileManager.default.createFile(
            atPath: busConfig, contents: Data(Self.busConfig(folder: folder).utf8),
            attributes: [.posixPermissions: 0o644])
        let busFolder = folder + "/bus"
        guard mkdir(busFolder, 0o700) == 0 else { throw DesktopError(reason: "cannot create \(busFolder)") }
        own(busFolder)
        // The system's Python with the session program's packages (jeepney) copied into the
        // folder: neither the venv's interpreter nor the checkout's .build/venv need be within
        // the compositor's reach (a checkout under a 0700 home, as /root, is not).
        let packages = folder + "/python"
        do {
            try Self.copyPythonPackages(Self.sessionPackages, to: packages)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        let session = ["/usr/bin/python3", script, record, kind.rawValue, packages]
        var compositor: [String]
        switch kind {
        case .kde:
            // A copy without the file capability: a sandbox may refuse to exec the original.
            let copy = folder + "/kwin_wayland"
            do {
                try FileManager.default.copyItem(atPath: (root ?? "") + kind.executable, toPath: copy)
            } catch {
                throw DesktopError(reason: "cannot copy \(kind.executable): \(error)")
            }
            chmod(copy, 0o755)
            // kwin takes one program for --exit-with-session: a shell line that runs ours.
            let line = folder + "/session.sh"
            let text = "#!/bin/sh\nexec " + session.map { "'\($0)'" }.joined(separator: " ") + "\n"
            _ = FileManager.default.createFile(
                atPath: line, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
            compositor = [copy, "--virtual", "--xwayland", "--no-lockscreen", "--exit-with-session", line]
        case .gnome:
            compositor = [kind.executable, "--headless", "--wayland", "--virtual-monitor", "1280x800"] + session
        case .sway:
            // The session program from sway's config, once its socket is up (sway exports
            // DISPLAY to it: XWayland starts on its first X client).
            let config = folder + "/sway.config"
            // sway stays when it ends: `swaymsg exit` after it, so `stop()` ends sway too.
            let program = session.map { "'\($0)'" }.joined(separator: " ")
            let line = "xwayland enable\nexec sh -c \"\(program); swaymsg exit\"\n"
            _ = FileManager.default.createFile(
                atPath: config, contents: Data(line.utf8), attributes: [.posixPermissions: 0o644])
            compositor = [kind.executable, "-c", config]
        case .labwc:
            // labwc runs its session command (-S) through sh, with WAYLAND_DISPLAY and DISPLAY
            // set, and leaves when it ends.
            compositor = [kind.executable, "-S", session.map { "'\($0)'" }.joined(separator: " ")]
        }
        var environment = [
            "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": folder, "HOME": folder, "LANG": "C.UTF-8",
        ]
        if kind.isWlroots {
            // wlroots' headless backend, drawing in memory: no GPU, no input devices.
            environment.merge(
                ["WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"]
            ) { $1 }
        }
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let command = RootFileSystem.command(
            Sway.asCompositorUser + ["/usr/bin/dbus-run-session", "--config-file=\(busConfig)", "--"] + compositor,
            in: root)
        process = try SpawnedProcess(
            command[0], Array(command.dropFirst()), environment: environment, currentDirectory: folder,
            standardOutput: .handle(log), standardError: .handle(log))
        try? log.close()

        var found: [String: Any] = [:]
        do {
            try waitUntil("\(kind)'s session program to record the session", timeout: timeout) { [process] in
                guard process.isRunning else { throw DesktopError(reason: "\(kind) exited") }
                guard let data = FileManager.default.contents(atPath: record),
                    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                else { return false }
                found = object
                return true
            }
        } catch {
            process.send(SIGKILL)
            _ = process.wait(seconds: 10)
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: folder)
            throw DesktopError(reason: "\(kind) did not start: \(error)\n\(log.suffix(3000))")
        }
        waylandDisplay = found["WAYLAND_DISPLAY"] as? String ?? ""
        xDisplay = found["DISPLAY"] as? String ?? ""
        xAuthority = (found["XAUTHORITY"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        busAddress = found["DBUS_SESSION_BUS_ADDRESS"] as? String ?? ""
        sessionProgram = (found["pid"] as? Int).map(Int32.init) ?? 0
        if let failure = found["error"] as? String {
            stop()
            throw DesktopError(reason: "\(kind)'s session program failed: \(failure)")
        }
        guard !waylandDisplay.isEmpty, !xDisplay.isEmpty, sessionProgram > 0 else {
            stop()
            throw DesktopError(reason: "\(kind) gave its session no WAYLAND_DISPLAY or DISPLAY: \(found)")
        }
        if getuid() == 0, kind != .gnome {
            // kwin and wlroots' XWayland let in their own user only; this lets our (root) X
            // clients in too.
            let xhost = try runTool(
                "/usr/bin/env", Sway.asCompositorUser + ["/usr/bin/xhost", "+SI:localuser:root"],
                environment: ["PATH": "/usr/bin:/bin", "DISPLAY": xDisplay, "XDG_RUNTIME_DIR": folder], timeout: 20)
            guard xhost.status == 0 else {
                stop()
                throw DesktopError(reason: "xhost +SI:localuser:root failed: \(xhost.err)")
            }
        }
    }

    deinit { stop() }

    /// The absolute path of the Wayland socket.
    public var socketPath: String { runtimeDirectory + "/" + waylandDisplay }

    /// `base` with this compositor's Wayland variables, and XWayland's `DISPLAY` (and
    /// `XAUTHORITY`) when `withX` (else neither).
    public func environment(_ base: [String: String], withX: Bool) -> [String: String] {
        var environment = base
        environment["WAYLAND_DISPLAY"] = waylandDisplay
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["DISPLAY"] = withX ? xDisplay : nil
        environment["XAUTHORITY"] = withX ? xAuthority : nil
        return environment
    }

    /// The tools' environment: only what they need, on a `PATH` with wl-clipboard and xclip.
    public var toolEnvironment: [String: String] {
        environment(["PATH": "/usr/bin:/bin"], withX: true)
    }

    /// How long a test's clipboard read may take: on KDE `wl-paste` hangs for 15 s and more
    /// after an X owner died, so every read has this deadline and a hang is a failed read.
    public static let readTimeout = 5.0

    /// The clipboard as `wl-paste --no-newline` reads it (of `type` when given), with a deadline.
    public func waylandClipboard(type: String? = nil, timeout: Double = readTimeout) throws -> ProcessResult {
        try runTool(
            "/usr/bin/wl-paste", ["--no-newline"] + (type.map { ["--type", $0] } ?? []), environment: toolEnvironment,
            timeout: timeout)
    }

    /// The clipboard as `xclip -o` reads it through XWayland (as `target` when given), with a
    /// deadline.
    public func xClipboard(target: String? = nil, timeout: Double = readTimeout) throws -> ProcessResult {
        try runTool(
            "/usr/bin/xclip", ["-o", "-selection", "clipboard"] + (target.map { ["-t", $0] } ?? []),
            environment: toolEnvironment, timeout: timeout)
    }

    /// Copies `data` with `wl-copy` (as `type` when given) and waits until `wl-paste` reads it.
    ///
    /// wl-copy forks a server that keeps whatever stdio it got: it gets a file and /dev/null.
    /// `extraArguments` go to wl-copy as they are (`--sensitive`, wl-clipboard 2.2+).
    public func waylandCopy(_ data: Data, type: String? = nil, extraArguments: [String] = []) throws {
        try copy(data, with: "/usr/bin/wl-copy", (type.map { ["--type", $0] } ?? []) + extraArguments)
        try waitUntil("wl-paste to read what wl-copy holds", timeout: 20) {
            let read = try waylandClipboard(type: type)
            return read.status == 0 && read.stdout == data
        }
    }

    /// Copies `data` with `xclip -i` through XWayland (as `target` when given) and waits until
    /// `xclip -o` reads it. xclip stays as the owner, serving, until another client takes the
    /// selection or the compositor goes.
    public func xCopy(_ data: Data, target: String? = nil) throws {
        try copy(data, with: "/usr/bin/xclip", ["-i", "-selection", "clipboard"] + (target.map { ["-t", $0] } ?? []))
        try waitUntil("xclip to own the clipboard", timeout: 20) {
            let read = try xClipboard(target: target)
            return read.status == 0 && read.stdout == data
        }
    }

    /// Runs a copying tool with `data` in a file on its stdin, nothing of ours open in it.
    private func copy(_ data: Data, with tool: String, _ arguments: [String]) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("copy-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let input = try FileHandle(forReadingFrom: file)
        let command = RootFileSystem.command([tool] + arguments, in: root)
        let copier = try SpawnedProcess(
            command[0], Array(command.dropFirst()), environment: toolEnvironment, standardInput: .handle(input))
        try? input.close()
        // wl-copy returns once its server forked; xclip forks into the background at once.
        guard let status = copier.wait(seconds: 20), status == 0 else {
            copier.send(SIGKILL)
            throw DesktopError(reason: "\(tool) failed or hung")
        }
    }

    /// Opens an X window (`xlogo`) through XWayland and waits until the compositor gives it the
    /// focus (`_NET_ACTIVE_WINDOW` on the root names a window of class XLogo). The window goes
    /// when the returned process is killed (or with the compositor).
    ///
    /// A new window gets the focus; sway, which once left it elsewhere for 20 s on a loaded CI
    /// machine (sway 1.12, session 17), is asked for it every `focusNudgeEvery` seconds
    /// (`[class="XLogo"] focus`; it answers no match until the window is mapped). A window that
    /// exits, or never gets the focus, fails with what the root's active window was and the
    /// compositor's log.
    public func focusedXWindow() throws -> SpawnedProcess {
        // Twice: a window that never got the focus (the root's active window stayed 0x0 although
        // sway was asked, desktops-sid, session 18) is closed and a new one opened.
        var attempt = 1
        while true {
            let command = RootFileSystem.command(["/usr/bin/xlogo"], in: root)
            let window = try SpawnedProcess(command[0], Array(command.dropFirst()), environment: toolEnvironment)
            var nudgeAt = Date().addingTimeInterval(Self.focusNudgeEvery)
            var nudged = false
            do {
                try waitUntil("the X window to have \(kind)'s focus", timeout: 12) {
                    guard window.isRunning else { throw DesktopError(reason: "xlogo exited before it had the focus") }
                    if try isXLogoActive() { return true }
                    if kind == .sway, Date() >= nudgeAt {
                        nudged = true
                        nudgeAt = Date().addingTimeInterval(Self.focusNudgeEvery)
                        focusXLogoThroughSway()
                    }
                    return false
                }
                return window
            } catch {
                window.send(SIGKILL)
                _ = window.wait(seconds: 5)
                if attempt < 2 {
                    attempt += 1
                    continue
                }
                let active = (try? runTool("/usr/bin/xprop", ["-root", "_NET_ACTIVE_WINDOW"], timeout: 10).out) ?? "?"
                throw DesktopError(
                    reason: "\(error), twice\(nudged ? " (sway was asked to focus it)" : ""); the root's "
                        + "\(active.trimmingCharacters(in: .whitespacesAndNewlines)); \(kind)'s log: \(log.suffix(1500))"
                )
            }
        }
    }

    /// How long `focusedXWindow` waits for sway to focus a new X window by itself, and then
    /// between two requests.
    static let focusNudgeEvery = 3.0

    /// Asks sway (`swaymsg`, on the IPC socket in its runtime folder) to focus the `xlogo`
    /// window; what it answers does not matter (the focus is looked at again).
    func focusXLogoThroughSway() {
        guard let socket = Sway.ipcSocket(in: runtimeDirectory) else { return }
        var environment = toolEnvironment
        environment["SWAYSOCK"] = socket
        _ = try? runTool("/usr/bin/swaymsg", ["[class=\"XLogo\"] focus"], environment: environment, timeout: 10)
    }

    /// Whether the active window (EWMH `_NET_ACTIVE_WINDOW`, `xprop`) is an `xlogo`.
    func isXLogoActive() throws -> Bool {
        let active = try runTool(
            "/usr/bin/xprop", ["-root", "_NET_ACTIVE_WINDOW"], environment: toolEnvironment, timeout: 10)
        guard active.status == 0, let id = active.out.split(separator: " ").last.map(String.init), id.hasPrefix("0x"),
            id != "0x0"
        else { return false }
        let window = try runTool(
            "/usr/bin/xprop", ["-id", id.trimmingCharacters(in: .whitespacesAndNewlines), "WM_CLASS"],
            environment: toolEnvironment, timeout: 10)
        return window.status == 0 && window.out.contains("XLogo")
    }

    /// Runs a tool of the compositor's system (`root`'s, or this system's), with a deadline.
    public func runTool(
        _ executable: String, _ arguments: [String], input: ProcessInput = .null,
        environment: [String: String]? = nil, timeout: Double = 60
    ) throws -> ProcessResult {
        let command = RootFileSystem.command([executable] + arguments, in: root)
        return try runProcess(
            command[0], Array(command.dropFirst()), input: input, environment: environment ?? toolEnvironment,
            timeout: timeout)
    }

    /// What the compositor wrote so far (for failure messages).
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Stops the compositor: ends its session program (the compositor leaves with it, and
    /// XWayland and the bus with the compositor), waits, and removes its folder. One that does
    /// not leave in time is killed.
    public func stop() {
        if process.isRunning, sessionProgram > 0 {
            kill(sessionProgram, SIGTERM)
            if process.wait(seconds: 15) == nil {
                process.send(SIGTERM)
                if process.wait(seconds: 5) == nil {
                    process.send(SIGKILL)
                    _ = process.wait(seconds: 10)
                }
            }
        } else if process.isRunning {
            process.send(SIGKILL)
            _ = process.wait(seconds: 10)
        }
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    /// The Python packages the session program imports (GNOME's RemoteDesktop session).
    static let sessionPackages = ["jeepney"]

    /// Copies `names` from the checkout's venv (`scripts/bootstrap` installs them in
    /// `.build/venv`) into `destination`, readable by anyone: the session program runs as the
    /// compositor's user, who may not enter the checkout. Files are made 0644 and folders 0755
    /// whatever the umask they were installed under.
    ///
    /// - Throws: `DesktopError` when a package is not in the venv or cannot be copied.
    static func copyPythonPackages(_ names: [String], to destination: String) throws {
        let files = FileManager.default
        let lib = ServerProcess.packageRoot.appendingPathComponent(".build/venv/lib").path
        let sitePackages = ((try? files.contentsOfDirectory(atPath: lib)) ?? []).sorted()
            .filter { $0.hasPrefix("python3") }.map { lib + "/" + $0 + "/site-packages" }
        do {
            try files.createDirectory(
                atPath: destination, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
            for name in names {
                guard let source = sitePackages.map({ $0 + "/" + name }).first(where: { files.fileExists(atPath: $0) })
                else {
                    throw DesktopError(
                        reason: "\(name) is not in \(lib)/python3*/site-packages (run scripts/bootstrap)")
                }
                let copy = destination + "/" + name
                try files.copyItem(atPath: source, toPath: copy)
                try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy)
                for inner in try files.subpathsOfDirectory(atPath: copy) {
                    var isFolder: ObjCBool = false
                    _ = files.fileExists(atPath: copy + "/" + inner, isDirectory: &isFolder)
                    try files.setAttributes(
                        [.posixPermissions: isFolder.boolValue ? 0o755 : 0o644], ofItemAtPath: copy + "/" + inner)
                }
            }
        } catch let error as DesktopError {
            throw error
        } catch {
            throw DesktopError(reason: "cannot copy the session program's packages to \(destination): \(error)")
        }
    }

    /// A session bus config with no service folders (as `SessionBus`'s), listening in `folder`.
    static func busConfig(folder: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:dir=\(folder)/bus</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    /// The session program: records the session's environment as JSON (written whole, then
    /// renamed), after (GNOME) opening a RemoteDesktop session whose virtual keyboard gives the
    /// seat a keyboard; then waits for SIGTERM. A failure is recorded too, so the test fails at
    /// once with the reason.
    static let sessionScript = #"""
        import json, os, signal, sys
        record, kind = sys.argv[1], sys.argv[2]
        sys.path[0:0] = sys.argv[3:]
        names = ("WAYLAND_DISPLAY", "DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS")
        info = {name: os.environ.get(name, "") for name in names}
        info["pid"] = os.getpid()
        connection = None
        if kind == "gnome":
            try:
                from jeepney import DBusAddress, new_method_call
                from jeepney.io.blocking import open_dbus_connection
                connection = open_dbus_connection(bus="SESSION")
                name = "org.gnome.Mutter.RemoteDesktop"
                desktop = DBusAddress("/org/gnome/Mutter/RemoteDesktop", bus_name=name, interface=name)
                path = connection.send_and_get_reply(new_method_call(desktop, "CreateSession")).body[0]
                session = DBusAddress(path, bus_name=name, interface=name + ".Session")
                connection.send_and_get_reply(new_method_call(session, "Start"))
                # The virtual keyboard appears with its first key: Shift (evdev 42), down and up.
                for pressed in (True, False):
                    reply = connection.send_and_get_reply(
                        new_method_call(session, "NotifyKeyboardKeycode", "ub", (42, pressed)))
                    if reply.header.message_type.name == "error":
                        raise RuntimeError("NotifyKeyboardKeycode: %r" % (reply.body,))
            except Exception as error:
                info["error"] = repr(error)
        with open(record + ".part", "w") as out:
            json.dump(info, out)
        os.rename(record + ".part", record)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        while True:
            signal.pause()
        """#
}

/// Why a desktop's compositor could not be started.
public struct DesktopError: Error, CustomStringConvertible {
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}
