import Foundation
import Testing
import TestSupport

/// The systemd user units scripts/install puts in place (issue 25, item 3): `systemd-analyze
/// verify` accepts both, with ExecStart pointing at a real paste binary as the install writes it.
@Suite("systemd user units: paste-retry.service and paste-retry.timer")
struct SystemdUnitTests {
    /// `systemd-analyze verify --user` on `paths`, in a runtime folder of its own.
    static func verify(_ paths: [String]) throws -> ProcessResult {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("systemd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: runtime) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        return try runProcess(
            "/usr/bin/env", ["systemd-analyze", "verify", "--user"] + paths, environment: environment, timeout: 60)
    }

    @Test("systemd-analyze verify accepts the service and the timer, ExecStart made absolute as install does")
    func unitsVerify() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for name in ["paste-retry.service", "paste-retry.timer"] {
            let text = try SourceTree.text("share/systemd/\(name)")
                .replacingOccurrences(of: "ExecStart=paste ", with: "ExecStart=\(BuiltProducts.path(of: "paste")) ")
            let path = folder.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let service = try SourceTree.text("share/systemd/paste-retry.service")
        #expect(service.contains("\nExecStart=paste --retry --quiet\n"))
        #expect(service.contains("\nSuccessExitStatus=75\n"))
        let result = try Self.verify(paths)
        #expect(result.status == 0, "systemd-analyze verify: \(result.err)")
        #expect(result.err == "")
    }

    /// `systemd_unit EXECUTABLE NAME` of scripts/install.d/entries.sh (what scripts/install
    /// writes) over the unit file `name` of share/systemd.
    static func installed(_ name: String, executable: String) throws -> String {
        let result = try runProcess(
            "/bin/bash",
            [
                "-c", "source \"$1\" && systemd_unit \"$2\" paste < \"$3\"", "bash",
                SourceTree.path("scripts/install.d/entries.sh"), executable, SourceTree.path("share/systemd/\(name)"),
            ],
            timeout: 30)
        #expect(result.status == 0 && result.err == "", "systemd_unit: \(result.err)")
        return result.out
    }

    @Test(
        "a prefix with %, $ or a blank: ExecStart still names the binary (issue 45, item 12)",
        arguments: ["pre%hfix", "a%%b$HOME", "with blank %n"])
    func prefixWithSpecifiers(prefix: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("units-\(UUID().uuidString)")
        let bin = folder.appendingPathComponent(prefix).appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = bin.appendingPathComponent("paste").path
        try FileManager.default.copyItem(atPath: BuiltProducts.path(of: "paste"), toPath: executable)
        var paths: [String] = []
        for name in ["paste-retry.service", "paste-retry.timer"] {
            let path = folder.appendingPathComponent(name).path
            try Self.installed(name, executable: executable).write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        // systemd reads the path back as it was: a specifier or a variable expanded would name a
        // binary that is not there, and verify says so.
        let result = try Self.verify(paths)
        #expect(result.status == 0, "systemd-analyze verify: \(result.err)")
        #expect(result.err == "")
        let service = try String(contentsOfFile: paths[0], encoding: .utf8)
        #expect(service.contains("\nExecStart="))
        #expect(!service.contains("ExecStart=\(executable) "), "\(service)")
    }
}
