import Foundation
import Glibc
import Testing
import TestSupport

/// `paste --bind-key` on a real i3 (on a private Xvfb): the include file and the `include`
/// line written, `i3-msg reload` run, i3's loaded config holding the include line, and the
/// binding live: xdotool presses the key and i3 reports the binding with paste's command on
/// its IPC. A key the config holds is refused; `--unbind-key` restores the config byte for byte.
@Suite("paste --bind-key on i3", .tags(.x11), .needsXServer)
struct BindKeyI3Tests {
    @Test("bound, reloaded and pressed; a taken key refused; the config restored byte for byte")
    func i3() throws {
        let xvfb = try Xvfb()
        defer { xvfb.stop() }
        let home = try KeyHome(desktop: [:])
        let root = home.home.root.path
        let socket = root + "/i3.sock"
        let config = try home.home.write(
            "ipc-socket \(socket)\nset $mod Mod4\nbindsym $mod+v split v\nbindsym $mod+F12 nop\n",
            to: "config/i3/config",
            mode: 0o644)
        let before = try Data(contentsOf: URL(fileURLWithPath: config))
        var environment = home.environment
        environment["DISPLAY"] = xvfb.display
        let i3 = try SpawnedProcess("/usr/bin/i3", [], environment: environment)
        let stopper = SpawnedProcessStopper(i3)
        defer { stopper.stop() }
        try waitUntil("i3's IPC socket", timeout: 30) {
            guard i3.isRunning else { throw KeyToolFailure(description: "i3 exited") }
            return FileManager.default.fileExists(atPath: socket)
        }
        environment["I3SOCK"] = socket
        func paste(_ arguments: [String]) throws -> ProcessResult {
            try runProcess(BuiltProducts.path(of: "paste"), arguments, environment: environment, timeout: 120)
        }

        let taken = try paste(["--bind-key", "Super+V"])
        #expect(taken.status == 69)
        #expect(
            taken.err
                == "paste: Super+V is taken on i3 by \(config): bindsym $mod+v split v; nothing was written\n"
                + "paste: choose another key: paste --bind-key KEY\n")

        let bound = try paste(["--bind-key"])
        #expect(bound.status == 0, "stderr: \(bound.err)")
        let include = root + "/config/i3/paste-bind-key.conf"
        let line = "bindsym Mod4+Shift+v exec \(home.executable)"
        #expect(
            bound.out.hasPrefix(
                "bound Super+Shift+V to \(home.executable) on i3 (the default key; another: paste --bind-key KEY)\n"
                    + "  wrote \(include): \(line)\n" + "  wrote \(config): include \(include)\n"
                    + "  ran i3-msg reload\n"))
        // What i3 loaded (i3-msg prints its main config): the include line.
        let loaded = try runProcess("/usr/bin/i3-msg", ["-t", "get_config"], environment: environment, timeout: 20)
        #expect(loaded.out.contains("\ninclude \(include)\n"))

        // The binding live: a key bound to nothing first proves the subscription holds.
        let events = root + "/events"
        _ = FileManager.default.createFile(atPath: events, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: events))
        let subscriber = try SpawnedProcess(
            "/usr/bin/i3-msg", ["-t", "subscribe", "-m", "[\"binding\"]"], environment: environment,
            standardOutput: .handle(output))
        try? output.close()
        defer { SpawnedProcessStopper(subscriber).stop() }
        func recorded() -> String { (try? String(contentsOfFile: events, encoding: .utf8)) ?? "" }
        func press(_ key: String) throws {
            let result = try runProcess("/usr/bin/xdotool", ["key", key], environment: environment, timeout: 20)
            #expect(result.status == 0, "xdotool: \(result.err)")
        }
        try waitUntil("i3 to report a press of the key bound to nop", timeout: 20) {
            try press("super+F12")
            return recorded().contains("\"command\":\"nop\"")
        }
        try press("super+shift+v")
        let command = "\"command\":\"exec \(home.executable.replacingOccurrences(of: "/", with: "\\/"))\""
        try waitUntil("i3 to report the binding", timeout: 20) {
            recorded().contains(command) || recorded().contains(command.replacingOccurrences(of: "\\/", with: "/"))
        }

        let unbound = try paste(["--unbind-key"])
        #expect(unbound.status == 0, "stderr: \(unbound.err)")
        #expect(
            unbound.out
                == "unbound Super+Shift+V on i3\n  \(config): restored as it was\n  \(include): removed (paste made it)\n  ran i3-msg reload\n"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: config)) == before)
        #expect(!FileManager.default.fileExists(atPath: include))
    }
}
