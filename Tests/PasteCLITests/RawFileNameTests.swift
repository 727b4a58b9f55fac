import Foundation
import Testing
import TestSupport

/// A file name that is not UTF-8 (issue 45, item 10): Linux names are bytes, and `-f` opens the
/// name it was given, byte for byte, from argv (or `-f -`'s list) to `open(2)`; messages show
/// each byte that is not UTF-8 as `\xNN`. argv cannot carry such a byte from a Swift `String`,
/// so each run goes through `/bin/sh`, whose `printf '\247'` makes the byte 0xA7.
@Suite("File names that are not UTF-8", .temporaryHome, .mock)
struct RawFileNameTests: ScopedSuite {
    /// Runs `script` in `sh` in the home's `files` folder, with `$0` the built paste.
    func shell(_ script: String, stdin: Data = Data()) throws -> ProcessResult {
        let folder = paste.home.root.appendingPathComponent("files").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try runProcess(
            "/bin/sh", ["-c", "cd '\(folder)' && " + script, BuiltProducts.path(of: "paste")],
            input: .bytes(stdin), environment: paste.environment, timeout: 60)
    }

    /// `printf`'s word for the name `caf<0xA7>.txt`.
    static let name = #""$(printf 'caf\247.txt')""#

    @Test("-f opens a name holding byte 0xA7, and the service gets its text")
    func opensRawName() throws {
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        let result = try shell(
            "printf 'latin name\\n' > \(Self.name) && exec \"$0\" --no-copy -f \(Self.name)")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let id = try #require(pasteID(result.out))
        #expect(try mock.rawPaste(id: id) == Data("latin name\n".utf8))
    }

    @Test("a missing name that is not UTF-8 is shown with \\xa7, exit 66, nothing sent")
    func missingShownEscaped() throws {
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        let result = try shell("exec \"$0\" --no-copy -f \(Self.name)")
        #expect(result.status == 66)
        #expect(result.out == "")
        #expect(result.err == "paste: cannot read 'caf\\xa7.txt': no such file or directory\n")
        #expect(try mock.requests().isEmpty)
    }

    @Test("-f - reads such a name from stdin as its bytes")
    func namesFromStandardInput() throws {
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        let result = try shell(
            "printf 'listed\\n' > \(Self.name) && exec \"$0\" --no-copy -f -",
            stdin: Data("caf".utf8) + Data([0xA7]) + Data(".txt\n".utf8))
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.rawPaste(id: try #require(pasteID(result.out))) == Data("listed\n".utf8))
    }

    @Test("--file=NAME and -qfNAME keep the bytes too")
    func attachedForms() throws {
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        let long = try shell("printf 'long\\n' > \(Self.name) && exec \"$0\" --no-copy --file=\(Self.name)")
        #expect(long.status == 0, "stderr: \(long.err)")
        let short = try shell("printf 'short\\n' > \(Self.name) && exec \"$0\" --no-copy -qf\(Self.name)")
        #expect(short.status == 0, "stderr: \(short.err)")
        #expect(try mock.pastes().map(\.data) == [Data("long\n".utf8), Data("short\n".utf8)])
    }
}
