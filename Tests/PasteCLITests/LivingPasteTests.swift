import Foundation
import Testing
import TestSupport

/// Living pastes (`paste --update NAME`, issue 43 item 1), end to end against paste-mock routes
/// that answer as the GitHub gist, GitLab snippet and Opengist APIs document, and a
/// rustypaste-style service that can only delete and make again.
@Suite("Living pastes: --update NAME", .temporaryHome, .mock)
struct LivingPasteTests: ScopedSuite {
    /// One API: its built-in's name, where the mock serves it, its token header (read through
    /// `${cmd:}`), and the shape of its URLs and update requests.
    struct API: Sendable, CustomTestStringConvertible {
        var service: String
        /// The create endpoint on the mock (`url = MOCK…`).
        var path: String
        /// The token's header line as configured, and the header the mock must see.
        var header: String
        var headerName: String
        var headerValue: String
        /// The page URL, `ID` the stored paste's token (or id, for GitLab).
        var page: String
        /// The update request: method and path.
        var updateMethod: String
        var updatePath: String
        var testDescription: String { service }
    }

    static let apis: [API] = [
        API(
            service: "gist", path: "/gists", header: "Authorization: Bearer ${cmd:printf gh-t0ken}",
            headerName: "Authorization", headerValue: "Bearer gh-t0ken", page: "/gist/ID", updateMethod: "PATCH",
            updatePath: "/gists/ID"),
        API(
            service: "gitlab", path: "/api/v4/snippets", header: "PRIVATE-TOKEN: ${cmd:printf glpat-t0ken}",
            headerName: "PRIVATE-TOKEN", headerValue: "glpat-t0ken", page: "/-/snippets/ID", updateMethod: "PUT",
            updatePath: "/api/v4/snippets/ID"),
        API(
            service: "opengist", path: "/api/gists", header: "Authorization: Token ${cmd:printf og-t0ken}",
            headerName: "Authorization", headerValue: "Token og-t0ken", page: "/tester/ID", updateMethod: "PATCH",
            updatePath: "/api/gists/ID"),
    ]

    /// A section that moves the built-in to the mock (only `url`) and gives its token.
    func section(_ api: API, url: String? = nil) -> String {
        "[service \"\(api.service)\"]\n    url = \(url ?? mock.url(api.path))\n    header = \(api.header)\n"
    }

    /// The stored paste's id as its URLs name it (GitLab: the number).
    func storedID(_ stored: MockStoredPaste, _ api: API) -> String {
        api.service == "gitlab" ? String(stored.id) : stored.token ?? "?"
    }

    @Test(
        "create, then three updates: one URL, the server holding the last text, the token from ${cmd:}", arguments: apis
    )
    func createAndUpdate(_ api: API) throws {
        try paste.writeConfig(section(api))
        var urls: [String] = []
        for text in ["first\n", "second\n", "third\n", "fourth\n"] {
            let result = try paste.run(["-S", api.service, "--update", "status", "--no-copy"], stdin: text)
            #expect(result.status == 0, "\(result.err)")
            #expect(result.err == "")
            urls.append(result.out)
        }
        let pastes = try mock.pastes()
        #expect(pastes.count == 1)
        let stored = try #require(pastes.first)
        #expect(stored.data == Data("fourth\n".utf8))
        #expect(stored.updates == 3)
        let id = storedID(stored, api)
        let page = mock.url(api.page.replacingOccurrences(of: "ID", with: id))
        #expect(urls == Array(repeating: page + "\n", count: 4))
        let requests = try mock.requests()
        #expect(try mock.fetch(url: page).body == Data("fourth\n".utf8))
        #expect(requests.map(\.method) == ["POST"] + Array(repeating: api.updateMethod, count: 3))
        #expect(requests.dropFirst().allSatisfy { $0.path == api.updatePath.replacingOccurrences(of: "ID", with: id) })
        for request in requests { #expect(request.header(api.headerName) == api.headerValue) }
        // The update's body is the API's own (GitHub's `files` map, GitLab's `files` actions).
        let body = try #require(requests.last?.bodyData)
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        if api.service == "gitlab" {
            let files = try #require(json["files"] as? [[String: Any]])
            #expect(files.first?["action"] as? String == "update")
            #expect(files.first?["file_path"] as? String == "paste.txt")
            #expect(files.first?["content"] as? String == "fourth\n")
        } else {
            let files = try #require(json["files"] as? [String: [String: Any]])
            #expect(files["paste.txt"]?["content"] as? String == "fourth\n")
        }
        // Later runs need no -S: the name remembers its service.
        let again = try paste.run(["--update", "status", "--no-copy", "--json"], stdin: "fifth\n")
        #expect(again.status == 0, "\(again.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: again.stdout) as? [String: Any])
        #expect(object["url"] as? String == page)
        #expect(object["living"] as? String == "status")
        #expect(object["updates"] as? Int == 4)
        #expect(object["recreated"] as? Bool == false)
        // --history: one line for the living paste, with its update count.
        let history = try paste.run(["--history"])
        #expect(history.status == 0)
        let lines = history.out.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasSuffix("  \(page)  6 B  living status, 4 updates") == true, "\(history.out)")
    }

    @Test("an update while the service is down waits in the outbox and collapses with the next one")
    func downThenCollapse() throws {
        let api = Self.apis[0]
        try paste.writeConfig(section(api))
        let made = try paste.run(["-S", "gist", "--update", "cron", "--no-copy"], stdin: "night 1\n")
        #expect(made.status == 0, "\(made.err)")
        // The same service at a port nobody listens on, no retries within the run.
        let down = try paste.home.write(
            "[paste]\n    retries = 0\n" + section(api, url: "http://127.0.0.1:1/gists"), to: "down.conf")
        let second = try paste.run(["--config", down, "--update", "cron", "--no-copy"], stdin: "night 2\n")
        #expect(second.status == 75)
        let firstID = try #require(try paste.outboxIDs().first)
        #expect(second.err.hasSuffix(keptLine(id: firstID, isHeld: false) + "\n"), "\(second.err)")
        let third = try paste.run(["--config", down, "--update", "cron", "--no-copy"], stdin: "night 3\n")
        #expect(third.status == 75)
        #expect(
            third.err.contains(
                "paste: outbox entry \(firstID) of living paste 'cron' is replaced by a newer text: dropped\n"))
        // Last writer wins: only the newest waits.
        #expect(try paste.outboxContents() == [Data("night 3\n".utf8)])
        // Never to another service, even one it falls back to: it waits for its own.
        #expect(try mock.requests().count == 1)
        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0, "\(retry.err)")
        #expect(retry.out == mock.url("/gist/\(try #require(try mock.pastes().first?.token))") + "\n")
        #expect(try mock.pastes().map(\.data) == [Data("night 3\n".utf8)])
        #expect(try mock.requests().map(\.method) == ["POST", "PATCH"])
        #expect(try paste.outboxContents().isEmpty)
    }

    @Test("a living paste never falls back to another service: it waits for its own")
    func noFallback() throws {
        let api = Self.apis[0]
        try paste.writeConfig(section(api))
        #expect(try paste.run(["-S", "gist", "--update", "fb", "--no-copy"], stdin: "one\n").status == 0)
        let down = try paste.home.write(
            "[paste]\n    retries = 0\n" + section(api, url: "http://127.0.0.1:1/gists")
                + "    fallback = spare\n[service \"spare\"]\n    url = \(mock.url("/pastes/create"))\n",
            to: "down.conf")
        let result = try paste.run(["--config", down, "--update", "fb", "--no-copy"], stdin: "two\n")
        #expect(result.status == 75)
        #expect(try mock.requests().count == 1)
        #expect(try paste.outboxContents() == [Data("two\n".utf8)])
    }

    @Test("kill -9 between the create and its record loses nothing and makes no second paste")
    func killedCreate() throws {
        let api = Self.apis[0]
        try paste.writeConfig(section(api))
        // The server makes the gist, then answers one byte a minute: the run is killed while it
        // waits for the answer, after the paste was made and before anything recorded it.
        try mock.addFault(.trickle(bytes: 1, seconds: 60), path: "/gists", method: "POST")
        let input = try paste.home.write("first\n", to: "first.txt")
        let process = try SpawnedProcess(
            BuiltProducts.path(of: "paste"), ["-S", "gist", "--update", "job", "--no-copy"],
            environment: paste.environment, standardInput: .handle(try #require(FileHandle(forReadingAtPath: input))))
        try waitUntil("the mock to make the gist", timeout: 30) { try mock.pastes().count == 1 }
        process.send(SIGKILL)
        #expect(process.wait(seconds: 30) != nil)
        try mock.clearFaults()

        let second = try paste.run(["--update", "job", "--no-copy"], stdin: "second\n")
        #expect(second.status == 75)
        let ids = try paste.outboxIDs()
        #expect(ids.count == 2)
        #expect(try paste.outboxStates() == ["held", "retryable"])
        #expect(
            second.err.hasPrefix(
                "paste: living paste 'job' is not made yet: its first text waits in outbox entry \(ids[0]) "
                    + "(the service may have made it; 'paste --outbox send \(ids[0])' sends it, "
                    + "'paste --outbox drop \(ids[0])' forgets it)\n"), "\(second.err)")
        #expect(try paste.outboxContents() == [Data("first\n".utf8), Data("second\n".utf8)])
        // --retry sends neither: the create is held, the update waits behind it.
        #expect(try paste.run(["--retry"]).status == 75)
        #expect(try mock.pastes().count == 1)
        #expect(try mock.requests().filter { $0.method == "POST" }.count == 1)
        #expect(try mock.requests().filter { $0.method == "PATCH" }.isEmpty)
    }

    @Test("a killed run that recorded the paste but kept its outbox entry: the entry is never sent again")
    func recordedButKept() throws {
        let api = Self.apis[0]
        try paste.writeConfig(section(api))
        #expect(try paste.run(["-S", "gist", "--update", "rec", "--no-copy"], stdin: "one\n").status == 0)
        // What a kill after the record and before the entry's removal leaves: the entry of the
        // text the server holds (its name is the record's `content_entry`).
        let living = paste.home.stateHome.appendingPathComponent("paste/living/rec.json")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: living)) as? [String: Any])
        let entry = try #require(record["content_entry"] as? String)
        let outbox = paste.home.stateHome.appendingPathComponent("paste/outbox")
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
        try Data("one\n".utf8).write(to: outbox.appendingPathComponent(entry + ".content"))
        let metadata =
            #"{"service":"gist","private":false,"created":"2026-01-01T00:00:00Z","state":"retryable","bytes":4,"#
            + #""attempts":1,"living":"rec","living_action":"create"}"#
        try Data(metadata.utf8).write(to: outbox.appendingPathComponent(entry + ".json"))
        #expect(try paste.outboxContents().count == 1)
        let retry = try paste.run(["--retry"])
        #expect(retry.status == 0, "\(retry.err)")
        #expect(retry.err.contains("of living paste 'rec' is replaced by a newer text: dropped"))
        #expect(try paste.outboxContents().isEmpty)
        #expect(try mock.requests().count == 1)
    }

    @Test("rustypaste-style: deleted and made again under the same name, the URL unchanged and said so")
    func recreate() throws {
        try paste.writeConfig(
            """
            [service "rusty"]
                url = \(mock.url("/rustypaste/"))
                format = multipart
                content-field = file
                header = filename: status.txt
                header = Authorization: ${cmd:printf rusty-t0ken}
                result = body
                update = recreate
                delete-url = {id}

            """)
        var outputs: [String] = []
        var errors: [String] = []
        for text in ["a\n", "b\n", "c\n"] {
            let result = try paste.run(["-S", "rusty", "--update", "r", "--no-copy"], stdin: text)
            #expect(result.status == 0, "\(result.err)")
            outputs.append(result.out)
            errors.append(result.err)
        }
        let url = mock.url("/rustypaste/status.txt")
        #expect(outputs == Array(repeating: url + "\n", count: 3))
        let said = "paste: living paste 'r' was made again at the same URL (rusty cannot replace a paste in place)\n"
        #expect(errors == ["", said, said])
        #expect(try mock.requests().map(\.method) == ["POST", "DELETE", "POST", "DELETE", "POST"])
        #expect(try mock.requests().filter { $0.method == "DELETE" }.allSatisfy { $0.path == "/rustypaste/status.txt" })
        #expect(try mock.pastes().map(\.data) == [Data("c\n".utf8)])
        #expect(try mock.fetch(url: url).body == Data("c\n".utf8))
    }

    @Test("-n shows the create, then the update request, and remembers nothing")
    func dryRun() throws {
        try paste.writeConfig(section(Self.apis[0]))
        let first = try paste.run(["-S", "gist", "--update", "n", "-n"], stdin: "one\n")
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.hasPrefix("POST \(mock.url("/gists"))\n"), "\(first.out)")
        let living = paste.home.stateHome.appendingPathComponent("paste/living/n.json")
        #expect(!FileManager.default.fileExists(atPath: living.path))
        #expect(try paste.run(["-S", "gist", "--update", "n", "--no-copy"], stdin: "one\n").status == 0)
        let id = try #require(try mock.pastes().first?.token)
        let update = try paste.run(["--update", "n", "-n"], stdin: "two\n")
        #expect(update.out.hasPrefix("PATCH \(mock.url("/gists/\(id)"))\n"), "\(update.out)")
        #expect(update.out.contains("Authorization: Bearer ***") || update.out.contains("Authorization: "))
        #expect(try mock.requests().count == 1)
    }

    @Test("a service that cannot update says so before anything is sent (64)")
    func cannotUpdate() throws {
        let result = try paste.run(["--url", mock.url("/pastes/create"), "--update", "x", "--no-copy"], stdin: "t\n")
        #expect(result.status == 64)
        let host = String(mock.baseURL.dropFirst("http://".count))
        #expect(
            result.err
                == "paste: service '\(host)' cannot honour --update (it cannot replace a paste in place); "
                + "nothing was uploaded\npaste: choose another service with -S (see 'paste --list-services')\n")
        #expect(try mock.requests().isEmpty)
        let bad = try paste.run(["--update", "../x", "--no-copy"], stdin: "t\n")
        #expect(bad.status == 64)
        #expect(bad.err.hasPrefix("paste: bad living paste name '../x': expected 1 to 64 of A-Z a-z 0-9 . _ -"))
    }

    @Test("--delete NAME deletes it on the service and forgets it; the next --update makes a new one")
    func deleteLiving() throws {
        let api = Self.apis[1]
        try paste.writeConfig(section(api))
        let made = try paste.run(["-S", "gitlab", "--update", "d", "--no-copy"], stdin: "one\n")
        #expect(made.status == 0, "\(made.err)")
        let deleted = try paste.run(["--delete", "d"])
        #expect(deleted.status == 0, "\(deleted.err)")
        #expect(deleted.err == "paste: deleted living paste 'd' (\(made.out.dropLast()))\n")
        #expect(try mock.pastes().isEmpty)
        #expect(try mock.requests().last?.method == "DELETE")
        #expect(try mock.requests().last?.header("PRIVATE-TOKEN") == "glpat-t0ken")
        #expect(try paste.historyLines().isEmpty)
        let again = try paste.run(["-S", "gitlab", "--update", "d", "--no-copy"], stdin: "two\n")
        #expect(again.status == 0)
        #expect(again.out != made.out)
    }

    @Test("the secret guard stops a living update as any paste: nothing is sent (77)")
    func guarded() throws {
        try paste.writeConfig(section(Self.apis[0]))
        #expect(try paste.run(["-S", "gist", "--update", "g", "--no-copy"], stdin: "fine\n").status == 0)
        let secret = "status\n  aws_access_key_id = AKIAY026A4N7VAPKLNWR\n"
        let result = try paste.run(["--update", "g", "--no-copy"], stdin: secret)
        #expect(result.status == 77, "\(result.err)")
        #expect(result.err.hasPrefix("paste: refusing to upload: it looks like it holds an AWS access key"))
        #expect(try paste.outboxContents().isEmpty)
        #expect(try mock.requests().count == 1)
        #expect(try mock.pastes().map(\.data) == [Data("fine\n".utf8)])
    }
}
