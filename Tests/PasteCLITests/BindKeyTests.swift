import Foundation
import Glibc
import PasteCore
import Testing
import TestSupport

@testable import PasteCLI

/// `paste --bind-key [KEY]` and `--unbind-key` on the desktops' own settings: GNOME's through
/// gsettings and dconf on a private bus, Xfce's through xfconfd on a private bus, KDE's files
/// read back with kreadconfig5 (sway's are `BindKeySwayTests`, in the compositors' phase).
/// Each: the binding read back by the desktop's own tool, a taken key refused with nothing
/// written, and `--unbind-key` leaving the settings or files exactly as they were.
@Suite("paste --bind-key on GNOME, KDE and Xfce")
struct BindKeyTests {
    // MARK: - The key and the desktop, in process

    @Test(
        "a key in the common form, as each desktop spells it",
        arguments: [
            ("Super+Shift+V", "Super+Shift+V", "<Super><Shift>v", "Meta+Shift+V", "Mod4+Shift+v"),
            ("ctrl+alt+p", "Ctrl+Alt+P", "<Primary><Alt>p", "Ctrl+Alt+P", "Ctrl+Mod1+p"),
            ("Meta-F5", "Super+F5", "<Super>F5", "Meta+F5", "Mod4+F5"),
            ("Shift+Super+Print", "Super+Shift+Print", "<Super><Shift>Print", "Meta+Shift+Print", "Mod4+Shift+Print"),
        ])
    func spellings(_ row: (String, String, String, String, String)) throws {
        let key = try #require(HotKey(row.0))
        #expect(key.description == row.1)
        #expect(key.gtkAccelerator == row.2)
        #expect(key.qtSequence == row.3)
        #expect(key.bindsymKey == row.4)
        #expect(HotKey(gtkAccelerator: row.2) == key)
        #expect(HotKey(qtSequence: row.3) == key)
        #expect(HotKey(bindsym: row.4) == key)
    }

    @Test("a key that is not one is refused", arguments: ["V", "Shift+V", "Super+", "Super+Super+V", "Hyper+Foo", ""])
    func badKeys(_ text: String) {
        #expect(HotKey(text) == nil)
    }

    @Test(
        "the desktop from the session's variables",
        arguments: [
            (["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"], KeyDesktop.gnome),
            (["XDG_CURRENT_DESKTOP": "KDE", "KDE_SESSION_VERSION": "5"], .kde5),
            (["XDG_CURRENT_DESKTOP": "KDE", "KDE_SESSION_VERSION": "6"], .kde6),
            (["XDG_SESSION_DESKTOP": "xfce"], .xfce),
            (["XDG_CURRENT_DESKTOP": "GNOME", "SWAYSOCK": "/run/sway.sock"], .sway),
            (["I3SOCK": "/run/i3.sock"], .i3),
            (["HYPRLAND_INSTANCE_SIGNATURE": "abc"], .hyprland),
        ] as [([String: String], KeyDesktop)])
    func detection(_ row: ([String: String], KeyDesktop)) {
        #expect(KeyDesktop.detect(row.0) == row.1)
    }

    @Test("GVariant text and kglobalshortcutsrc entries are read as the desktops write them")
    func readers() {
        #expect(KeyBinder.gvariantStrings("@as []\n") == [])
        #expect(KeyBinder.gvariantStrings("['/a/', '/b\\'c/']") == ["/a/", "/b'c/"])
        #expect(KeyBinder.gvariantStrings("'<Super>p'") == ["<Super>p"])
        #expect(KeyBinder.gvariantStrings("uint32 5") == nil)
        let file = Array("[kwin]\nWindow Close=Alt+F4\\tMeta+Q,Alt+F4,Close Window\n".utf8)
        #expect(KeyBinder.kdeHolder(of: HotKey("Super+Q")!, in: file) == "[kwin] Window Close (Close Window)")
        #expect(KeyBinder.kdeHolder(of: HotKey("Super+W")!, in: file) == nil)
    }

    @Test("Hyprland (no Hyprland here): a bind line appended, a taken key refused, the file restored byte for byte")
    func hyprland() throws {
        let home = try TemporaryHome()
        let config = try home.write(
            "$mainMod = SUPER\nbind = $mainMod, Q, exec, kitty\nbind = $mainMod SHIFT, V, exec, cliphist\n",
            to: "config/hypr/hyprland.conf", mode: 0o644)
        let before = try Data(contentsOf: URL(fileURLWithPath: config))
        let context = Context(environment: home.environment(["PATH": "/nonexistent"]))
        var binder = KeyBinder(context: context, desktop: .hyprland, runner: CommandRunner())
        #expect(
            throws: BindKeyError.taken(
                key: HotKey("Super+Shift+V")!, desktop: .hyprland,
                holder: "\(config): bind = $mainMod SHIFT, V, exec, cliphist")
        ) {
            try binder.bind(HotKey("Super+Shift+V")!, command: "/opt/paste/bin/paste")
        }
        try binder.bind(HotKey("Ctrl+Alt+P")!, command: "/opt/my paste/paste")
        #expect(
            try String(contentsOfFile: config, encoding: .utf8)
                == String(decoding: before, as: UTF8.self) + "bind = CTRL ALT, P, exec, '/opt/my paste/paste'\n")
        let record = KeyBindingRecord(
            desktop: .hyprland, key: "Ctrl+Alt+P", command: "/opt/my paste/paste", steps: binder.steps)
        _ = try binder.undo(record)
        #expect(try Data(contentsOf: URL(fileURLWithPath: config)) == before)
    }

    // MARK: - End to end

    @Test("a desktop paste cannot tell: one line, the recipes named, status 69")
    func unknownDesktop() throws {
        let home = try KeyHome(desktop: [:])
        let result = try home.paste(["--bind-key"])
        #expect(result.status == 69)
        #expect(result.out == "")
        #expect(
            result.err
                == "paste: cannot tell which desktop this is (XDG_CURRENT_DESKTOP is unset); --bind-key knows GNOME, KDE Plasma, Xfce, sway, i3 and Hyprland\n"
                + "paste: docs/recipes.md binds a key by hand on other desktops (also in paste(1), KEY BINDING)\n")
        let bad = try home.paste(["--bind-key", "Super+Q+"])
        #expect(bad.status == 64)
        #expect(
            bad.err
                == "paste: bad key 'Super+Q+': expected modifiers and a key joined by '+', such as Super+Shift+V or Ctrl+Alt+P\npaste: try 'paste --help'\n"
        )
        let nothing = try home.paste(["--unbind-key"])
        #expect(nothing.status == 0)
        #expect(nothing.out == "no key bound by paste; nothing to undo\n")
    }

    @Test("GNOME: a custom keybinding read back by gsettings and dconf; taken keys refused; undone exactly")
    func gnome() throws {
        let bus = try SessionBus()
        defer { bus.stop() }
        let home = try KeyHome(desktop: ["XDG_CURRENT_DESKTOP": "GNOME", "GSETTINGS_BACKEND": "dconf"], bus: bus)
        let dconf = try home.service("/usr/libexec/dconf-service", owning: "ca.desrt.dconf", on: bus)
        defer { dconf.stop() }
        // A shortcut GNOME Settings made, as it makes them.
        let settings = "org.gnome.settings-daemon.plugins.media-keys"
        let custom0 = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/custom0/"
        let entry = "\(settings).custom-keybinding:\(custom0)"
        try home.tool("gsettings", ["set", entry, "name", "terminal"])
        try home.tool("gsettings", ["set", entry, "command", "xterm"])
        try home.tool("gsettings", ["set", entry, "binding", "<Primary><Alt>p"])
        try home.tool("gsettings", ["set", settings, "custom-keybindings", "['\(custom0)']"])
        let before = try home.tool("dconf", ["dump", "/"])

        let taken = try home.paste(["--bind-key", "Ctrl+Alt+P"])
        #expect(taken.status == 69)
        #expect(
            taken.err
                == "paste: Ctrl+Alt+P is taken on GNOME by the custom shortcut 'terminal' (\(custom0)); nothing was written\n"
                + "paste: choose another key: paste --bind-key KEY\n")
        let builtIn = try home.paste(["--bind-key", "Super+V"])
        #expect(builtIn.status == 69)
        #expect(
            builtIn.err.hasPrefix(
                "paste: Super+V is taken on GNOME by org.gnome.shell.keybindings toggle-message-tray;"))
        #expect(try home.tool("dconf", ["dump", "/"]) == before)

        let bound = try home.paste(["--bind-key"])
        #expect(bound.status == 0)
        #expect(bound.err == "")
        let ours = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/paste/"
        #expect(
            bound.out.hasPrefix(
                "bound Super+Shift+V to \(home.executable) on GNOME (the default key; another: paste --bind-key KEY)\n"
                    + "  ran gsettings set \(settings).custom-keybinding:\(ours) name"))
        #expect(bound.out.hasSuffix("undo: paste --unbind-key\n"))
        #expect(try home.tool("gsettings", ["get", settings, "custom-keybindings"]) == "['\(custom0)', '\(ours)']\n")
        #expect(
            try home.tool("gsettings", ["get", "\(settings).custom-keybinding:\(ours)", "binding"])
                == "'<Super><Shift>v'\n")
        #expect(try home.tool("dconf", ["read", ours + "command"]) == "'\(home.executable)'\n")
        #expect(try home.tool("dconf", ["read", ours + "name"]) == "'paste'\n")
        #expect(home.hasRecord)

        let again = try home.paste(["--bind-key", "Super+B"])
        #expect(again.status == 64)
        #expect(
            again.err
                == "paste: paste is already bound to Super+Shift+V on GNOME; 'paste --unbind-key' removes it first\n")

        let unbound = try home.paste(["--unbind-key"])
        #expect(unbound.status == 0)
        #expect(
            unbound.out.hasPrefix("unbound Super+Shift+V on GNOME\n  ran gsettings set \(settings) custom-keybindings"))
        #expect(try home.tool("dconf", ["dump", "/"]) == before)
        #expect(!home.hasRecordFolder)
    }

    @Test("Xfce: a command shortcut read back by xfconf-query; taken keys refused; undone exactly")
    func xfce() throws {
        let bus = try SessionBus()
        defer { bus.stop() }
        // The defaults are Xfce's own (xfce4-settings' file in /etc/xdg).
        let home = try KeyHome(desktop: ["XDG_CURRENT_DESKTOP": "XFCE", "XDG_CONFIG_DIRS": "/etc/xdg"], bus: bus)
        let xfconfd = try home.service(
            "/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd", owning: "org.xfce.Xfconf", on: bus)
        defer { xfconfd.stop() }
        let channel = ["-c", "xfce4-keyboard-shortcuts"]
        let before = try home.tool("xfconf-query", channel + ["-l", "-v"])
        #expect(before.contains("/commands/default/<Super>p"))

        let taken = try home.paste(["--bind-key", "Super+P"])
        #expect(taken.status == 69)
        #expect(
            taken.err
                == "paste: Super+P is taken on Xfce by /commands/default/<Super>p ('xfce4-display-settings --minimal'); nothing was written\n"
                + "paste: choose another key: paste --bind-key KEY\n")
        #expect(try home.tool("xfconf-query", channel + ["-l", "-v"]) == before)

        let bound = try home.paste(["--bind-key", "Ctrl+Alt+Q"])
        #expect(bound.status == 0)
        #expect(bound.out.hasPrefix("bound Ctrl+Alt+Q to \(home.executable) on Xfce\n"))
        #expect(
            try home.tool("xfconf-query", channel + ["-p", "/commands/custom/<Primary><Alt>q"]) == home.executable
                + "\n")
        #expect(try home.tool("xfconf-query", channel + ["-p", "/commands/custom/override"]) == "true\n")
        // The defaults copied beside it, as xfsettingsd would.
        #expect(
            try home.tool("xfconf-query", channel + ["-p", "/commands/custom/<Super>p"])
                == "xfce4-display-settings --minimal\n")
        #expect(home.hasRecord)

        try home.paste(["--unbind-key"]).expectSuccess()
        #expect(try home.tool("xfconf-query", channel + ["-l", "-v"]) == before)
        #expect(!home.hasRecordFolder)
    }

    @Test(
        "KDE Plasma: the launcher and kglobalshortcutsrc read back by kreadconfig5; taken keys refused; files restored byte for byte",
        arguments: ["5", "6"])
    func kde(_ version: String) throws {
        let home = try KeyHome(desktop: ["XDG_CURRENT_DESKTOP": "KDE", "KDE_SESSION_VERSION": version])
        // Part of a Plasma session's file, as kglobalaccel writes it.
        let shortcuts = try home.home.write(
            """
            [kwin]
            Window Close=Alt+F4,Alt+F4,Close Window
            Window Maximize=Meta+PgUp,Meta+PgUp,Maximize Window

            [org.kde.klipper]
            _k_friendly_name=Klipper
            show-on-mouse-pos=Meta+V\\tCtrl+Alt+V,Meta+V,Show Clipboard Items at Mouse Position

            """, to: "config/kglobalshortcutsrc", mode: 0o644)
        let before = try Data(contentsOf: URL(fileURLWithPath: shortcuts))

        let taken = try home.paste(["--bind-key", "Ctrl+Alt+V"])
        #expect(taken.status == 69)
        #expect(
            taken.err
                == "paste: Ctrl+Alt+V is taken on KDE Plasma \(version) by [org.kde.klipper] show-on-mouse-pos (Show Clipboard Items at Mouse Position); nothing was written\n"
                + "paste: choose another key: paste --bind-key KEY\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: shortcuts)) == before)

        let bound = try home.paste(["--bind-key"])
        #expect(bound.status == 0)
        #expect(
            bound.out.hasPrefix("bound Super+Shift+V to \(home.executable) on KDE Plasma \(version) (the default key"))
        let groups =
            version == "6"
            ? ["--group", "services", "--group", "paste-bind-key.desktop"] : ["--group", "paste-bind-key.desktop"]
        let launch = try home.tool("kreadconfig5", ["--file", shortcuts] + groups + ["--key", "_launch"])
        #expect(launch == (version == "6" ? "Meta+Shift+V\n" : "Meta+Shift+V,none,paste\n"))
        let launcher = home.home.root.appendingPathComponent("data/applications/paste-bind-key.desktop").path
        #expect(
            try home.tool("kreadconfig5", ["--file", launcher, "--group", "Desktop Entry", "--key", "Exec"])
                == home.executable + "\n")
        // Klipper's entry is untouched.
        #expect(
            try home.tool(
                "kreadconfig5", ["--file", shortcuts, "--group", "org.kde.klipper", "--key", "show-on-mouse-pos"])
                == "Meta+V\tCtrl+Alt+V,Meta+V,Show Clipboard Items at Mouse Position\n")
        #expect(home.hasRecord)

        let unbound = try home.paste(["--unbind-key"])
        #expect(unbound.status == 0)
        #expect(
            unbound.out
                == "unbound Super+Shift+V on KDE Plasma \(version)\n  \(shortcuts): restored as it was\n  \(launcher): removed (paste made it)\n"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: shortcuts)) == before)
        #expect(!FileManager.default.fileExists(atPath: launcher))
        #expect(!home.hasRecordFolder)
        // Nothing bound now: the same answer as before any --bind-key.
        let again = try home.paste(["--unbind-key"])
        #expect(again.status == 0)
        #expect(again.out == "no key bound by paste; nothing to undo\n")
    }
}

/// A person's folders for one `--bind-key` test, the desktop's variables, and the tools.
final class KeyHome: @unchecked Sendable {
    // Safe: set once in init.
    let home: TemporaryHome
    let environment: [String: String]
    /// The paste the shortcut runs: the built one, its links resolved (/proc/self/exe).
    let executable = URL(fileURLWithPath: BuiltProducts.path(of: "paste")).resolvingSymlinksInPath().path

    /// The session's variables that name a desktop, all cleared but `desktop`'s.
    static let desktopVariables = [
        "XDG_CURRENT_DESKTOP", "XDG_SESSION_DESKTOP", "KDE_SESSION_VERSION", "SWAYSOCK", "I3SOCK",
        "HYPRLAND_INSTANCE_SIGNATURE", "GSETTINGS_BACKEND", "DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY", "DISPLAY",
    ]

    /// `--bind-key`'s record folder: `$XDG_STATE_HOME/paste/bind-key`.
    var recordFolder: URL { home.stateHome.appendingPathComponent("paste/bind-key") }
    /// Whether `--bind-key` left its record.
    var hasRecord: Bool { FileManager.default.fileExists(atPath: recordFolder.appendingPathComponent("record").path) }
    /// Whether the record's folder is there at all (`--unbind-key` removes it, empty).
    var hasRecordFolder: Bool { FileManager.default.fileExists(atPath: recordFolder.path) }

    init(desktop: [String: String], bus: SessionBus? = nil) throws {
        home = try TemporaryHome()
        var extra: [String: String?] = [:]
        for name in Self.desktopVariables { extra[name] = .some(nil) }
        for (name, value) in desktop { extra[name] = value }
        if let bus { extra["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
        environment = home.environment(extra)
    }

    /// Runs the built paste.
    func paste(_ arguments: [String]) throws -> ProcessResult {
        try runProcess(BuiltProducts.path(of: "paste"), arguments, environment: environment, timeout: 120)
    }

    /// Runs a desktop tool from /usr/bin and returns its stdout; a failure fails the test.
    @discardableResult
    func tool(_ name: String, _ arguments: [String]) throws -> String {
        let result = try runProcess("/usr/bin/" + name, arguments, environment: environment, timeout: 60)
        guard result.status == 0 else {
            throw KeyToolFailure(description: "\(name) \(arguments) failed (\(result.status)): \(result.err)")
        }
        return result.out
    }

    /// Starts a settings daemon on `bus` and waits until it owns `name`.
    func service(_ path: String, owning name: String, on bus: SessionBus) throws -> SpawnedProcessStopper {
        let process = try SpawnedProcess(path, [], environment: environment)
        let stopper = SpawnedProcessStopper(process)
        do {
            try waitUntil("\(path) to own \(name)", timeout: 30) {
                guard process.isRunning else { throw KeyToolFailure(description: "\(path) exited") }
                return try bus.hasOwner(name)
            }
        } catch {
            stopper.stop()
            throw error
        }
        return stopper
    }
}

/// A desktop tool or daemon that failed.
struct KeyToolFailure: Error, CustomStringConvertible {
    var description: String
}

/// Stops a started daemon (SIGTERM, then waits).
struct SpawnedProcessStopper {
    let process: SpawnedProcess
    init(_ process: SpawnedProcess) { self.process = process }
    func stop() {
        guard process.isRunning else { return }
        process.send(SIGTERM)
        if process.wait(seconds: 10) == nil {
            process.send(SIGKILL)
            _ = process.wait(seconds: 10)
        }
    }
}

extension ProcessResult {
    /// Expects status 0 and nothing on stderr.
    func expectSuccess(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == 0, "stderr: \(err)", sourceLocation: sourceLocation)
        #expect(err == "", sourceLocation: sourceLocation)
    }
}
