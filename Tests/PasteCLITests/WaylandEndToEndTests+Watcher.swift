import Foundation
import Testing
import TestSupport

extension WaylandEndToEndTests {
    /// A clipboard manager's way of reading: `wl-paste --watch` runs `command` (through sh) on
    /// every new selection, with the selection's text on its stdin; it runs once for the current
    /// selection as it starts.
    func watcher(_ command: String) throws -> SpawnedProcess {
        try SpawnedProcess(
            "/usr/bin/wl-paste", ["--no-newline", "--watch", "/bin/sh", "-c", command],
            environment: sway.toolEnvironment)
    }

    @Test("a watcher that reads each copy at once gets the URL; one that hangs up at once ends nothing")
    func watchersAtTheCopy() throws {
        // The URL is set on the read's own connection and served by a child forked after the
        // compositor confirmed it: a reader asking in between is answered by that child.
        try sway.waylandCopy(Data("before the hotkey".utf8))
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: log) }
        let reading = try watcher("cat >> '\(log.path)'; echo >> '\(log.path)'")
        defer { reading.send(SIGKILL) }
        let hangingUp = try watcher("exec true")
        defer { hangingUp.send(SIGKILL) }
        let logged = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        try waitUntil("the watcher to see the first copy") { logged().contains("before the hotkey") }
        let url = try expectURL(try paste(["-c", "--no-notify", "--url", mock.url("/pastes/create")], withX: false))
        try waitUntil("the watcher to read the URL") { logged().split(separator: "\n").contains(Substring(url)) }
        #expect(try readersGet(url, andX: false))
        #expect(reading.isRunning)
        #expect(hangingUp.isRunning)
    }
}
