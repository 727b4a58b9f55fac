import Foundation
import Testing
import TestSupport

/// The recipes of paste-config(5), RECIPES, taken from the page itself (so the page cannot
/// drift from what works), each run against the paste-mock route shaped like that API.
@Suite("Recipes of paste-config(5) against mocks of the real APIs", .temporaryHome, .mock)
struct RecipeTests: ScopedSuite {
    /// The sections of the RECIPES section, by service name, as a config file has them.
    static func recipes() throws -> [String: String] {
        let page = try ManPage("man/paste-config.5")
        var result: [String: String] = [:]
        var block: [String]?
        for line in page.section("RECIPES") {
            if line == ".EX" {
                block = []
            } else if line == ".EE", let lines = block {
                let text = lines.joined(separator: "\n") + "\n"
                if let name = text.split(separator: "\"").dropFirst().first { result[String(name)] = text }
                block = nil
            } else if block != nil {
                block!.append(
                    line.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\e", with: "\\"))
            }
        }
        return result
    }

    /// One recipe: where its real host is replaced by the mock, and what must happen.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// The real address in the recipe and the mock address it becomes (`MOCK` is the base).
        var host: String
        var mockHost: String
        /// The URL printed, given the paste's stored token (`KEY`) and id (`ID`).
        var url: String
        var arguments: [String] = []
        var environment: [String: String] = [:]
        /// Headers the mock must have seen.
        var headers: [String: String] = [:]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "haste", host: "https://haste.example.org", mockHost: "MOCK", url: "MOCK/KEY"),
        Case(
            name: "wastebin", host: "https://wastebin.example.org/", mockHost: "MOCK/wastebin/",
            url: "MOCK/wastebin/KEY",
            arguments: ["-e", "10m", "-t", "notes"]),
        Case(
            name: "microbin", host: "https://microbin.example.org", mockHost: "MOCK/microbin",
            url: "MOCK/microbin/upload/KEY"),
        Case(
            name: "rustypaste", host: "https://rustypaste.example.org/", mockHost: "MOCK/rustypaste/",
            url: "MOCK/rustypaste/KEY.py", arguments: ["-e", "2h"], environment: ["RUSTYPASTE_TOKEN": "rusty-t0ken"],
            headers: ["Authorization": "rusty-t0ken", "expire": "1h"]),
        Case(
            name: "opengist", host: "https://opengist.example.org", mockHost: "MOCK", url: "MOCK/tester/KEY",
            environment: ["OPENGIST_TOKEN": "og_t0ken"], headers: ["Authorization": "Token og_t0ken"]),
        Case(
            name: "gist", host: "https://api.github.com", mockHost: "MOCK", url: "MOCK/gist/KEY",
            headers: ["Authorization": "Bearer fake-gh-t0ken", "Accept": "application/vnd.github+json"]),
        Case(
            name: "gitlab", host: "https://gitlab.com", mockHost: "MOCK", url: "MOCK/-/snippets/ID",
            environment: ["GITLAB_TOKEN": "glpat-t0ken"], headers: ["PRIVATE-TOKEN": "glpat-t0ken"]),
        Case(
            name: "sourcehut", host: "https://paste.sr.ht", mockHost: "MOCK", url: "MOCK/~tester/KEY",
            environment: ["SRHT_TOKEN": "srht-t0ken"], headers: ["Authorization": "Bearer srht-t0ken"]),
        Case(name: "pinnwand", host: "https://pinnwand.example.org", mockHost: "MOCK", url: "MOCK/pastes/ID"),
    ]

    @Test("paste-config(5) has a recipe for each service tested here, and no other")
    func everyRecipeTested() throws {
        #expect(try Self.recipes().keys.sorted() == Self.cases.map(\.name).sorted())
    }

    @Test("the recipe uploads a file: the URL has the API's shape and the text arrives byte-exact", arguments: cases)
    func recipe(_ item: Case) throws {
        var paste = paste
        let recipe = try #require(try Self.recipes()[item.name])
        let mockHost = item.mockHost.replacingOccurrences(of: "MOCK", with: mock.baseURL)
        try paste.writeConfig(recipe.replacingOccurrences(of: item.host, with: mockHost))
        // A stand-in for the GitHub command-line tool: prints a token for `gh auth token` only.
        let gh = try paste.home.write(
            "#!/bin/sh\n[ \"$*\" = \"auth token\" ] || exit 2\necho fake-gh-t0ken\n", to: "bin/gh", mode: 0o755)
        let bin = URL(fileURLWithPath: gh).deletingLastPathComponent().path
        paste.extraEnvironment["PATH"] = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for (name, value) in item.environment { paste.extraEnvironment[name] = value }
        let text = "def hello():\n    print(\"grüße {content} \\\\ & <b>\")\n"
        let file = try paste.home.write(text, to: "work/hello.py")

        let result = try paste.run(["-S", item.name, "-f", file, "--no-copy"] + item.arguments)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err == "")
        let stored = try #require(try mock.pastes().last)
        #expect(stored.data == Data(text.utf8))
        let url = item.url.replacingOccurrences(of: "MOCK", with: mock.baseURL)
            .replacingOccurrences(of: "KEY", with: stored.token ?? "?").replacingOccurrences(
                of: "ID", with: String(stored.id))
        #expect(result.out == url + "\n")
        let request = try #require(try mock.requests().first)
        for (name, value) in item.headers {
            #expect(request.header(name) == value, "header \(name)")
        }
        // Every recipe names the file after the -f file where the API has a name for it.
        if let filename = stored.filename ?? stored.field("filename")?.text ?? stored.field("file_path")?.text {
            #expect(filename == "hello.py")
        }
    }

    @Test("gitlab: snippets are private by default, so -p is honoured and nothing is published")
    func gitlabPrivate() throws {
        var paste = paste
        let recipe = try #require(try Self.recipes()["gitlab"])
        try paste.writeConfig(recipe.replacingOccurrences(of: "https://gitlab.com", with: mock.baseURL))
        paste.extraEnvironment["GITLAB_TOKEN"] = "glpat-t0ken"
        let result = try paste.run(["-S", "gitlab", "-p", "--no-copy"], stdin: "not for everyone\n")
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err == "")
        let body = try #require(try mock.requests().first?.bodyData)
        let json = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        #expect(json?["visibility"] as? String == "private")
    }

    @Test("paste-config(5) names the open-source dpaste's /api/, never dpaste.com's /api/v2/, for a self-hosted one")
    func selfHostedDpaste() throws {
        let page = try SourceTree.text("man/paste-config.5")
        #expect(page.contains("url = https://dpaste.internal.example/api/ "))
        #expect(!page.contains("dpaste.internal.example/api/v2/"))
        #expect(!page.contains("dpaste.example/api/v2/"))
    }

    @Test("wastebin: -e in seconds and -t in the JSON; without them, expires is null")
    func wastebinBody() throws {
        let recipe = try #require(try Self.recipes()["wastebin"])
        try paste.writeConfig(
            recipe.replacingOccurrences(of: "https://wastebin.example.org/", with: mock.url("/wastebin/")))
        #expect(try paste.run(["-S", "wastebin", "-e", "10m", "-t", "notes", "--no-copy"], stdin: "x\n").status == 0)
        #expect(try paste.run(["-S", "wastebin", "--no-copy"], stdin: "y\n").status == 0)
        let bodies = try mock.requests().map {
            try JSONSerialization.jsonObject(with: $0.bodyData ?? Data()) as? [String: Any]
        }
        #expect(bodies.count == 2)
        #expect(bodies.first??["expires"] as? Int == 600)
        #expect(bodies.first??["title"] as? String == "notes")
        #expect(bodies.last??["expires"] is NSNull)
    }

    @Test("gist: the token comes from `gh auth token`, run without a shell; a failing gh is exit 78, nothing sent")
    func gistToken() throws {
        var paste = paste
        let recipe = try #require(try Self.recipes()["gist"])
        try paste.writeConfig(recipe.replacingOccurrences(of: "https://api.github.com", with: mock.baseURL))
        let gh = try paste.home.write(
            "#!/bin/sh\necho 'not logged in: the token is hunter2' >&2\necho hunter2\nexit 4\n", to: "bin/gh",
            mode: 0o755)
        paste.extraEnvironment["PATH"] = URL(fileURLWithPath: gh).deletingLastPathComponent().path + ":/usr/bin:/bin"
        let result = try paste.run(["-S", "gist", "--no-copy"], stdin: "text\n")
        #expect(result.status == 78)
        #expect(result.err.hasPrefix("paste: \(paste.configPath):"))
        #expect(result.err.contains(": command 'gh auth token' exited with status 4\n"))
        #expect(!result.err.contains("hunter2"))
        #expect(try mock.requests().isEmpty)

        paste.extraEnvironment["PATH"] = "/nonexistent"
        let missing = try paste.run(["-S", "gist", "--no-copy"], stdin: "text\n")
        #expect(missing.status == 78)
        #expect(missing.err.contains(": command 'gh auth token' not found on PATH\n"))
        #expect(try mock.requests().isEmpty)
    }
}
