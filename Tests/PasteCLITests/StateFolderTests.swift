import Foundation
import Testing
import TestSupport

/// When the outbox cannot be written, paste says so: the upload's failure, then "the text could
/// not be saved: REASON", status 74, and never that the text waits. An upload that works needs
/// no outbox to be made. Faked as root: a regular file where the folder should be, and, in a
/// private mount namespace (`PrivateMount`: where none can be had, those tests fail, never
/// skip), a read-only bind mount and a full 64 KiB tmpfs.
@Suite("A state folder that cannot be written", .temporaryHome, .mock)
struct StateFolderTests: ScopedSuite {
    /// `paste --url URL` with `text` on stdin, run by `sh -c script` inside a private mount
    /// namespace (`$0` is paste, `$1` the state folder, `$2` the URL, `$3` the stdin file).
    func runInNamespace(_ script: String, url: String, stdin text: String) throws -> ProcessResult {
        let input = try paste.home.write(text, to: "stdin.txt")
        return try runProcess(
            "/usr/bin/unshare",
            try PrivateMount.arguments(
                ["sh", "-c", script, BuiltProducts.path(of: "paste"), paste.home.stateHome.path, url, input]),
            environment: paste.environment, timeout: 60)
    }

    var deadURL: String { get throws { "http://127.0.0.1:\(try FaultRetryTests.freePort())/pastes/create" } }

    @Test("a regular file where the outbox should be: the failure, then 74 'could not be saved', no 'waits'")
    func fileInPlaceOfOutbox() throws {
        try paste.writeConfig("[paste]\nretries = 0\n")
        let outbox = try paste.home.write("not a folder", to: "state/paste/outbox")
        let url = try deadURL
        let result = try paste.run(["--url", url], stdin: "nowhere to keep it\n")
        #expect(result.status == 74)
        #expect(
            result.err == "paste: cannot connect to \(url.dropFirst(7).prefix { $0 != "/" }): connection refused\n"
                + "paste: the text could not be saved: '\(outbox)' is a regular file, not a folder\n"
                + "paste: move it away; paste makes its own files there\n")
        #expect(!result.err.contains("waits"))
        // --json hides hints, never these two lines.
        let json = try paste.run(["--url", url, "--json"], stdin: "nowhere to keep it\n")
        #expect(json.status == 74)
        #expect(json.err.contains("paste: the text could not be saved: '\(outbox)' is a regular file, not a folder\n"))
    }

    @Test("an upload that works needs no outbox: the URL, status 0, though the outbox cannot be written")
    func uploadWorksWithoutOutbox() throws {
        try paste.home.write("not a folder", to: "state/paste/outbox")
        let result = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy"], stdin: "sent anyway\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.rawPaste(id: try #require(pasteID(result.out))) == Data("sent anyway\n".utf8))
    }

    @Test(
        "a read-only state folder: 74, the text could not be saved: read-only file system")
    func readOnly() throws {
        try paste.writeConfig("[paste]\nretries = 0\n")
        try FileManager.default.createDirectory(
            at: paste.outboxFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let script =
            "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" && exec \"$0\" --url \"$2\" < \"$3\""
        let result = try runInNamespace(script, url: try deadURL, stdin: "read-only\n")
        #expect(result.status == 74, "\(result.err)")
        let lines = result.err.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.err)")
        #expect(lines.first?.hasSuffix("connection refused") == true)
        #expect(
            lines.last?.hasPrefix("paste: the text could not be saved: cannot open '\(paste.outboxFolder.path)/")
                == true)
        #expect(lines.last?.hasSuffix(".content': read-only file system") == true)
        #expect(!result.err.contains("waits"))
    }

    @Test(
        "a full state folder (a 64 KiB tmpfs): 74, no space left on device, nothing left behind")
    func full() throws {
        try paste.writeConfig("[paste]\nretries = 0\n")
        try FileManager.default.createDirectory(at: paste.home.stateHome, withIntermediateDirectories: true)
        let script =
            "mount -t tmpfs -o size=64k,mode=0700 tmpfs \"$1\" && { \"$0\" --url \"$2\" < \"$3\"; status=$?; "
            + "ls -A \"$1/paste/outbox\"; exit $status; }"
        let text = String(repeating: "a line of text that fills the small disk\n", count: 5000)
        let result = try runInNamespace(script, url: try deadURL, stdin: text)
        #expect(result.status == 74, "\(result.err)")
        #expect(result.err.contains("paste: the text could not be saved: cannot write '"), "\(result.err)")
        #expect(result.err.contains(".content': no space left on device\n"), "\(result.err)")
        #expect(!result.err.contains("waits"))
        #expect(result.out.isEmpty, "left in the outbox: \(result.out)")
    }
}
