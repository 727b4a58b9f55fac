import Foundation
import Testing
import TestSupport

@Suite("--list-services: built-ins and configured services, text and JSON", .temporaryHome)
struct ServiceListTests: ScopedSuite {
    @Test("with no config: the built-ins, the default marked")
    func builtInsOnly() throws {
        let result = try paste.run(["--list-services"])
        #expect(result.status == 0)
        #expect(result.err == "")
        #expect(
            result.out == """
                * dpaste      https://dpaste.com/api/v2/  dpaste.com (public, expires in 7 days unless -e; bpa.st when it is down)
                  paste.rs    https://paste.rs/  paste.rs (unlisted, raw body)
                  termbin     tcp://termbin.com:9999  termbin.com (fiche over TCP, unlisted)
                  0x0         https://0x0.st  0x0.st (multipart file, deletable)
                  bpa.st      https://bpa.st/api/v1/paste  bpa.st (pinnwand JSON API, unlisted, deletable)
                  privatebin  https://privatebin.net/  privatebin.net (PrivateBin, encrypted before upload, unlisted, deletable)
                  gist        https://api.github.com/gists  GitHub gists (secret, a token needed, --update keeps one)
                  gitlab      https://gitlab.com/api/v4/snippets  GitLab snippets (private, a token needed, --update keeps one)
                  opengist    https://demo.opengist.io/api/gists  an Opengist instance (unlisted, a token needed, --update keeps one)

                """)
        let json = try paste.run(["--list-services", "--json"])
        #expect(json.status == 0)
        #expect(
            json.out == """
                {"name":"dpaste","url":"https://dpaste.com/api/v2/","format":"form","builtin":true,"default":true,"summary":"dpaste.com (public, expires in 7 days unless -e; bpa.st when it is down)"}
                {"name":"paste.rs","url":"https://paste.rs/","format":"raw","builtin":true,"default":false,"summary":"paste.rs (unlisted, raw body)"}
                {"name":"termbin","url":"tcp://termbin.com:9999","format":"tcp","builtin":true,"default":false,"summary":"termbin.com (fiche over TCP, unlisted)"}
                {"name":"0x0","url":"https://0x0.st","format":"multipart","builtin":true,"default":false,"summary":"0x0.st (multipart file, deletable)"}
                {"name":"bpa.st","url":"https://bpa.st/api/v1/paste","format":"json","builtin":true,"default":false,"summary":"bpa.st (pinnwand JSON API, unlisted, deletable)"}
                {"name":"privatebin","url":"https://privatebin.net/","format":"privatebin","builtin":true,"default":false,"summary":"privatebin.net (PrivateBin, encrypted before upload, unlisted, deletable)"}
                {"name":"gist","url":"https://api.github.com/gists","format":"json","builtin":true,"default":false,"summary":"GitHub gists (secret, a token needed, --update keeps one)"}
                {"name":"gitlab","url":"https://gitlab.com/api/v4/snippets","format":"json","builtin":true,"default":false,"summary":"GitLab snippets (private, a token needed, --update keeps one)"}
                {"name":"opengist","url":"https://demo.opengist.io/api/gists","format":"json","builtin":true,"default":false,"summary":"an Opengist instance (unlisted, a token needed, --update keeps one)"}

                """)
    }

    @Test("configured services follow; an overridden built-in stays in place and is no longer built-in")
    func configured() throws {
        var paste = paste
        let path = try paste.writeConfig(
            """
            [paste]
                service = work
            [service "dpaste"]
                url = http://dpaste.internal/api/v2/
            [service "work"]
                base = bpa.st
                url = https://paste.work.example/api/v1/paste
            [service "notes"]
                url = https://notes.example/new
                format = raw
                result = location
                summary = team notes
            """)
        let result = try paste.run(["--list-services"])
        #expect(result.status == 0)
        #expect(
            result.out == """
                  dpaste      http://dpaste.internal/api/v2/  dpaste.internal (dpaste's API); configured in \(path):3
                  paste.rs    https://paste.rs/  paste.rs (unlisted, raw body)
                  termbin     tcp://termbin.com:9999  termbin.com (fiche over TCP, unlisted)
                  0x0         https://0x0.st  0x0.st (multipart file, deletable)
                  bpa.st      https://bpa.st/api/v1/paste  bpa.st (pinnwand JSON API, unlisted, deletable)
                  privatebin  https://privatebin.net/  privatebin.net (PrivateBin, encrypted before upload, unlisted, deletable)
                  gist        https://api.github.com/gists  GitHub gists (secret, a token needed, --update keeps one)
                  gitlab      https://gitlab.com/api/v4/snippets  GitLab snippets (private, a token needed, --update keeps one)
                  opengist    https://demo.opengist.io/api/gists  an Opengist instance (unlisted, a token needed, --update keeps one)
                * work        https://paste.work.example/api/v1/paste  paste.work.example (bpa.st's API); configured in \(path):5
                  notes       https://notes.example/new  team notes

                """)
        paste.extraEnvironment["PASTE_SERVICE"] = "notes"
        let json = try paste.run(["--list-services", "--json"])
        let objects = try json.out.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(
            objects.map { $0["name"] as? String } == [
                "dpaste", "paste.rs", "termbin", "0x0", "bpa.st", "privatebin", "gist", "gitlab", "opengist", "work",
                "notes",
            ])
        #expect(
            objects.map { $0["builtin"] as? Bool } == [
                false, true, true, true, true, true, true, true, true, false, false,
            ])
        #expect(objects.map { $0["default"] as? Bool } == Array(repeating: false, count: 10) + [true])
        #expect(objects.last?["format"] as? String == "raw")
    }
}
