import Foundation
import Testing
import TestSupport

@testable import PasteCLI

/// A URL that carries its own key (PrivateBin's fragment) goes onto the clipboard with the
/// password manager's mark beside its text targets, whole, and is shown without its key in the
/// notification; an ordinary URL is not marked (issue 26, item 2). xclip reads what the owner
/// offers.
@Suite(
    "Key-bearing URLs: marked on the clipboard, shortened in notifications", .tags(.x11), .needsXServer, .xvfb,
    .temporaryHome, .mock, .serialized)
struct KeyBearingURLTests: ScopedSuite {
    func runner(bus: SessionBus) throws -> PasteRunner {
        let paste = try desktopRunner(home: home, bus: bus, display: xvfb.display)
        try paste.writeConfig(
            """
            [paste]
                notify-style = desktop
            [service "privatebin"]
                url = \(mock.url("/privatebin/"))

            """ + pastieConfig(mock))
        return paste
    }

    @Test("a PrivateBin link: whole on stdout and the clipboard, marked secret there, shortened in the notification")
    func privateBinMarked() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try runner(bus: bus)
        let result = try paste.run(["-S", "privatebin", "--notify"], stdin: "a secret note\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        let hash = try #require(url.firstIndex(of: "#"), "\(url)")
        let key = String(url[url.index(after: hash)...])
        #expect(key.count >= 43)
        #expect(try xvfb.clipboardText() == url)
        let listed = try xvfb.clipboardTargets()
        #expect(listed.contains("x-kde-passwordManagerHint"), "\(listed)")
        #expect(listed.contains("UTF8_STRING"), "\(listed)")
        #expect(try xvfb.readClipboard(target: "x-kde-passwordManagerHint").out == "secret")
        let note = try #require(server.notifications.first)
        #expect(note["summary"] as? String == "Copied")
        #expect(note["body"] as? String == String(url[..<hash]) + "…\n" + DesktopNotice.noOpenLine)
        #expect((note["body"] as? String)?.contains(key) == false)
    }

    @Test("an ordinary URL is not marked, and the notification shows it whole")
    func ordinaryUnmarked() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try runner(bus: bus)
        let result = try paste.run(["-S", "m", "--notify"], stdin: "an ordinary note\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(try xvfb.clipboardText() == url)
        let listed = try xvfb.clipboardTargets()
        #expect(listed.contains("UTF8_STRING"), "\(listed)")
        #expect(!listed.contains("x-kde-passwordManagerHint"), "\(listed)")
        #expect(server.notifications.first?["body"] as? String == url)
    }

    @Test(
        "the shortened form keeps scheme, host and id, never the key",
        arguments: [
            (
                "https://privatebin.example/?f468483c313401e8#9qWEnKDF2ktaWzZMhXW7o4",
                "https://privatebin.example/?f468483c313401e8…"
            ),
            ("https://privatebin.example/?f4684#-9qWEnKDF", "https://privatebin.example/?f4684…"),
            ("https://share.example/x/abc?k=1", "https://share.example/…"),
        ])
    func shortened(url: String, shown: String) {
        #expect(KeyBearingURL.shortened(url) == shown)
    }
}
