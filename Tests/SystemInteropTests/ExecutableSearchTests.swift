import Foundation
import SystemInterop
import Testing

@Suite("The one search of PATH")
struct ExecutableSearchTests {
    @Test("the first executable regular file, empty entries skipped (never the current folder), a filter honoured")
    func search() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("path-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in ["a", "b", "c", "c/tool"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        // a/tool is not executable; b/tool is; c/tool is a folder.
        #expect(FileManager.default.createFile(atPath: root + "/a/tool", contents: Data("#!/bin/sh\n".utf8)))
        #expect(
            FileManager.default.createFile(
                atPath: root + "/b/tool", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755]))
        #expect(FileSystem.firstExecutable(named: "tool", inPath: "\(root)/c:\(root)/a::\(root)/b") == "\(root)/b/tool")
        #expect(
            FileSystem.firstExecutable(
                named: "tool", inPath: "\(root)/b", where: { path, _ in path != "\(root)/b/tool" }) == nil)
        // Empty entries name no folder (not the current one, as execvp would read them).
        #expect(FileSystem.firstExecutable(named: "tool", inPath: "::") == nil)
        #expect(FileSystem.firstExecutable(named: "tool", inPath: ":\(root)/a:") == nil)
        #expect(FileSystem.firstExecutable(named: "tool", inPath: "") == nil)
    }
}
