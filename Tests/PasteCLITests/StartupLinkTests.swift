import Foundation
import TestSupport
import Testing

/// What every run of paste loads before its first line of code: the shared libraries its binary
/// names (`readelf -d`, NEEDED). Those used by few runs are opened with dlopen when needed:
/// libqrencode for `--qr`. libwayland-client (and with it libffi), once linked and then opened
/// at the first connection, is not used at all: paste speaks the Wayland wire protocol itself
/// (loading them cost 0.5 ms of every hotkey press, docs/performance.md).
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

    @Test("paste's binary names neither libwayland-client, libffi nor libqrencode")
    func noWaylandAtStart() throws {
        let needed = try neededLibraries()
        #expect(!needed.isEmpty, "readelf listed no NEEDED entry")
        for library in needed {
            #expect(
                !library.hasPrefix("libwayland") && !library.hasPrefix("libffi") && !library.hasPrefix("libqrencode"),
                "paste links \(library) (all: \(needed))")
        }
    }

    @Test("nor is libwayland-client opened later: the binary does not name its file")
    func noWaylandLibraryOpened() throws {
        let binary = try Data(contentsOf: URL(fileURLWithPath: BuiltProducts.path(of: "paste")))
        #expect(binary.range(of: Data("libwayland-client.so".utf8)) == nil)
    }

    // MARK: - The glibc floor

    /// The newest glibc a binary may ask for: 2.34, RHEL 9's (Ubuntu 22.04 has 2.35, Debian 12
    /// 2.36). A symbol at a newer version keeps the binary from loading there at all.
    static let glibcFloor = [2, 34]

    /// The glibc symbol versions a binary's dynamic symbols name (`readelf --dyn-syms`): for
    /// each, the symbol and its version (`arc4random_buf`, `2.36`).
    func glibcVersions(of binary: String) throws -> [(symbol: String, version: String)] {
        let result = try runProcess("/usr/bin/readelf", ["--dyn-syms", "-W", binary], timeout: 30)
        #expect(result.status == 0, "readelf failed: \(String(decoding: result.stderr, as: UTF8.self))")
        return String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
            // `12: 0000000000000000 0 FUNC GLOBAL DEFAULT UND arc4random_buf@GLIBC_2.36 (12)`
            guard let name = line.split(separator: " ").first(where: { $0.contains("@GLIBC_") }),
                let at = name.firstRange(of: "@GLIBC_")
            else { return nil }
            let symbol = name[..<at.lowerBound]
            return (String(symbol), String(name[at.upperBound...]))
        }
    }

    @Test(
        "the binaries name no glibc symbol version above 2.34, so they load on RHEL 9 and Ubuntu 22.04",
        arguments: ["paste", "paste-mock"])
    func glibcFloor(product: String) throws {
        let versions = try glibcVersions(of: BuiltProducts.path(of: product))
        #expect(versions.count > 10, "readelf listed no GLIBC_ version in \(product)")
        let tooNew = versions.filter { entry in
            let parts = entry.version.split(separator: ".").compactMap { Int($0) }
            return parts.lexicographicallyPrecedes(Self.glibcFloor) == false && parts != Self.glibcFloor
        }
        let named = tooNew.map { "\($0.symbol)@GLIBC_\($0.version)" }.joined(separator: ", ")
        #expect(
            tooNew.isEmpty,
            "\(product) needs a glibc newer than 2.34 for \(named): give it an older route (Sources/CGlibcFloor)")
    }
}
