import Foundation
import Testing
import TestSupport

@testable import PasteCLI

/// The last-resort Wayland backend, wl-copy, cannot mark a key-bearing URL (Debian 12's
/// wl-copy 2.1 offers one MIME type and has no `--sensitive`): the URL is copied whole and
/// unmarked, and `-v` says so (issue 26). The compositor is not needed to show it: wl-copy and
/// wl-paste are stand-ins with their command lines, keeping the clipboard in a file, and
/// `WAYLAND_DISPLAY` names a socket that is not there, so no data-control is found.
@Suite("Key-bearing URLs through wl-copy: copied unmarked, and -v says so", .temporaryHome, .mock, .serialized)
struct WaylandUnmarkedTests: ScopedSuite {
    /// A runner whose only clipboard is the stand-in wl-clipboard, and the file its wl-copy
    /// writes (its arguments on the first line, then what it read).
    func runner() throws -> (PasteRunner, URL) {
        var paste = PasteRunner(home: home)
        let bin = home.root.appendingPathComponent("wl-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let store = home.root.appendingPathComponent("wl-store")
        try home.write(
            "#!/bin/sh\n{ printf 'args:%s\\n' \"$*\"; cat; } > '\(store.path)'\n", to: "wl-bin/wl-copy", mode: 0o755)
        try home.write("#!/bin/sh\nexit 1\n", to: "wl-bin/wl-paste", mode: 0o755)
        paste.extraEnvironment["PATH"] = bin.path + ":/usr/bin:/bin"
        try paste.writeConfig(
            pastieConfig(mock, name: "keyed", extra: "key-bearing = yes\n")
                + pastieConfig(mock, name: "plain").replacing("[paste]\nretries = 0\n", with: ""))
        return (paste, store)
    }

    /// `paste arguments…` with `WAYLAND_DISPLAY` set (`PasteRunner` clears it).
    func run(_ paste: PasteRunner, _ arguments: [String], stdin text: String) throws -> ProcessResult {
        var environment = paste.environment
        environment["WAYLAND_DISPLAY"] = "wayland-absent"
        return try runProcess(
            BuiltProducts.path(of: "paste"), arguments, input: .bytes(Data(text.utf8)), environment: environment,
            timeout: 60)
    }

    @Test("a key-bearing URL: whole on stdout and in wl-copy, and -v says it went unmarked")
    func keyBearing() throws {
        let (paste, store) = try runner()
        let result = try run(paste, ["-S", "keyed", "-v"], stdin: "a capability link\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect((try? String(contentsOf: store, encoding: .utf8)) == "args:\n" + url, "\(result.err)")
        #expect(result.err.contains("paste: clipboard: wl-clipboard ("), "\(result.err)")
        #expect(result.err.contains("paste: " + DeliverStage.unmarkedLine + "\n"), "\(result.err)")
        let quiet = try run(paste, ["-S", "keyed", "--new"], stdin: "another link\n")
        #expect(quiet.status == 0)
        #expect(quiet.err == "")
    }

    @Test("an ordinary URL through wl-copy: nothing said about a mark")
    func ordinary() throws {
        let (paste, _) = try runner()
        let result = try run(paste, ["-S", "plain", "-v"], stdin: "an ordinary note\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(!result.err.contains(DeliverStage.unmarkedLine), "\(result.err)")
    }
}
