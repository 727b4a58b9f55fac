import Foundation
import QRInterop
import Testing
import TestSupport

@testable import PasteCLI

/// A run that copies its URL through a forked owner ends at the fork (`Seams.leave`): its
/// status, its stdout and stderr, its history line and its look for a background flush are all
/// settled before the copy, so nothing of them may be lost by leaving there (docs/outbox.md,
/// "After the answer"; docs/performance.md, "The parent leaves at the fork").
@Suite(
    "A copying run leaves at its owner's fork with everything it decided", .tags(.x11), .needsXServer, .xvfb,
    .temporaryHome, .mock, .serialized)
struct LeaveAtForkTests: ScopedSuite {
    /// The `paste` processes serving this suite's display (after a run: its clipboard owner).
    func ownerIDs() -> [Int32] { xvfb.pasteProcesses() }

    @Test("--json at a hotkey: the object is whole on stdout, the status 0, the URL owned by the forked owner")
    func jsonWhole() throws {
        try xvfb.putOnClipboard("a text for a script\n")
        let result = try paste.run(["-c", "--json", "--url", mock.url("/pastes/create"), "--no-notify"])
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines.last == "", "stdout: \(result.out)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        let url = try #require(object["url"] as? String)
        #expect(url.hasPrefix(mock.baseURL + "/pastes/"))
        #expect(try xvfb.clipboardText() == url)
        #expect(ownerIDs().count == 1)
        #expect(try paste.historyLines().count == 1)
    }

    @Test("one paste of two refused: the run exits 69 with both outcomes said, and the URL it made is copied")
    func failureStatusCarried() throws {
        let first = try home.write("the first file\n", to: "first.txt")
        let second = try home.write("the second file\n", to: "second.txt")
        // Whichever of the two requests reaches the mock first is refused (they go together).
        try mock.addFault(.status(400, body: "refused once"), count: 1)
        let result = try paste.run(
            ["-f", first, "-f", second, "--url", mock.url("/pastes/create"), "--no-notify"])
        #expect(result.status == 69, "stderr: \(result.err)")
        let urls = result.out.split(separator: "\n").map(String.init)
        #expect(urls.count == 1, "stdout: \(result.out)")
        #expect(urls.first?.hasPrefix(mock.baseURL + "/pastes/") == true)
        let said = result.err.split(separator: "\n").map(String.init)
        #expect(said.count == 2, "stderr: \(result.err)")
        #expect(said.first == "paste: 127.0.0.1:\(mock.port) answered HTTP 400: refused once")
        #expect(said.last?.hasPrefix("paste: the text is held in the outbox (") == true)
        #expect(try xvfb.clipboardText() == urls.first)
        #expect(ownerIDs().count == 1)
        #expect(try paste.historyLines().count == 1)
        #expect(try paste.outboxContents().count == 1)
    }

    @Test("with a QR code to draw after the copy the run does not leave at the fork: the code follows the URL")
    func qrCodeStillDrawn() throws {
        try xvfb.putOnClipboard("a text whose link is drawn\n")
        // On a terminal (script(1)), where --qr draws the code on stderr once the URL is copied.
        let command =
            "'\(BuiltProducts.path(of: "paste"))' -c --qr --no-notify --url '\(mock.url("/pastes/create"))'"
        let result = try paste.runOnTerminal(command)
        #expect(result.status == 0, "\(result.out)")
        let url = try #require(result.out.split(separator: "\r\n").first.map(String.init))
        #expect(url.hasPrefix(mock.baseURL + "/pastes/"))
        let code = try QRCode.encode(url)
        #expect(
            result.out == url + "\r\n" + QRPicture.halfBlocks(code, inColour: false).replacing("\n", with: "\r\n"))
        #expect(try xvfb.clipboardText() == url)
        #expect(ownerIDs().count == 1)
    }

    @Test("under script -c, where the run leads its session, the owner outlives the hangup at the run's end")
    func ownerOutlivesSessionHangup() throws {
        // The parent leaves microseconds after the fork, often before its child has run; as the
        // session's leader its end hangs up the terminal's process group, which the child is in
        // until its `setsid` (without the block of SIGHUP across the fork, 18 of 20 died).
        for round in 1...5 {
            try xvfb.putOnClipboard("round \(round)\n")
            let command =
                "'\(BuiltProducts.path(of: "paste"))' -c --no-notify --url '\(mock.url("/pastes/create"))'"
            let result = try paste.runOnTerminal(command)
            #expect(result.status == 0, "\(result.out)")
            let url = result.out.trimmingCharacters(in: .newlines)
            #expect(url.hasPrefix(mock.baseURL + "/pastes/"), "round \(round): \(result.out)")
            #expect(try xvfb.clipboardText() == url, "round \(round): the owner is gone")
        }
    }

    @Test("a hotkey run that works still sends the service's waiting entries in the background")
    func flushLaunchedBeforeLeaving() throws {
        let dead = try FaultRetryTests.freePort()
        try paste.writeConfig(RetryNowTests.config(port: dead))
        let waiting = ["waited 1\n", "waited 2\n"]
        for text in waiting {
            let held = try paste.run(["-S", "m", "--no-copy"], stdin: text)
            #expect(held.status == 75, "stderr: \(held.err)")
        }
        try paste.writeConfig(RetryNowTests.config(port: mock.port))
        try xvfb.putOnClipboard("works now\n")
        let result = try paste.run(["-c", "-S", "m", "--no-notify"])
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix(mock.baseURL + "/pastes/"))
        #expect(try xvfb.clipboardText() == url)
        try waitUntil("the waiting entries to be sent", timeout: 30) { (try? paste.outboxContents().isEmpty) == true }
        try waitUntil("history to hold all three", timeout: 30) { (try? paste.historyLines().count) == 3 }
        let bodies = try mock.posts().compactMap { $0.field("paste[body]")?.text }
        #expect(bodies.sorted() == (waiting + ["works now\n"]).sorted())
    }
}
