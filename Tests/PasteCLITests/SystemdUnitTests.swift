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
}
