import Foundation
import Testing
import TestSupport

/// `paste --outbox` and `paste --retry` by entry state, end to end: what is held waits for the
/// person, what is retryable goes when the server heals, `-n` sends nothing, a vanished service
/// holds only its own entries, and the state folder's leftovers are reported.
@Suite("paste --outbox and --retry by state", .temporaryHome, .mock)
struct OutboxCommandTests: ScopedSuite {
    /// The mock as service `m` (and, unless `withGone` is false, a service `gone` on it too).
    static func config(_ mock: MockServer, withGone: Bool = true) -> String {
        var text = pastieConfig(mock, extra: "private-field = paste[restricted]=1\n")
        if withGone {
            text += """
                [service "gone"]
                url = \(mock.url("/pastes/create"))
                content-field = paste[body]

                """
        }
        return text
    }

    @Test("a 200 without a URL is held: cron --retry runs send nothing, --outbox lists it, drop removes it")
    func heldNoURL() throws {
        try paste.writeConfig(Self.config(mock))
        try mock.addFault(.noURL, count: 1, path: "/pastes/create")
        let failed = try paste.run(["-S", "m"], stdin: "answered without a URL\n")
        #expect(failed.status == 69)
        #expect(try mock.posts().count == 1)
        let id = try #require(try paste.outboxIDs().first)
        #expect(try paste.outboxStates() == ["held"])

        for _ in 0..<2 {
            let cron = try paste.run(["--retry", "--quiet"])
            #expect(cron.status == 0, "stderr: \(cron.err)")
            #expect(cron.out.isEmpty)
            #expect(cron.err.isEmpty)
        }
        #expect(try mock.posts().count == 1)

        let list = try paste.run(["--outbox"])
        #expect(list.status == 0)
        let line = try #require(list.out.split(separator: "\n").first.map(String.init))
        #expect(line.hasPrefix("\(id)  held  just now  m  23 B  1 attempt  \"answered without a URL\"  last error: "))
        #expect(list.out.split(separator: "\n").count == 1)

        let drop = try paste.run(["--outbox", "drop", id])
        #expect(drop.status == 0, "stderr: \(drop.err)")
        #expect(drop.err == "paste: dropped outbox entry \(id)\n")
        #expect(paste.outboxFiles().isEmpty)
        #expect(try paste.run(["--outbox", "drop", id]).status == 66)
    }

    @Test("a 503 entry waits (75) and is sent once the server heals; --retry -n sends nothing")
    func retryableHeals() throws {
        try paste.writeConfig(Self.config(mock))
        try mock.addFault(.status(503), count: 0, path: "/pastes/create")
        let failed = try paste.run(["-S", "m"], stdin: "come back later\n")
        #expect(failed.status == 75)
        let id = try #require(try paste.outboxIDs().first)
        #expect(try paste.outboxStates() == ["retryable"])

        try mock.clearFaults()
        try mock.clearRequests()
        let dry = try paste.run(["--retry", "-n"])
        #expect(dry.status == 0)
        #expect(dry.out == "would send \(id)  m  16 B  \"come back later\"\n")
        #expect(try mock.requests().isEmpty)
        #expect(try paste.outboxIDs() == [id])

        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        let url = retry.out.trimmingCharacters(in: .newlines)
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("come back later\n".utf8))
        #expect(paste.outboxFiles().isEmpty)
        #expect(try mock.posts().count == 1)
        // History keeps it, like any paste.
        #expect(try paste.historyLines().last?.contains(url) == true)
    }

    @Test("--retry: 75 while an entry keeps failing and backs off; its attempts are counted")
    func backoffAndAttempts() throws {
        try paste.writeConfig(Self.config(mock))
        try mock.addFault(.status(503), count: 0, path: "/pastes/create")
        _ = try paste.run(["-S", "m"], stdin: "still down\n")
        let first = try paste.run(["--retry"])
        #expect(first.status == 75)
        #expect(try mock.posts().count == 2)
        // Its backoff has begun: the next --retry sends nothing and still says 75.
        let second = try paste.run(["--retry"])
        #expect(second.status == 75)
        #expect(second.out.isEmpty)
        #expect(try mock.posts().count == 2)
        let item = try #require(try paste.outboxListing().first)
        #expect(item["attempts"] as? Int == 2)
        #expect(item["state"] as? String == "retryable")
        #expect(item["next_attempt"] is String)
        #expect((item["last_error"] as? String)?.contains("HTTP 503") == true)
    }

    @Test("an entry whose service left the config is held in one line; the others still go; not 78")
    func vanishedService() throws {
        try paste.writeConfig(Self.config(mock))
        try mock.addFault(.status(503), count: 2, path: "/pastes/create")
        _ = try paste.run(["-S", "gone"], stdin: "to a service that leaves\n")
        _ = try paste.run(["-S", "m"], stdin: "to a service that stays\n")
        let ids = try paste.outboxIDs()
        #expect(ids.count == 2)
        try paste.writeConfig(Self.config(mock, withGone: false))

        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        let url = retry.out.trimmingCharacters(in: .newlines)
        #expect(try mock.rawPaste(id: try #require(pasteID(url))) == Data("to a service that stays\n".utf8))
        let lines = retry.err.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "paste: outbox entry \(ids[0]) is held: its service 'gone' is not configured any more; "
                + "'paste --outbox send \(ids[0])' sends it once it is, 'paste --outbox drop \(ids[0])' drops it")
        #expect(try paste.outboxStates() == ["held"])
        #expect(try paste.outboxIDs() == [ids[0]])
        // Sending it by hand while the service is still gone: the config error, 78.
        #expect(try paste.run(["--outbox", "send", ids[0]]).status == 78)
    }

    @Test("-p after a public paste of the same text makes a new, private paste")
    func privateNeverReusesPublic() throws {
        try paste.writeConfig(Self.config(mock))
        let text = "the same text, twice\n"
        let public1 = try paste.run(["-S", "m"], stdin: text)
        let public2 = try paste.run(["-S", "m"], stdin: text)
        let privately = try paste.run(["-S", "m", "-p"], stdin: text)
        #expect(public1.status == 0 && public2.status == 0 && privately.status == 0)
        #expect(public1.out == public2.out, "the repeat window reuses a paste made the same way")
        #expect(privately.out != public1.out)
        #expect(!privately.err.contains("reusing its URL"))
        let posts = try mock.posts()
        #expect(posts.count == 2)
        #expect(posts.last?.field("paste[restricted]")?.text == "1")
        #expect(posts.first?.field("paste[restricted]") == nil)
        // And the private one is reused by a second -p.
        #expect(try paste.run(["-S", "m", "-p"], stdin: text).out == privately.out)
    }

    @Test("--outbox show prints the text byte for byte; --json is an array of objects with ids")
    func showAndJSON() throws {
        try paste.writeConfig("[paste]\nretries = 0\n")
        let dead = "http://127.0.0.1:\(try FaultRetryTests.freePort())/pastes/create"
        let text = JournalEndToEndTests.text(300_000, seed: 9) + Data("\r\nno newline at the end".utf8)
        let failed = try paste.run(["--url", dead, "-t", "a title"], input: .bytes(text))
        #expect(failed.status == 75)
        let id = try #require(try paste.outboxIDs().first)
        let show = try paste.run(["--outbox", "show", String(id.prefix(4))])
        #expect(show.status == 0)
        #expect(show.stdout == text)

        let listing = try paste.outboxListing()
        #expect(listing.count == 1)
        let item = try #require(listing.first)
        #expect(item["id"] as? String == id)
        #expect(item["state"] as? String == "retryable")
        #expect(item["service_url"] as? String == dead)
        #expect(item["bytes"] as? Int == text.count)
        #expect(item["attempts"] as? Int == 1)
        #expect(item["title"] as? String == "a title")
        #expect(item["busy"] as? Bool == false)
        #expect(try paste.run(["--outbox", "show", "ffffffff"]).status == 66)
    }

    @Test("--outbox drop --all empties the outbox; an empty outbox lists nothing")
    func dropAll() throws {
        try paste.writeConfig("[paste]\nretries = 0\n")
        let dead = "http://127.0.0.1:\(try FaultRetryTests.freePort())/pastes/create"
        for text in ["one\n", "two\n", "three\n"] { _ = try paste.run(["--url", dead], stdin: text) }
        #expect(try paste.outboxIDs().count == 3)
        let drop = try paste.run(["--outbox", "drop", "--all"])
        #expect(drop.status == 0)
        #expect(drop.err == "paste: dropped 3 outbox entries\n")
        #expect(paste.outboxFiles().isEmpty)
        let empty = try paste.run(["--outbox"])
        #expect(empty.out.isEmpty)
        #expect(empty.err == "paste: the outbox is empty\n")
        #expect(try paste.run(["--outbox", "--json"]).out == "[]\n")
    }

    @Test("the guard runs again on every entry --retry sends: a key is held; --outbox send ID --force sends it")
    func guardOnRetry() throws {
        try paste.writeConfig(Self.config(mock))
        try mock.addFault(.status(503), count: 1, path: "/pastes/create")
        let key =
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
            + "-----END OPENSSH PRIVATE KEY-----\n"
        let forced = try paste.run(["-S", "m", "--force"], stdin: key)
        #expect(forced.status == 75)
        let id = try #require(try paste.outboxIDs().first)
        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(retry.err.hasPrefix("paste: refusing to upload 'outbox entry \(id)': it looks like it holds "))
        #expect(try paste.outboxStates() == ["held"])
        #expect(try mock.posts().count == 1)
        let send = try paste.run(["--outbox", "send", id, "--force"])
        #expect(send.status == 0, "stderr: \(send.err)")
        #expect(try mock.posts().count == 2)
        #expect(paste.outboxFiles().isEmpty)
    }

    @Test("a content swapped for a link to a private file is never sent: the recovery pass removes it")
    func swappedContentNeverSent() throws {
        try paste.writeConfig(Self.config(mock))
        try mock.addFault(.status(503), count: 1, path: "/pastes/create")
        _ = try paste.run(["-S", "m"], stdin: "harmless\n")
        let secret = try paste.home.write("PRIVATE MATTER\n", to: "private.txt")
        let content = try #require(paste.outboxFiles().first { $0.hasSuffix(".content") })
        let path = paste.outboxFolder.appendingPathComponent(content).path
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: secret)

        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(retry.err.contains("a symbolic link, never read"), "stderr: \(retry.err)")
        #expect(try mock.posts().count == 1)
        #expect(try mock.pastes().isEmpty)
        #expect(paste.outboxFiles().isEmpty)
    }

    @Test("stranded files are reported on stderr, one line each, and removed after a minute; no .tmp survives")
    func strandedFiles() throws {
        let folder = paste.outboxFolder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        let old = Date().addingTimeInterval(-120)
        for (name, text) in [
            ("1700000000000-0000.content", "a content whose metadata never came"),
            ("1700000000001-0000.json", "{not json"), ("1700000000001-0000.content", "x"),
            (".1700000000002-0000.json.tmp-abc", "{}"),
        ] {
            let path = folder.appendingPathComponent(name).path
            #expect(
                FileManager.default.createFile(
                    atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path)
        }
        let list = try paste.run(["--outbox", "-q"])
        #expect(list.status == 0)
        let lines = list.err.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "stderr: \(list.err)")
        #expect(
            lines.contains {
                $0.hasPrefix("paste: removed '")
                    && $0.hasSuffix("a content without metadata, left by a run that was killed")
            })
        #expect(lines.contains { $0.hasSuffix("and its content: the metadata is unreadable") })
        #expect(lines.contains { $0.hasPrefix("paste: removed the leftover '") })
        #expect(paste.outboxFiles().isEmpty)
    }
}
