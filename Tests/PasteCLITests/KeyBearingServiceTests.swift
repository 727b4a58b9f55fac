import Foundation
import PasteCore
import Testing
import TestSupport

@testable import PasteCLI

/// A service that declares its results key-bearing (`key-bearing = yes`) gets what PrivateBin's
/// links get: the password manager's mark on the clipboard, the URL shortened on stderr (the
/// `-v` trace) and in the notification, whole on stdout; an undeclared one is unmarked (issue
/// 26, item 2). xclip reads what the owner offers.
@Suite(
    "Key-bearing services: key-bearing = yes marks and shortens their URLs", .tags(.x11), .needsXServer, .xvfb,
    .temporaryHome, .mock, .serialized)
struct KeyBearingServiceTests: ScopedSuite {
    func runner(bus: SessionBus) throws -> PasteRunner {
        let paste = try desktopRunner(home: home, bus: bus, display: xvfb.display)
        try paste.writeConfig(
            pastieConfig(mock, name: "keyed", extra: "key-bearing = yes\n") + "[paste]\nnotify-style = desktop\n"
                + pastieConfig(mock, name: "plain").replacing("[paste]\nretries = 0\n", with: ""))
        return paste
    }

    @Test("declared key-bearing: marked secret on the clipboard, shortened on stderr and in the notification")
    func declaredMarked() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try runner(bus: bus)
        let result = try paste.run(["-S", "keyed", "--notify", "-v"], stdin: "a capability link\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        let id = try #require(pasteID(url), "\(url)")
        let shown = KeyBearingURL.shortened(url)
        #expect(shown == mock.url("/") + "…")
        #expect(try xvfb.clipboardText() == url)
        let listed = try xvfb.clipboardTargets()
        #expect(listed.contains("x-kde-passwordManagerHint"), "\(listed)")
        #expect(listed.contains("UTF8_STRING"), "\(listed)")
        #expect(try xvfb.readClipboard(target: "x-kde-passwordManagerHint").out == "secret")
        // The trace names the redirect (Location, curl's note, the GET that follows it) shortened.
        #expect(!result.err.contains(url), "\(result.err)")
        #expect(!result.err.contains("/pastes/\(id)"), "\(result.err)")
        #expect(result.err.contains("paste: < Location: \(shown)\n"), "\(result.err)")
        #expect(result.err.contains("paste: > GET /… HTTP/1.1\n"), "\(result.err)")
        #expect(result.err.contains("paste: > POST /pastes/create HTTP/1.1\n"), "\(result.err)")
        let note = try #require(server.notifications.first)
        #expect(note["summary"] as? String == "Copied")
        #expect(note["body"] as? String == shown + "\n" + DesktopNotice.noOpenLine)
        #expect(note["actions"] as? [String] == ["default", "Copy", "copy", "Copy link"])
    }

    @Test("an undeclared service of the same kind is unmarked and shown whole")
    func undeclaredUnmarked() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try runner(bus: bus)
        let result = try paste.run(["-S", "plain", "--notify", "-v"], stdin: "an ordinary note\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(try xvfb.clipboardText() == url)
        let listed = try xvfb.clipboardTargets()
        #expect(listed.contains("UTF8_STRING"), "\(listed)")
        #expect(!listed.contains("x-kde-passwordManagerHint"), "\(listed)")
        #expect(result.err.contains("paste: < Location: \(url)\n"), "\(result.err)")
        #expect(server.notifications.first?["body"] as? String == url)
    }

    @Test("0x0's -p URL (its secret mode) is key-bearing: marked and shortened; its public URL is not")
    func nullPointerPrivate() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try desktopRunner(home: home, bus: bus, display: xvfb.display)
        try paste.writeConfig(
            "[paste]\nretries = 0\nnotify-style = desktop\n[service \"0x0\"]\nurl = \(mock.url("/0x0/"))\n")
        let secret = try paste.run(["-S", "0x0", "-p", "--notify", "-v"], stdin: "a private file\n")
        #expect(secret.status == 0, "stderr: \(secret.err)")
        let url = secret.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix(mock.url("/0x0/s/")), "\(url)")
        #expect(try xvfb.clipboardText() == url)
        #expect(try xvfb.clipboardTargets().contains("x-kde-passwordManagerHint"))
        #expect(try xvfb.readClipboard(target: "x-kde-passwordManagerHint").out == "secret")
        // The random part and the id are on stdout and the clipboard only.
        let capability = String(url.dropFirst(mock.url("/0x0/s/").count))
        #expect(!secret.err.contains(capability), "\(secret.err)")
        #expect(server.notifications.last?["body"] as? String == mock.url("/") + "…\n" + DesktopNotice.noOpenLine)
        // Deleting it: the note and the -v trace (its POST goes to the secret URL) keep the
        // random part off stderr too.
        let deleted = try paste.run(["--delete", url, "-v"])
        #expect(deleted.status == 0, "stderr: \(deleted.err)")
        #expect(deleted.err.hasSuffix("paste: deleted \(mock.url("/"))…\n"), "\(deleted.err)")
        #expect(deleted.err.contains("> POST /…"), "\(deleted.err)")
        #expect(!deleted.err.contains(capability), "\(deleted.err)")
        #expect(try mock.pastes().count == 0)

        let open = try paste.run(["-S", "0x0", "--notify"], stdin: "a public file\n")
        #expect(open.status == 0, "stderr: \(open.err)")
        let publicURL = open.out.trimmingCharacters(in: .newlines)
        #expect(!publicURL.contains("/s/"), "\(publicURL)")
        #expect(try xvfb.clipboardText() == publicURL)
        #expect(try !xvfb.clipboardTargets().contains("x-kde-passwordManagerHint"))
        #expect(server.notifications.last?["body"] as? String == publicURL)
    }

    @Test("key-bearing = private: only a private paste's URL carries its key; a bad value names the choices")
    func declaredPrivateOnly() throws {
        let text =
            "[service \"mine\"]\nbase = 0x0\nkey-bearing = private\n[service \"open\"]\nbase = 0x0\nkey-bearing = no\n"
        let configuration = try Configuration(file: ConfigFile(parsing: text, path: "/c"))
        let mine = try configuration.service(named: "mine")
        #expect(mine.resultsCarryKey(isPrivate: true) && !mine.resultsCarryKey(isPrivate: false))
        #expect(!(try configuration.service(named: "open")).resultsCarryKey(isPrivate: true))
        #expect(BuiltInServices.nullPointer.resultsCarryKey(isPrivate: true))
        #expect(!BuiltInServices.nullPointer.resultsCarryKey(isPrivate: false))
        #expect(throws: ConfigError.self) {
            try Configuration(
                file: ConfigFile(parsing: "[service \"x\"]\nbase = 0x0\nkey-bearing = sometimes\n", path: "/c"))
        }
    }

    @Test(
        "a trace line keeps everything but the URLs and a GET's target",
        arguments: [
            ("< Location: https://h.example/s/KEY/12", "< Location: https://h.example/…"),
            (
                "* Issue another request to this URL: 'http://h.example:81/s/KEY/12'",
                "* Issue another request to this URL: 'http://h.example:81/…'"
            ),
            ("> GET /s/KEY/12 HTTP/1.1", "> GET /… HTTP/1.1"),
            ("> POST /pastes/create HTTP/1.1", "> POST /pastes/create HTTP/1.1"),
            ("< Content-Type: text/html", "< Content-Type: text/html"),
            ("< Link: <https://a.example/x#k>; rel=x", "< Link: <https://a.example/x…>; rel=x"),
        ])
    func traceLine(line: String, shown: String) {
        #expect(KeyBearingURL.shortenedURLs(in: line) == shown)
    }
}
