import Foundation
import Testing
import TestSupport

/// History end to end: concurrent runs, the printed forms, and deletion through the stored
/// token (0x0-style) or removal URL (pinnwand-style).
@Suite("History: one well-formed record per paste; --delete uses what was stored", .temporaryHome, .mock)
struct HistoryEndToEndTests: ScopedSuite {
    /// 0x0-style and pinnwand-style services on the mock.
    static func config(_ mock: MockServer) -> String {
        """
        [service "null"]
        url = \(mock.url("/0x0/"))
        format = multipart
        content-field = file
        file-name = paste.txt
        result = body
        deletion = header:X-Token
        [service "pinn"]
        url = \(mock.url("/api/v1/paste"))
        format = json
        json = {"expiry": "1day", "files": [{"lexer": "text", "content": "{content}"}]}
        result = json:/link
        deletion = json:/removal

        """
    }

    @Test("20 paste runs at once leave 20 well-formed records with 20 distinct URLs")
    func concurrentRuns() throws {
        let runs = try (0..<20).map {
            try RunningPaste(paste, ["--url", mock.url("/pastes/create"), "-q"], stdin: "concurrent paste \($0)\n")
        }
        for run in runs {
            let status = try run.finish().status
            #expect(status == 0, "stderr: \(run.err)")
        }
        let lines = try paste.historyLines()
        #expect(lines.count == 20)
        let json = try paste.run(["--history", "--json"])
        #expect(json.status == 0)
        let records = try json.out.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == 20)
        let urls = Set(records.compactMap { $0["url"] as? String })
        #expect(urls.count == 20)
        #expect(records.allSatisfy { ($0["bytes"] as? Int) ?? 0 > 0 && (($0["sha256"] as? String)?.count == 64) })
        let mode =
            try FileManager.default.attributesOfItem(
                atPath: paste.home.stateHome.appendingPathComponent("paste/history").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("--history prints one line per paste: time, service, URL, size, title")
    func historyText() throws {
        let made = try paste.run(["--url", mock.url("/pastes/create"), "-q", "-t", "my title"], stdin: "twelve bytes")
        let url = made.out.trimmingCharacters(in: .newlines)
        let result = try paste.run(["--history"])
        #expect(result.status == 0)
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 1)
        let line = String(lines.first ?? "")
        #expect(line.hasSuffix("  127.0.0.1:\(mock.port)  \(url)  12 B  my title"), "\(line)")
        #expect(line.first?.isNumber == true)
    }

    @Test("--delete URL posts the stored token to a 0x0-style service; the paste and record go")
    func deleteWithToken() throws {
        try paste.writeConfig(Self.config(mock))
        let made = try paste.run(["-S", "null", "-q"], stdin: "delete me\n")
        #expect(made.status == 0, "stderr: \(made.err)")
        let url = made.out.trimmingCharacters(in: .newlines)
        let json = try paste.run(["--history", "--json"])
        #expect(json.out.contains("\"deletion_token\":\""))
        let deleted = try paste.run(["--delete", url])
        #expect(deleted.status == 0, "stderr: \(deleted.err)")
        #expect(deleted.err == "paste: deleted \(url)\n")
        let management = try #require(try mock.requests().last)
        #expect(management.method == "POST")
        #expect(management.path == URL(string: url)?.path)
        #expect(management.field("token")?.text?.isEmpty == false)
        #expect(try mock.pastes().isEmpty)
        #expect(try paste.historyLines().isEmpty)
    }

    @Test("--delete-last visits the stored removal URL of a pinnwand-style service")
    func deleteLastWithRemovalURL() throws {
        try paste.writeConfig(Self.config(mock))
        let first = try paste.run(["-S", "pinn", "-q"], stdin: "keep me\n")
        let second = try paste.run(["-S", "pinn", "-q"], stdin: "remove me\n")
        #expect(first.status == 0 && second.status == 0, "stderr: \(first.err) \(second.err)")
        let deleted = try paste.run(["--delete-last"])
        #expect(deleted.status == 0, "stderr: \(deleted.err)")
        let visit = try #require(try mock.requests().first { $0.path.hasPrefix("/remove/") })
        #expect(visit.method == "GET")
        let left = try mock.pastes()
        #expect(left.count == 1)
        #expect(left.first?.data == Data("keep me\n".utf8))
        #expect(try paste.historyLines().count == 1)
    }

    @Test("--delete of a URL not in history exits 66 with one line")
    func deleteUnknown() throws {
        let result = try paste.run(["--delete", "http://127.0.0.1:9/pastes/1"])
        #expect(result.status == 66)
        #expect(
            result.err
                == "paste: 'http://127.0.0.1:9/pastes/1' is not in the history; only pastes made here can be deleted\n")
    }

    @Test(
        "a paste sent later from the outbox (--retry, as the flush does) keeps its preview; one with a secret in its first line does not"
    )
    func previewFromOutbox() throws {
        try paste.writeConfig(pastieConfig(mock, isDefault: true))
        try mock.addFault(.status(503), count: 2, path: "/pastes/create")
        let texts = ["  sent later\nsecond line\n", "deploy key ghs_3NDW3yJlBItRVwqMGyqAE5bFE2qAQ20w2T04\n"]
        for text in texts {
            let failed = try paste.run(["--no-copy", "--force"], stdin: text)
            #expect(failed.status == 75, "stderr: \(failed.err)")
        }
        // The plain text goes with --retry; the guard holds the key until --force sends it.
        _ = try paste.run(["--retry"])
        let held = try #require(try paste.outboxIDs().first)
        let forced = try paste.run(["--outbox", "send", held, "--force"])
        #expect(forced.status == 0, "stderr: \(forced.err)")
        let records = try paste.historyLines().map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == 2)
        #expect(records.first?["preview"] as? String == "sent later")
        #expect(records.last?["preview"] == nil, "\(records)")
    }
}
