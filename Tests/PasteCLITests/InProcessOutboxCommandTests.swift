import Foundation
import Testing
import TestSupport

@testable import PasteCLI

/// `paste --outbox` and `paste --retry` by entry state, in process: what is held waits for the
/// person, what is retryable goes when the service heals and backs off while it does not, a
/// vanished service holds only its own entries, the guard runs again on every entry sent, and
/// the state folder's leftovers are reported. `OutboxCommandTests` keeps a healing end to end.
@Suite("In process: paste --outbox and --retry by state", .temporaryHome)
struct InProcessOutboxCommandTests: ScopedSuite {
    /// `m` (with a private field) and `gone` (unless `withGone` is false).
    static func config(withGone: Bool = true) -> String {
        "[paste]\nservice = m\nretries = 0\n[service \"m\"]\nurl = https://m.test/upload\ncontent-field = content\n"
            + "result = body\nprivate-field = restricted=1\n"
            + (withGone ? "[service \"gone\"]\nurl = https://gone.test/upload\ncontent-field = c\nresult = body\n" : "")
    }

    @Test("a 200 without a URL is held: cron --retry runs send nothing, --outbox lists it, drop removes it")
    func heldNoURL() throws {
        try harness.writeConfig(harnessConfig())
        let failed = try harness.run(
            ["--no-copy"], stdin: .text("answered without a URL\n"), answers: [.http(200, body: "no URL here")])
        #expect(failed.status == 69)
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        #expect(try harness.outboxStates() == ["held"])

        for _ in 0..<2 {
            let cron = try harness.run(["--retry", "--quiet"])
            #expect(cron.status == 0, "stderr: \(cron.err)")
            #expect(cron.out.isEmpty)
            #expect(cron.err.isEmpty)
            #expect(cron.requests.isEmpty)
        }

        let list = try harness.run(["--outbox"])
        #expect(list.status == 0)
        let line = try #require(list.out.split(separator: "\n").first.map(String.init))
        #expect(line.hasPrefix("\(id)  held  just now  m  23 B  1 attempt  \"answered without a URL\"  last error: "))
        #expect(list.out.split(separator: "\n").count == 1)

        let drop = try harness.run(["--outbox", "drop", id])
        #expect(drop.status == 0, "stderr: \(drop.err)")
        #expect(drop.err == "paste: dropped outbox entry \(id)\n")
        #expect(harness.outboxFiles().isEmpty)
        #expect(try harness.run(["--outbox", "drop", id]).status == 66)
    }

    @Test("--retry: 75 while an entry keeps failing and backs off; its attempts are counted")
    func backoffAndAttempts() throws {
        try harness.writeConfig(harnessConfig())
        _ = try harness.run(["--no-copy"], stdin: .text("still down\n"), answers: [.http(503, body: "busy")])
        let first = try harness.run(["--retry"], answers: [.http(503, body: "busy")])
        #expect(first.status == 75)
        #expect(first.requests.count == 1)
        // Its backoff has begun: the next --retry sends nothing and still says 75.
        let second = try harness.run(["--retry"])
        #expect(second.status == 75)
        #expect(second.out.isEmpty)
        #expect(second.requests.isEmpty)
        let item = try #require(try harness.outboxEntries().first)
        #expect(item["attempts"] as? Int == 2)
        #expect(item["state"] as? String == "retryable")
        #expect(item["next_attempt"] is String)
        #expect((item["last_error"] as? String)?.contains("HTTP 503") == true)
    }

    @Test("an entry whose service left the config is held in one line; the others still go; not 78")
    func vanishedService() throws {
        try harness.writeConfig(Self.config())
        _ = try harness.run(
            ["--no-copy", "-S", "gone"], stdin: .text("to a service that leaves\n"), answers: [.http(503)])
        _ = try harness.run(["--no-copy", "-S", "m"], stdin: .text("to a service that stays\n"), answers: [.http(503)])
        let ids = try harness.outboxEntries().compactMap { $0["id"] as? String }
        #expect(ids.count == 2)
        try harness.writeConfig(Self.config(withGone: false))

        let retry = try harness.run(["--retry"], answers: [.created("https://m.test/p/1")])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(retry.out == "https://m.test/p/1\n")
        #expect(retry.requests.map(\.text) == ["to a service that stays\n"])
        let lines = retry.err.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "paste: outbox entry \(ids[0]) is held: its service 'gone' is not configured any more; "
                + "'paste --outbox send \(ids[0])' sends it once it is, 'paste --outbox drop \(ids[0])' drops it")
        #expect(try harness.outboxStates() == ["held"])
        #expect(try harness.outboxEntries().compactMap { $0["id"] as? String } == [ids[0]])
        // Sending it by hand while the service is still gone: the config error, 78.
        let send = try harness.run(["--outbox", "send", ids[0]])
        #expect(send.status == 78)
        #expect(send.requests.isEmpty)
    }

    @Test("-p after a public paste of the same text makes a new, private paste")
    func privateNeverReusesPublic() throws {
        try harness.writeConfig(Self.config())
        let text = PipelineHarness.Input.text("the same text, twice\n")
        let public1 = try harness.run(["--no-copy"], stdin: text, answers: [.created("https://m.test/p/1")])
        let public2 = try harness.run(["--no-copy"], stdin: text)
        let privately = try harness.run(["--no-copy", "-p"], stdin: text, answers: [.created("https://m.test/p/2")])
        #expect(public1.status == 0 && public2.status == 0 && privately.status == 0)
        #expect(public1.out == "https://m.test/p/1\n")
        #expect(public2.out == public1.out, "the repeat window reuses a paste made the same way")
        #expect(public2.requests.isEmpty)
        #expect(privately.out == "https://m.test/p/2\n")
        #expect(!privately.err.contains("reusing its URL"))
        #expect(public1.requests.first?.fields["restricted"] == nil)
        #expect(privately.requests.first?.fields["restricted"] == "1")
        // And the private one is reused by a second -p.
        let again = try harness.run(["--no-copy", "-p"], stdin: text)
        #expect(again.out == privately.out)
        #expect(again.requests.isEmpty)
    }

    @Test("--outbox show prints the text byte for byte; --json is an array of objects with ids")
    func showAndJSON() throws {
        try harness.writeConfig("[paste]\nretries = 0\n")
        let dead = "https://dead.test/pastes/create"
        let text = JournalEndToEndTests.text(300_000, seed: 9) + Data("\r\nno newline at the end".utf8)
        let failed = try harness.run(
            ["--no-copy", "--url", dead, "-t", "a title"], stdin: .pipe(Array(text)),
            answers: [.failure(.couldNotConnect(url: dead, detail: "connection refused", requestSent: false))])
        #expect(failed.status == 75)
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        let show = try harness.run(["--outbox", "show", String(id.prefix(4))])
        #expect(show.status == 0)
        #expect(show.out == String(decoding: text, as: UTF8.self))

        let json = try harness.run(["--outbox", "--json"])
        #expect(json.status == 0)
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
        #expect(listing.count == 1)
        let item = try #require(listing.first)
        #expect(item["id"] as? String == id)
        #expect(item["state"] as? String == "retryable")
        #expect(item["service_url"] as? String == dead)
        #expect(item["bytes"] as? Int == text.count)
        #expect(item["attempts"] as? Int == 1)
        #expect(item["title"] as? String == "a title")
        #expect(item["busy"] as? Bool == false)
        #expect(try harness.run(["--outbox", "show", "ffffffff"]).status == 66)
    }

    @Test("--outbox drop --all empties the outbox; an empty outbox lists nothing")
    func dropAll() throws {
        try harness.writeConfig(harnessConfig())
        for text in ["one\n", "two\n", "three\n"] {
            _ = try harness.run(["--no-copy"], stdin: .text(text), answers: [.http(503)])
        }
        #expect(try harness.outboxEntries().count == 3)
        let drop = try harness.run(["--outbox", "drop", "--all"])
        #expect(drop.status == 0)
        #expect(drop.err == "paste: dropped 3 outbox entries\n")
        #expect(harness.outboxFiles().isEmpty)
        let empty = try harness.run(["--outbox"])
        #expect(empty.out.isEmpty)
        #expect(empty.err == "paste: the outbox is empty\n")
        #expect(try harness.run(["--outbox", "--json"]).out == "[]\n")
    }

    @Test("the guard runs again on every entry --retry sends: a key is held; --outbox send ID --force sends it")
    func guardOnRetry() throws {
        try harness.writeConfig(harnessConfig())
        let key =
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
            + "-----END OPENSSH PRIVATE KEY-----\n"
        let forced = try harness.run(["--no-copy", "--force"], stdin: .text(key), answers: [.http(503)])
        #expect(forced.status == 75)
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        let retry = try harness.run(["--retry"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(retry.err.hasPrefix("paste: refusing to upload outbox entry \(id): it looks like it holds "))
        #expect(retry.requests.isEmpty)
        #expect(try harness.outboxStates() == ["held"])
        let send = try harness.run(["--outbox", "send", id, "--force"], answers: [.created("https://m.test/p/k")])
        #expect(send.status == 0, "stderr: \(send.err)")
        #expect(send.requests.map(\.text) == [key])
        #expect(harness.outboxFiles().isEmpty)
    }

    @Test("a content swapped for a link to a private file is never sent: the recovery pass removes it")
    func swappedContentNeverSent() throws {
        try harness.writeConfig(harnessConfig())
        _ = try harness.run(["--no-copy"], stdin: .text("harmless\n"), answers: [.http(503)])
        let secret = try home.write("PRIVATE MATTER\n", to: "private.txt")
        let content = try #require(harness.outboxFiles().first { $0.hasSuffix(".content") })
        let path = harness.outboxFolder.appendingPathComponent(content).path
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: secret)

        let retry = try harness.run(["--retry"], answers: [.created("https://m.test/p/never")])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(retry.err.contains("a symbolic link, never read"), "stderr: \(retry.err)")
        #expect(retry.requests.isEmpty)
        #expect(harness.outboxFiles().isEmpty)
    }

    @Test("stranded files are reported on stderr, one line each, and removed after a minute; no .tmp survives")
    func strandedFiles() throws {
        let folder = harness.outboxFolder
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
        let list = try harness.run(["--outbox", "-q"])
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
        #expect(harness.outboxFiles().isEmpty)
    }
}

extension PipelineHarness {
    /// The outbox folder.
    var outboxFolder: URL { home.stateHome.appendingPathComponent("paste/outbox") }

    /// Every file name in the outbox folder, sorted (temporary files included).
    func outboxFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: outboxFolder.path)) ?? []).sorted()
    }
}
