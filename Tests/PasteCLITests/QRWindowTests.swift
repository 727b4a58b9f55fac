import Foundation
import Testing
import TestSupport

/// `--qr` at a hotkey on X11: a click on the "Copied" toast shows the URL's QR code in a window
/// of its own, read back from a screenshot by an independent decoder (zbarimg).
@Suite(
    "The notification window shows the QR code on a click", .tags(.x11), .needsXServer, .xvfb, .temporaryHome, .mock,
    .serialized)
struct QRWindowTests: ScopedSuite {
    func tool(_ name: String, _ arguments: [String]) throws -> ProcessResult {
        try runProcess("/usr/bin/env", [name] + arguments, environment: xvfb.environment, timeout: 20)
    }

    /// The visible windows named exactly `name`.
    func windows(named name: String) -> [String] {
        let result = try? tool("xdotool", ["search", "--onlyvisible", "--name", "^\(name)$"])
        return (result?.out ?? "").split(whereSeparator: \.isNewline).map(String.init)
    }

    @Test("click the toast: the QR code of the URL, which zbarimg decodes; a click closes it and paste returns")
    func clickShowsCode() throws {
        // A long toast: it stays until the click.
        try paste.writeConfig("[paste]\nnotify-timeout = 60\n")
        try xvfb.putOnClipboard("show me as a code")
        let run = try Launched(
            BuiltProducts.path(of: "paste"), ["--qr", "--url", mock.url("/pastes/create")],
            environment: paste.environment)
        var toast: [String] = []
        try waitUntil("the Copied toast", timeout: 30) {
            toast = windows(named: "Copied")
            return !toast.isEmpty
        }
        let click = try tool("xdotool", ["mousemove", "--window", toast[0], "20", "20", "click", "1"])
        #expect(click.status == 0, "xdotool: \(click.err)")
        var code: [String] = []
        try waitUntil("the QR code window", timeout: 30) {
            code = windows(named: "QR code")
            return !code.isEmpty
        }
        #expect(windows(named: "Copied").isEmpty)
        let folder = SourceTree.root.appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("notification-qr.png").path
        // Arguments go positionally: the shell sees no value of ours in its script.
        let shot = try tool("sh", ["-c", "xwd -silent -id \"$1\" | convert xwd:- \"png:$2\"", "sh", code[0], path])
        #expect(shot.status == 0, "xwd | convert: \(shot.err)")
        let decoded = try runProcess("/usr/bin/zbarimg", ["-q", "--raw", path], timeout: 30)
        #expect(decoded.status == 0, "zbarimg: \(decoded.err)")

        let close = try tool("xdotool", ["mousemove", "--window", code[0], "20", "20", "click", "1"])
        #expect(close.status == 0, "xdotool: \(close.err)")
        let result = try run.wait(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(decoded.out == url + "\n")
        #expect(try xvfb.clipboardText() == url)
    }
}
