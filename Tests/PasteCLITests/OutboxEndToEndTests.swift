import Foundation
import Testing
import TestSupport

/// The outbox end to end: private files, a large pipe kept whole, `--retry` in order, and two
/// `--retry` runs at once that never send an entry twice.
@Suite("Outbox: nothing lost, nothing sent twice", .temporaryHome, .mock)
struct OutboxEndToEndTests: ScopedSuite {
    /// A config with a service `m` on the mock and a service `dead` where nothing listens.
    static func config(_ mock: MockServer, deadPort: Int) -> String {
        pastieConfig(mock)
            + """
            [service "dead"]
            url = http://127.0.0.1:\(deadPort)/pastes/create
            content-field = paste[body]
            field = paste[authorization]=burger

            """
    }

    static func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test("a failed upload leaves 0600 files in a 0700 folder, no temporary file behind")
    func modes() throws {
        try paste.writeConfig("[paste]\nretries = 0\n")
        let result = try paste.run(["--url", "http://127.0.0.1:9/pastes/create"], stdin: "private text\n")
        #expect(result.status == 75)
        let folder = paste.home.stateHome.appendingPathComponent("paste/outbox").path
        #expect(try Self.mode(folder) == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names.count == 2)
        #expect(names.allSatisfy { !$0.hasPrefix(".") }, "a temporary file was left: \(names)")
        for name in names { #expect(try Self.mode(folder + "/" + name) == 0o600, "\(name)") }
        let metadata = try #require(names.first { $0.hasSuffix(".json") })
        let object =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/" + metadata)))
            as? [String: Any]
        #expect(object?["service_url"] as? String == "http://127.0.0.1:9/pastes/create")
        #expect(try paste.outboxContents() == [Data("private text\n".utf8)])
    }

    @Test("a large pipe whose upload dies part-way is in the outbox byte for byte", arguments: [0, 1 << 20, 12 << 20])
    func largePipe(_ dropAfter: Int) throws {
        if dropAfter > 0 {
            try mock.addFault(.dropRequest(afterBytes: dropAfter), count: 0, path: "/pastes/create")
        }
        try paste.writeConfig("[paste]\nretries = 0\n")
        var text = ""
        var line = 0
        while text.utf8.count < 18 << 20 {
            text += "line \(line) of a large pipe, ünïcödé\n"
            line += 1
        }
        let url = dropAfter > 0 ? mock.url("/pastes/create") : "http://127.0.0.1:9/pastes/create"
        let result = try paste.run(["--url", url], input: .bytes(Data(text.utf8)))
        #expect(result.status == 75, "stderr: \(result.err)")
        let kept = try paste.outboxContents()
        #expect(kept.count == 1)
        #expect(kept.first == Data(text.utf8), "kept \(kept.first?.count ?? 0) of \(text.utf8.count) bytes")
    }

    @Test("--retry sends in order, removes each sent entry, keeps a failing one, which then backs off")
    func retryInOrder() throws {
        let deadPort = try FaultRetryTests.freePort()
        try paste.writeConfig(Self.config(mock, deadPort: deadPort))
        try mock.addFault(.status(503), count: 0, path: "/pastes/create")
        for (text, service) in [("first\n", "m"), ("second\n", "dead"), ("third\n", "m")] {
            let result = try paste.run(["-S", service], stdin: text)
            #expect(result.status != 0)
        }
        #expect(try paste.outboxContents() == ["first\n", "second\n", "third\n"].map { Data($0.utf8) })
        try mock.clearFaults()
        try mock.clearRequests()

        let retry = try paste.run(["--retry"])
        #expect(retry.status == 75, "stderr: \(retry.err)")
        let urls = retry.out.split(separator: "\n").map(String.init)
        #expect(urls.count == 2)
        let sent = try urls.map { try mock.rawPaste(id: try #require(pasteID($0))) }
        #expect(sent == [Data("first\n".utf8), Data("third\n".utf8)])
        #expect(retry.err.hasPrefix("paste: cannot connect to 127.0.0.1:\(deadPort): connection refused\n"))
        #expect(try paste.outboxContents() == [Data("second\n".utf8)])

        // The dead service comes back (now pointing at the mock), but the entry's backoff (a
        // minute or more after a failed --retry) has begun: --retry sends nothing yet, and says
        // that something waits (75). The person sends it now.
        try paste.writeConfig(Self.config(mock, deadPort: mock.port))
        let early = try paste.run(["--retry"])
        #expect(early.status == 75, "stderr: \(early.err)")
        #expect(early.out.isEmpty)
        #expect(try mock.posts().count == 2)
        let id = try #require(try paste.outboxIDs().first)
        let again = try paste.run(["--outbox", "send", id])
        #expect(again.status == 0, "stderr: \(again.err)")
        #expect(try mock.rawPaste(id: try #require(pasteID(again.out))) == Data("second\n".utf8))
        #expect(try paste.outboxContents().isEmpty)
        #expect(try mock.posts().count == 3)
    }

    @Test("two --retry at once send every entry exactly once")
    func concurrentRetry() throws {
        try paste.writeConfig(Self.config(mock, deadPort: 9))
        try mock.addFault(.status(503), count: 0, path: "/pastes/create")
        let texts = (1...8).map { "entry \($0)\n" }
        for text in texts { _ = try paste.run(["-S", "m"], stdin: text) }
        #expect(try paste.outboxContents().count == texts.count)
        try mock.clearFaults()
        // A slow server widens the window in which both runs look at the same entries.
        try mock.addFault(.delay(seconds: 0.2), count: 0, path: "/pastes/create")
        try mock.clearRequests()

        let one = try RunningPaste(paste, ["--retry"], stdin: "")
        let two = try RunningPaste(paste, ["--retry"], stdin: "")
        let first = try one.finish()
        let second = try two.finish()
        #expect(first.status == 0, "stderr: \(one.err)")
        #expect(second.status == 0, "stderr: \(two.err)")
        let posts = try mock.posts()
        #expect(posts.count == texts.count)
        let bodies = try posts.map { try #require($0.field("paste[body]")?.text) }
        #expect(Set(bodies) == Set(texts))
        #expect(try paste.outboxContents().isEmpty)
        let printed = (first.out + second.out).split(separator: "\n")
        #expect(printed.count == texts.count)
    }
}
