import Foundation
import Testing
import TestSupport

/// The clipboard's read begun before the config is read (`Runner.upload`, `Clipboard.beginRead`):
/// whatever the config then says, the run ends as it did when the read began after it, and
/// the clipboard's owner keeps serving.
extension ClipboardEndToEndTests {
    /// Puts `text` on PRIMARY with xclip (which stays as its owner) and waits until it is there.
    func putOnPrimary(_ text: String) throws {
        try spawnXclipOwner(Data(text.utf8), selection: "primary", environment: xvfb.environment)
        try waitUntil("xclip to own PRIMARY") {
            let read = try? runProcess(
                "/usr/bin/xclip", ["-o", "-selection", "primary"], environment: xvfb.environment, timeout: 5)
            return read?.status == 0 && read?.out == text
        }
    }

    @Test("a config error on a clipboard run reads as on a piped one (78), and xclip still serves the text")
    func configErrorAfterBegunRead() throws {
        try xvfb.putOnClipboard("kept on the clipboard")
        try paste.writeConfig("[paste]\n    no-such-key = 1\n")
        let clipboard = try paste.run(["-c", "--no-notify", "--url", server.baseURL + "/pastes/create"])
        let piped = try paste.run(["--no-notify", "--url", server.baseURL + "/pastes/create"], stdin: "piped")
        #expect(clipboard.status == 78)
        #expect(clipboard.err == "paste: \(paste.configPath):2: unknown key 'no-such-key' in section [paste]\n")
        #expect(clipboard.status == piped.status)
        #expect(clipboard.err == piped.err)
        #expect(clipboard.out.isEmpty)
        #expect(try xvfb.clipboardText() == "kept on the clipboard")
    }

    @Test("-P reads PRIMARY, not the clipboard the environment's read would take, and copies to the clipboard")
    func primaryAfterBegunRead() throws {
        try xvfb.putOnClipboard("on the clipboard")
        try putOnPrimary("on the primary selection")
        let result = try paste.run(["-P", "--no-notify", "--url", server.baseURL + "/pastes/create"])
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(try fetch(url + ".txt") == Data("on the primary selection".utf8))
        #expect(try xvfb.clipboardText() == url)
    }

    @Test("a config that names another clipboard backend ends the begun read: the run fails as that backend does")
    func otherBackendAfterBegunRead() throws {
        try xvfb.putOnClipboard("x11 text")
        try paste.writeConfig("[paste]\n    clipboard = wayland\n")
        let clipboard = try paste.run(["-c", "--no-notify", "--url", server.baseURL + "/pastes/create"])
        #expect(clipboard.status == 69, "\(clipboard.err)")
        #expect(clipboard.out.isEmpty)
        #expect(clipboard.err.hasPrefix("paste: no display: "), "\(clipboard.err)")
        // The X owner was asked TARGETS and left: it serves on, untouched.
        #expect(try xvfb.clipboardText() == "x11 text")
        // A dry run, and `--no-copy`, read it too and leave it as it was.
        try paste.writeConfig("")
        let dry = try paste.run(["-c", "--dry-run", "--no-notify", "--url", server.baseURL + "/pastes/create"])
        #expect(dry.status == 0, "\(dry.err)")
        let noCopy = try paste.run(["-c", "--no-copy", "--no-notify", "--url", server.baseURL + "/pastes/create"])
        #expect(noCopy.status == 0, "\(noCopy.err)")
        #expect(try fetch(noCopy.out.trimmingCharacters(in: .newlines) + ".txt") == Data("x11 text".utf8))
        #expect(try xvfb.clipboardText() == "x11 text")
    }

    @Test("a display that cannot be opened: the clipboard run says so as before (69), once")
    func unopenableDisplay() throws {
        var runner = paste
        runner.display = ":4242"
        let result = try runner.run(["-c", "--no-notify", "--url", server.baseURL + "/pastes/create"])
        #expect(result.status == 69, "\(result.err)")
        #expect(result.err == "paste: cannot open display ':4242'\n")
        #expect(result.out.isEmpty)
    }
}
