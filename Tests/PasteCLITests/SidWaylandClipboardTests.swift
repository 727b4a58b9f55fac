import Foundation
import Testing
import TestSupport

/// wl-clipboard as the last resort, both versions, against sid's sway 1.12: 2.3 (sid's) marks a
/// key-bearing URL with `--sensitive`, 2.1 (Debian 12's, this system's) cannot and `-v` says so.
///
/// paste takes wl-clipboard only where the compositor offers no data-control (or none is
/// reachable): here its `WAYLAND_DISPLAY` names a socket that is not there, and the `wl-copy`
/// and `wl-paste` on its `PATH` are one-line stand-ins that run the real tools (the root's, or
/// this system's) against the real compositor. What the clipboard then holds is read by sid's
/// wl-paste, independently.
@Suite(
    "wl-clipboard 2.3 and 2.1 as the last resort, on sway 1.12", .tags(.desktopsSid), .needsSidRoot, .temporaryHome,
    .mock, .serialized)
struct SidWaylandClipboardTests: SidSuite {
    /// The wl-clipboard a test runs: the root's (2.3) or this system's (2.1).
    enum Version: String, CaseIterable, CustomTestStringConvertible {
        case sid = "2.3"
        case bookworm = "2.1"
        var testDescription: String { "wl-clipboard \(rawValue)" }
    }

    /// paste's environment: a `WAYLAND_DISPLAY` with no socket, no `DISPLAY`, and a `PATH` of
    /// the stand-ins for `version`, which reach `desktop`'s socket.
    func lastResortEnvironment(_ desktop: Desktop, _ version: Version) throws -> [String: String] {
        let bin = home.root.appendingPathComponent("wl-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for tool in ["wl-copy", "wl-paste"] {
            let line = RootFileSystem.shellLine(["/usr/bin/" + tool], in: version == .sid ? desktop.root : nil)
            try home.write(
                "#!/bin/sh\nWAYLAND_DISPLAY='\(desktop.waylandDisplay)' exec \(line) \"$@\"\n", to: "wl-bin/\(tool)",
                mode: 0o755)
        }
        var environment = environment(desktop, withX: false, path: bin.path + ":/usr/bin:/bin")
        environment["WAYLAND_DISPLAY"] = "wayland-absent"
        return environment
    }

    func paste(_ environment: [String: String], _ arguments: [String]) throws -> ProcessResult {
        try runProcess(BuiltProducts.path(of: "paste"), arguments, input: .null, environment: environment, timeout: 60)
    }

    @Test("-v names wl-clipboard; the clipboard is read and the URL copied through it", arguments: Version.allCases)
    func readAndWrite(_ version: Version) throws {
        try withDesktop(.sway) { desktop in
            try desktop.waylandCopy(Data("copied for wl-clipboard \(version.rawValue)".utf8))
            let environment = try lastResortEnvironment(desktop, version)
            let result = try paste(environment, ["-v", "-c", "--no-notify", "--url", mock.url("/pastes/create")])
            #expect(result.status == 0, "stderr: \(result.err)")
            #expect(
                result.err.hasPrefix(
                    "paste: clipboard: wl-clipboard (the compositor offers no data-control; wl-clipboard is installed)\n"
                ),
                "\(result.err)")
            let url = result.out.trimmingCharacters(in: .newlines)
            #expect(
                try mock.rawPaste(id: try #require(pasteID(url)))
                    == Data("copied for wl-clipboard \(version.rawValue)".utf8))
            #expect(try desktop.waylandClipboard().out == url)
        }
    }

    @Test(
        "a key-bearing URL: marked by wl-copy 2.3 (--sensitive); unmarked by 2.1, and -v says so",
        arguments: Version.allCases)
    func keyBearing(_ version: Version) throws {
        try withDesktop(.sway) { desktop in
            try home.write(
                "[service \"privatebin\"]\n    url = \(mock.url("/privatebin/"))\n", to: "config/paste/config")
            try desktop.waylandCopy(Data("a note for PrivateBin".utf8))
            let environment = try lastResortEnvironment(desktop, version)
            let result = try paste(environment, ["-v", "-c", "--no-notify", "-S", "privatebin"])
            #expect(result.status == 0, "stderr: \(result.err)")
            let url = result.out.trimmingCharacters(in: .newlines)
            #expect(url.contains("#"))
            #expect(try desktop.waylandClipboard().out == url)
            let unmarked =
                "paste: clipboard: the URL carries its key, but wl-copy cannot offer x-kde-passwordManagerHint: "
                + "it went unmarked, and a clipboard manager may keep it\n"
            switch version {
            case .sid:
                #expect(try offeredTypes(desktop).contains("x-kde-passwordManagerHint"))
                #expect(try desktop.waylandClipboard(type: "x-kde-passwordManagerHint").out == "secret")
                #expect(!result.err.contains(unmarked), "\(result.err)")
            case .bookworm:
                #expect(try !offeredTypes(desktop).contains("x-kde-passwordManagerHint"))
                #expect(result.err.contains(unmarked), "\(result.err)")
            }
        }
    }

    @Test("an ordinary URL through wl-copy 2.3: no mark, nothing said about one")
    func ordinary() throws {
        try withDesktop(.sway) { desktop in
            try desktop.waylandCopy(Data("an ordinary note".utf8))
            let environment = try lastResortEnvironment(desktop, .sid)
            let result = try paste(environment, ["-c", "--no-notify", "--url", mock.url("/pastes/create")])
            #expect(result.status == 0, "stderr: \(result.err)")
            #expect(result.err == "")
            #expect(try desktop.waylandClipboard().out == result.out.trimmingCharacters(in: .newlines))
            #expect(try !offeredTypes(desktop).contains("x-kde-passwordManagerHint"))
        }
    }
}
