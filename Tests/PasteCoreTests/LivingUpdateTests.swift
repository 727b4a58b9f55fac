import Testing

@testable import PasteCore

/// How a service declares a living paste's update (`update-url` and its keys, issue 43 item 1).
@Suite("Living paste declarations: update-url, id, delete-url, built-ins")
struct LivingUpdateTests {
    @Test(
        "update URLs resolve against the create endpoint, {id} percent-encoded",
        arguments: [
            ("gists/{id}", "abc", "https://api.github.com/gists", "https://api.github.com/gists/abc"),
            (
                "snippets/{id}", "42", "https://gitlab.example/api/v4/snippets",
                "https://gitlab.example/api/v4/snippets/42"
            ),
            ("{id}", "status.txt", "http://127.0.0.1:8/rustypaste/", "http://127.0.0.1:8/rustypaste/status.txt"),
            ("/api/p/{id}", "a b/c", "https://h.example/x/y", "https://h.example/api/p/a%20b%2Fc"),
            ("https://other.example/{id}", "z", "https://h.example/", "https://other.example/z"),
        ])
    func resolves(_ template: String, _ id: String, _ base: String, _ expected: String) {
        #expect(LivingUpdate.resolve(template, id: id, against: base) == expected)
    }

    @Test("without an id rule, the id is the URL's last path segment")
    func idFromURL() {
        #expect(LivingUpdate.id(fromURL: "https://h.example/rustypaste/status.txt") == "status.txt")
        #expect(LivingUpdate.id(fromURL: "https://h.example/p/abc?raw=1#x") == "abc")
        #expect(LivingUpdate.id(fromURL: "https://h.example") == nil)
    }

    @Test("a [service \"gist\"] section that sets only url moves the update URL with it")
    func builtInMoved() throws {
        let text = """
            [service "gist"]
                url = https://ghe.example/api/v3/gists
                header = Authorization: Bearer ${cmd:gh auth token}

            """
        let configuration = try Configuration(file: ConfigFile(parsing: text, path: "/c"))
        let gist = try configuration.service(named: "gist")
        #expect(gist.canUpdate)
        #expect(gist.headers.count == 3)
        let update = gist.updatingProfile(LivingTarget(name: "n", id: "g1", url: "https://ghe.example/gist/g1"))
        #expect(update.url.raw == "https://ghe.example/api/v3/gists/g1")
        #expect(update.method == "PATCH")
        #expect(update.jsonTemplate?.raw == #"{"files": {"{filename}": {"content": "{content}"}}}"#)
        #expect(update.result == .template(Template(literal: "https://ghe.example/gist/g1")))
        #expect(update.living?.name == "n")
        // A first text goes with the create profile itself.
        let create = gist.updatingProfile(LivingTarget(name: "n"))
        #expect(create.url.raw == "https://ghe.example/api/v3/gists")
        #expect(create.method == "POST")
    }

    @Test("a configured service declares its update; one without cannot update")
    func declared() throws {
        let text = """
            [service "mine"]
                url = https://p.example/api/pastes
                format = json
                json = {"content": "{content}"}
                result = {json:/url}
                id = {json:/id}
                update-url = pastes/{id}
                update-method = put
                update-json = {"text": "{content}"}
                delete-url = pastes/{id}
            [service "rusty"]
                url = https://r.example/
                content-field = file
                result = body
                update = recreate
                delete-url = {id}
            [service "plain"]
                url = https://q.example/
                update-method = PUT

            """
        let configuration = try Configuration(file: ConfigFile(parsing: text, path: "/c"))
        let mine = try configuration.service(named: "mine")
        #expect(mine.canUpdate)
        #expect(mine.updating?.method == "PUT")
        #expect(mine.updating?.mode == .replace)
        #expect(try configuration.service(named: "rusty").canUpdate)
        #expect(try configuration.service(named: "rusty").updating?.mode == .recreate)
        #expect(!(try configuration.service(named: "plain").canUpdate))
        #expect(!BuiltInServices.dpaste.canUpdate)
        #expect(!BuiltInServices.privateBin.canUpdate)
        #expect(BuiltInServices.gitlab.canUpdate && BuiltInServices.opengist.canUpdate)
    }

    @Test(
        "bad update keys name the file, the line and what was expected",
        arguments: [
            ("update-url = pastes/{id}/{title}", "update-url"),
            ("update-url = ftp://x.example/{id}", "update-url"),
            ("update-method = DELETE", "update-method"),
            ("update = merge", "update"),
            ("id = 42", "id"),
        ])
    func badKeys(_ line: String, _ key: String) {
        let text = "[service \"s\"]\n    url = https://s.example/\n    \(line)\n"
        #expect(throws: ConfigError.self) { try Configuration(file: ConfigFile(parsing: text, path: "/c")) }
        do {
            _ = try Configuration(file: ConfigFile(parsing: text, path: "/c"))
        } catch {
            #expect(error.message.hasPrefix("/c:3: bad value"), "\(error.message)")
            #expect(error.message.contains("for '\(key)'"), "\(error.message)")
        }
    }
}
