import Foundation
import Glibc
import Testing
import TestSupport

/// `paste --bind-key` on a real sway (headless, as `nobody` under root): the include file and
/// the `include` line written, `swaymsg reload` run, and the binding live: a key press through
/// a virtual keyboard (wtype) makes sway report the binding with paste's command on its IPC
/// (`swaymsg -t subscribe '["binding"]'`). A key the config holds is refused, and
/// `--unbind-key` leaves the config byte for byte as it was.
@Suite("paste --bind-key on sway", .tags(.wayland), .needsCompositor)
struct BindKeySwayTests {
    @Test("bound, reloaded and pressed; a taken key refused; the config restored byte for byte")
    func sway() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bind-sway-\(UUID().uuidString)")
        let configHome = folder.appendingPathComponent("config").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sway = try Sway(configHome: configHome)
        defer { sway.stop() }
        let socket = try #require(sway.ipcSocketPath)
        // The person's own lines, after those of the test's sway.
        let config = configHome + "/sway/config"
        let handle = try #require(FileHandle(forWritingAtPath: config))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("set $mod Mod4\nbindsym $mod+v splitv\nbindsym $mod+F12 nop\n".utf8))
        try handle.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: config))

        let home = try KeyHome(desktop: ["SWAYSOCK": socket])
        var environment = home.environment
        environment["XDG_CONFIG_HOME"] = configHome
        func paste(_ arguments: [String]) throws -> ProcessResult {
            try runProcess(BuiltProducts.path(of: "paste"), arguments, environment: environment, timeout: 120)
        }
        let message = sway.environment(["PATH": "/usr/bin:/bin", "SWAYSOCK": socket], withX: false)

        let taken = try paste(["--bind-key", "Super+V"])
        #expect(taken.status == 69)
        #expect(
            taken.err
                == "paste: Super+V is taken on sway by \(config): bindsym $mod+v splitv; nothing was written\n"
                + "paste: choose another key: paste --bind-key KEY\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: config)) == before)

        let bound = try paste(["--bind-key"])
        #expect(bound.status == 0, "stderr: \(bound.err)")
        let include = configHome + "/sway/paste-bind-key.conf"
        let line = "bindsym Mod4+Shift+v exec \(home.executable)"
        #expect(
            bound.out
                == "bound Super+Shift+V to \(home.executable) on sway (the default key; another: paste --bind-key KEY)\n"
                + "  wrote \(include): \(line)\n"
                + "  wrote \(config): include \(include)\n"
                + "  ran swaymsg reload\n"
                + "  note: \(home.executable) is a build folder's; bind again after installing paste\n"
                + "undo: paste --unbind-key\n")
        #expect(try String(contentsOfFile: include, encoding: .utf8).hasSuffix(line + "\n"))
        // What sway loaded: its config with the include line...
        #expect(try loadedConfig(message).contains("\ninclude \(include)\n"))
        // ...and the binding live: a press of the key runs it.
        let events = folder.appendingPathComponent("events").path
        _ = FileManager.default.createFile(atPath: events, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: events))
        let subscriber = try SpawnedProcess(
            "/usr/bin/swaymsg", ["-t", "subscribe", "-m", "[\"binding\"]"], environment: message,
            standardOutput: .handle(output))
        try? output.close()
        defer {
            subscriber.send(SIGKILL)
            _ = subscriber.wait(seconds: 10)
        }
        func recorded() -> String { (try? String(contentsOfFile: events, encoding: .utf8)) ?? "" }
        func press(_ keys: [String]) throws {
            let result = try runProcess("/usr/bin/wtype", keys, environment: message, timeout: 20)
            #expect(result.status == 0, "wtype: \(result.err)")
        }
        // sway 1.7 does not say when a monitor's subscription holds: a key bound to nothing is
        // pressed until its event arrives, then ours once.
        try waitUntil("sway to report a press of the key bound to nop", timeout: 20) {
            try press(["-M", "logo", "-k", "F12", "-m", "logo"])
            return recorded().contains("\"command\": \"nop\"")
        }
        try press(["-M", "logo", "-M", "shift", "v", "-m", "shift", "-m", "logo"])
        let command = "exec \(home.executable)".replacingOccurrences(of: "/", with: "\\/")
        try waitUntil("sway to report the binding", timeout: 20) { recorded().contains("\"command\": \"\(command)\"") }

        let unbound = try paste(["--unbind-key"])
        #expect(unbound.status == 0, "stderr: \(unbound.err)")
        #expect(
            unbound.out
                == "unbound Super+Shift+V on sway\n  \(config): restored as it was\n  \(include): removed (paste made it)\n  ran swaymsg reload\n"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: config)) == before)
        #expect(!FileManager.default.fileExists(atPath: include))
        #expect(try loadedConfig(message) == String(decoding: before, as: UTF8.self))
    }

    /// The config sway loaded last, as `swaymsg -t get_config` gives it.
    func loadedConfig(_ environment: [String: String]) throws -> String {
        let result = try runProcess(
            "/usr/bin/swaymsg", ["-t", "get_config", "--raw"], environment: environment, timeout: 20)
        let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        return try #require(object?["config"] as? String)
    }
}
