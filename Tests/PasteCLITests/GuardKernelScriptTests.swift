import Foundation
import Testing
import TestSupport

/// scripts/guard-kernel, the measuring tool for the secret guard's candidate search: it builds
/// the search's own source twice (timed, and with the stages' counters) and reports what each
/// stage let through. Held here so that it keeps building and keeps counting what the search
/// does, since nothing else runs it.
@Suite("scripts/guard-kernel: the candidate search alone, with its stages counted")
struct GuardKernelScriptTests {
    @Test("over log lines with a token and a password in them, the stages narrow down to the candidates")
    func stagesNarrowDown() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("guard-kernel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 400 lines: timestamps and host:port pairs (which wake the .pgpass triggers), a token
        // and a password assignment every 40 lines (the script runs the kernel it is asked for,
        // the fastest here, on a text of any size).
        var text = ""
        for line in 0..<400 {
            text += "2026-12-07T04:\(10 + line % 50):33.120Z INFO [api] request finished"
            text += " host=10.1.2.\(line % 250):5432\n"
            if line % 40 == 0 {
                text += "export GITHUB_TOKEN=ghp_R8m2Qx7Lk4Tz9Wc1Vb6Np3Hd5Fs0Jy2Ag8Ek\n"
                text += "db_password = \"Zq8kLm2pQrTw\"\n"
            }
        }
        let path = folder.appendingPathComponent("lines.txt").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let result = try runProcess(
            "/bin/bash", ["scripts/guard-kernel", "--rounds", "1", "--top", "3", path],
            currentDirectory: SourceTree.root.path, timeout: 300)
        let output = String(decoding: result.stdout, as: UTF8.self)
        let errors = String(decoding: result.stderr, as: UTF8.self)
        #expect(result.status == 0, "\(errors)")
        let lines = output.split(separator: "\n").map(String.init)
        // The timed build's line, then the counted build's figures (the script itself fails when
        // the two builds found different candidates).
        let timed = try #require(lines.first)
        #expect(timed.hasPrefix(path) && timed.contains("best of 1"), "\(output)")
        let found = try #require(Int(timed.split(separator: " ").dropLast().last ?? ""), "\(timed)")
        // Two tokens a block, ten blocks: each a candidate of its trigger (and more of the rows').
        #expect(found >= 20, "\(output)")
        guard !timed.contains("(portable kernel)") else { return }
        // A vector kernel: its stages, each at most what the one before let through, none empty.
        let stages = try #require(lines.first { $0.contains("filter passed") }, "\(output)")
        let numbers = stages.split(separator: " ").compactMap { Int($0) }
        try #require(numbers.count == 4, "\(stages)")
        #expect(numbers[0] >= numbers[1] && numbers[1] >= numbers[2] && numbers[2] >= numbers[3], "\(stages)")
        #expect(numbers[3] > 0 && numbers[3] <= found, "\(stages)")
        // The groups most positions reached: the host:port and timestamp colons of every line.
        let groups = lines.filter { $0.hasPrefix("  group ") }
        #expect(groups.count == 3, "\(output)")
        #expect(groups.contains { $0.contains("\"«:") }, "\(output)")
    }
}
