import Foundation
import Glibc
import Testing
import TestSupport

/// `paste --bind-key` on KDE Plasma 5 with a running kglobalaccel5 (on a private Xvfb and a
/// private bus that activates it, as a Plasma session's does): paste has it read
/// kglobalshortcutsrc again over D-Bus, and kglobalaccel5 then lists paste's launcher as a
/// component with its `_launch` shortcut; `--unbind-key` takes it away again.
@Suite("paste --bind-key with a running kglobalaccel5", .tags(.x11), .needsXServer)
struct BindKeyKGlobalAccelTests {
    @Test("kglobalaccel5 restarted over D-Bus holds the launcher's shortcut, and loses it on --unbind-key")
    func kglobalaccel() throws {
        let xvfb = try Xvfb()
        defer { xvfb.stop() }
        let home = try KeyHome(desktop: ["XDG_CURRENT_DESKTOP": "KDE", "KDE_SESSION_VERSION": "5"])
        let root = home.home.root.path
        // A session bus that activates kglobalaccel5 with the session's variables.
        let services = root + "/services"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        try Data("[D-BUS Service]\nName=org.kde.kglobalaccel\nExec=/usr/bin/kglobalaccel5\n".utf8)
            .write(to: URL(fileURLWithPath: services + "/org.kde.kglobalaccel.service"))
        let busConfig = root + "/bus.conf"
        try Data(
            """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(root)</listen>
              <servicedir>\(services)</servicedir>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.utf8
        ).write(to: URL(fileURLWithPath: busConfig))
        var environment = home.environment
        environment["DISPLAY"] = xvfb.display
        environment["QT_QPA_PLATFORM"] = "xcb"
        let addressFile = root + "/bus-address"
        _ = FileManager.default.createFile(atPath: addressFile, contents: nil)
        let addressHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: addressFile))
        let bus = try SpawnedProcess(
            "/usr/bin/dbus-daemon", ["--config-file=\(busConfig)", "--nofork", "--print-address=1"],
            environment: environment, standardOutput: .handle(addressHandle))
        try? addressHandle.close()
        defer { SpawnedProcessStopper(bus).stop() }
        var address = ""
        try waitUntil("dbus-daemon to listen", timeout: 20) {
            let text = (try? String(contentsOfFile: addressFile, encoding: .utf8)) ?? ""
            address = text.split(separator: "\n").first.map(String.init) ?? ""
            return text.hasSuffix("\n")
        }
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        func call(_ path: String, _ method: String) throws -> String {
            let result = try runProcess(
                "/usr/bin/dbus-send",
                ["--session", "--print-reply", "--dest=org.kde.kglobalaccel", path, method], environment: environment,
                timeout: 30)
            guard result.status == 0 else { throw KeyToolFailure(description: "\(method): \(result.err)") }
            return result.out
        }
        // The session's kglobalaccel5, started as a Plasma session starts it: by activation.
        #expect(!(try call("/kglobalaccel", "org.kde.KGlobalAccel.allComponents")).contains("paste_bind_key"))
        defer {
            // The last one activated goes with the bus's end; asked to quit first all the same.
            _ = try? call("/MainApplication", "org.qtproject.Qt.QCoreApplication.quit")
        }

        let bound = try runProcess(
            BuiltProducts.path(of: "paste"), ["--bind-key"], environment: environment, timeout: 120)
        #expect(bound.status == 0, "stderr: \(bound.err)")
        #expect(bound.out.contains("\n  ran kglobalaccel5 again over D-Bus (quit, then started by activation)\n"))
        #expect(
            try call("/kglobalaccel", "org.kde.KGlobalAccel.allComponents").contains(
                "/component/paste_bind_key_desktop"))
        #expect(
            try call("/component/paste_bind_key_desktop", "org.kde.kglobalaccel.Component.shortcutNames")
                .contains("string \"_launch\""))

        let unbound = try runProcess(
            BuiltProducts.path(of: "paste"), ["--unbind-key"], environment: environment, timeout: 120)
        #expect(unbound.status == 0, "stderr: \(unbound.err)")
        #expect(unbound.out.hasSuffix("  ran kglobalaccel5 again over D-Bus\n"))
        #expect(!FileManager.default.fileExists(atPath: root + "/config/kglobalshortcutsrc"))
        #expect(!(try call("/kglobalaccel", "org.kde.KGlobalAccel.allComponents")).contains("paste_bind_key"))
    }
}
