import Foundation
import Testing
import TestSupport

@Suite("--dry-run: the exact request, secrets redacted, nothing sent", .temporaryHome, .mock)
struct DryRunTests: ScopedSuite {
    static let token = "tok-4f9a81c2e7"
    static let fileSecret = "key-from-a-file-77d0"
    static let urlSecret = "u-0c55aa"

    /// A runner with the secrets in its environment and a file, and a config that uses them.
    func setUp(service: String) throws -> PasteRunner {
        var paste = paste
        let keyFile = try paste.home.write(Self.fileSecret + "\n", to: "secret.key")
        paste.extraEnvironment["DRY_TOKEN"] = Self.token
        paste.extraEnvironment["DRY_URL_KEY"] = Self.urlSecret
        try paste.writeConfig(
            """
            [service "multi"]
                url = \(mock.url("/json"))?key=${env:DRY_URL_KEY}
                format = multipart
                content-field = file
                file-name = note.txt
                field = api_key=${file:\(keyFile)}
                field = kind=note
                title-field = title
                header = Authorization: Bearer ${env:DRY_TOKEN}
                header = X-Client: paste-tests
                header = Accept: application/json
                result = json:/data/url
            [service "js"]
                url = \(mock.url("/json"))
                format = json
                json = {"content": "{content}", "title": "{title:none}", "auth": "${env:DRY_TOKEN}"}
                result = json:/data/url
            [service "fm"]
                url = \(mock.url("/location"))
                format = form
                field = password=${file:\(keyFile)}
                result = location
            [paste]
                service = \(service)
            """)
        return paste
    }

    @Test("multipart: URL, headers and fields shown; secrets masked, a plain header value shown; nothing sent")
    func multipart() throws {
        let paste = try setUp(service: "multi")
        let result = try paste.run(["-n", "-t", "A title"], stdin: "dry text\n")
        #expect(result.status == 0)
        #expect(result.err == "")
        #expect(
            result.out == """
                POST \(mock.url("/json"))?key=[redacted]
                Authorization: Bearer [redacted]
                X-Client: paste-tests
                Accept: application/json
                Content-Type: multipart/form-data
                  file=<stdin, 9 bytes>; filename=note.txt; type=text/plain; charset=utf-8
                  api_key=[redacted]
                  kind=note
                  title=A title
                result: json:/data/url

                """)
        for secret in [Self.token, Self.fileSecret, Self.urlSecret] {
            #expect(!result.out.contains(secret))
        }
        #expect(try mock.requests().isEmpty)
        #expect(try paste.outboxContents().isEmpty)
        #expect(try paste.historyLines().isEmpty)
    }

    @Test("json: the body as it would go out, the content left out, secrets masked")
    func json() throws {
        let paste = try setUp(service: "js")
        let result = try paste.run(["--dry-run"], stdin: "dry \"json\"\n")
        #expect(result.status == 0)
        #expect(
            result.out == """
                POST \(mock.url("/json"))
                Content-Type: application/json
                  {"content": "<stdin, 11 bytes>", "title": "none", "auth": "[redacted]"}
                result: json:/data/url

                """)
        #expect(!result.out.contains(Self.token))
        #expect(try mock.requests().isEmpty)
    }

    @Test("form: every field in order, a file secret masked")
    func form() throws {
        let paste = try setUp(service: "fm")
        let file = try paste.home.write("from a file\n", to: "in.txt")
        let result = try paste.run(["--dry-run", "-f", file])
        #expect(result.status == 0)
        #expect(
            result.out == """
                POST \(mock.url("/location"))
                Content-Type: application/x-www-form-urlencoded
                  content=<'\(file)', 12 bytes>
                  password=[redacted]
                result: location

                """)
        #expect(!result.out.contains(Self.fileSecret))
        #expect(try mock.requests().isEmpty)
    }

    @Test("tcp: the endpoint and the content size", .mock(tcp: true))
    func tcp() throws {
        try paste.writeConfig("[service \"termbin\"]\nurl = tcp://127.0.0.1:\(mock.tcpPort ?? 0)\n")
        let file = try paste.home.write("tcp text\n", to: "t.txt")
        let result = try paste.run(["-n", "-S", "termbin", "-f", file])
        #expect(result.status == 0)
        #expect(result.out == "TCP tcp://127.0.0.1:\(mock.tcpPort ?? 0)\n  <'\(file)', 9 bytes>\nresult: body\n")
        #expect(try mock.requests().isEmpty)
    }

    @Test("an option the service cannot honour fails the dry run too (exit 64)")
    func refusedOption() throws {
        try paste.writeConfig("[service \"dpaste\"]\nurl = \(mock.url("/api/v2/"))\n")
        let result = try paste.run(["-n", "-p"], stdin: "x\n")
        #expect(result.status == 64)
        #expect(result.out == "")
        #expect(try mock.requests().isEmpty)
    }
}
