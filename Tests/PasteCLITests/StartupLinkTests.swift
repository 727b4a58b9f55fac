import Foundation
import TestSupport
import Testing

/// What every run of paste loads before its first line of code: the shared libraries its binary
/// names (`readelf -d`, NEEDED). Those used by few runs are opened with dlopen when needed:
/// libwayland-client (and with it libffi) when a Wayland display is connected, libqrencode for
/// `--qr`; loading them at every start cost 0.5 ms of every hotkey press (docs/performance.md).
@Suite("Start-up: the libraries every run loads")
struct StartupLinkTests {
    /// The NEEDED entries of the built paste binary.
    func neededLibraries() throws -> [String] {
        let result = try runProcess("/usr/bin/readelf", ["-d", "-W", BuiltProducts.path(of: "paste")], timeout: 30)
        #expect(result.status == 0, "readelf failed: \(String(decoding: result.stderr, as: UTF8.self))")
        return String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]")
            else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    @Test("paste's binary names neither libwayland-client, libffi nor libqrencode: they are opened with dlopen")
    func noWaylandAtStart() throws {
        let needed = try neededLibraries()
        #expect(!needed.isEmpty, "readelf listed no NEEDED entry")
        for library in needed {
            #expect(
                !library.hasPrefix("libwayland") && !library.hasPrefix("libffi") && !library.hasPrefix("libqrencode"),
                "paste links \(library) (all: \(needed))")
        }
    }
}
