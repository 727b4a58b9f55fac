import Foundation
import Testing
import TestSupport

/// The detached notifier keeps a paste's URL out of every process's argv: a PrivateBin link's
/// fragment is the paste's key, and `/proc/PID/cmdline` is readable by every user.
@Suite("The notifier's delete action keeps the URL out of argv", .temporaryHome, .mock)
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

    @Test("delete on a PrivateBin paste: the key is in no /proc/*/cmdline while the deletion runs")
    func deleteKeepsKeyOutOfArgv() throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus)
        let paste = try desktopRunner(home: home, bus: bus)
        try paste.writeConfig("[service \"privatebin\"]\n    url = \(mock.url("/privatebin/"))\n")
        let result = try paste.run(["--notify", "--no-copy", "-S", "privatebin"], stdin: "secret text\n")
        #expect(result.status == 0, "stderr: \(result.err)")
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
}
