import Foundation
import Testing
import TestSupport

/// The detached notifier keeps a paste's URL out of every process's argv: a PrivateBin link's
/// fragment is the paste's key, and `/proc/PID/cmdline` is readable by every user.
@Suite("The notifier keeps the URL out of argv: delete, and no Open for a key-bearing link", .temporaryHome, .mock)
struct NotifierSecretTests: ScopedSuite {
    /// Every process's command line as this user reads it (`/proc/*/cmdline`, NULs as spaces).
    static func commandLines() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
            (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))).map {
                String(decoding: $0.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            }
        }
    }

    /// A desktop session (a private bus, a recording notification server), and a paste of
    /// "secret text" to the built-in privatebin moved to the mock, made at a hotkey.
    func pasteToPrivateBin() throws -> (SessionBus, RecordingNotificationServer, PasteRunner, ProcessResult) {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try desktopRunner(home: home, bus: bus)
        try paste.writeConfig("[service \"privatebin\"]\n    url = \(mock.url("/privatebin/"))\n")
        let result = try paste.run(["--notify", "--no-copy", "-S", "privatebin"], stdin: "secret text\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        return (bus, server, paste, result)
    }

    @Test("delete on a PrivateBin paste: the key is in no /proc/*/cmdline while the deletion runs")
    func deleteKeepsKeyOutOfArgv() throws {
        let (bus, server, paste, result) = try pasteToPrivateBin()
        // The session's bus lives to the end, as the notifier's deletion runs on it.
        defer { withExtendedLifetime(bus) {} }
        let link = result.out.trimmingCharacters(in: .newlines)
        let key = try #require(link.split(separator: "#").last.map(String.init))
        #expect(key.count >= 20, "\(link)")
        let note = try #require(server.notifications.first)
        #expect((note["actions"] as? [String])?.contains("delete") == true)
        // The deletion's request waits a second at the mock: long enough that a child with the
        // link in its argv (what the notifier ran before) is seen by the scan below.
        try mock.addFault(.delay(seconds: 1), count: 1, path: "/privatebin/")
        try server.invoke("delete", on: note["id"] as? Int ?? 0)
        var scans = 0
        try waitUntil("the paste to be deleted", timeout: 30) {
            let holders = Self.commandLines().filter { $0.contains(key) }
            #expect(holders.isEmpty, "argv holds the key: \(holders)")
            scans += 1
            return (try? mock.pastes().isEmpty) == true
        }
        #expect(scans > 1)
        try waitUntil("its record to go", timeout: 30) { (try? paste.historyLines().isEmpty) == true }
    }

    @Test("a PrivateBin link has no Open, the notification says why, and 'default' runs no opener (issue 45, item 3)")
    func noOpenForKeyBearingLink() throws {
        let (bus, server, _, result) = try pasteToPrivateBin()
        #expect(result.err == "")
        let link = result.out.trimmingCharacters(in: .newlines)
        let hash = try #require(link.firstIndex(of: "#"), "\(link)")
        let key = String(link[link.index(after: hash)...])
        #expect(key.count >= 20, "\(link)")
        let note = try #require(server.notifications.first)
        // The click on the card copies the link (issue 41, item 3): it never opens it.
        #expect(note["actions"] as? [String] == ["default", "Copy", "copy", "Copy link", "delete", "Delete paste"])
        #expect(
            note["body"] as? String
                == String(link[..<hash]) + "…\nNo Open button: the browser's command line, which every user can "
                + "read, would hold the link's key. Paste the link into the browser instead.")
        // A click on the notification itself copies (no display here: the card says it could
        // not); nothing opens. The card, still offering its actions, is then dismissed.
        let id = try #require(note["id"] as? Int)
        try server.invoke("default", on: id)
        try waitUntil("the card to say how the copy went", timeout: 30) {
            server.notifications.contains { $0["replaces_id"] as? Int == id }
        }
        #expect(server.notifications.last?["summary"] as? String == "Not copied")
        try server.close(id, reason: 2)
        let sender = try #require(note["sender"] as? String)
        let opener = home.root.appendingPathComponent("bin/xdg-open").path
        try waitUntil("the notifier to leave and no opener to run", timeout: 30) {
            let lines = Self.commandLines()
            let holders = lines.filter { $0.contains(key) }
            #expect(holders.isEmpty, "argv holds the key: \(holders)")
            return try !bus.hasOwner(sender) && !lines.contains { $0.contains(opener) }
        }
        #expect(!FileManager.default.fileExists(atPath: openedFile(in: home).path))
    }
}
