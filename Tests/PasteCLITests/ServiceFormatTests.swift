import Foundation
import Testing
import TestSupport

@Suite("Configured services: every request format and every result rule, end to end", .temporaryHome)
struct ServiceFormatTests: ScopedSuite {
    /// One configured service and what the mock must see.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// The `[service]` body; `MOCK` and `TCP` stand for the mock's base URL and TCP port.
        var keys: String
        var path: String
        var tcp = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "multipart + redirect (the classic pastie API)",
            keys: """
                url = MOCK/pastes/create
                format = multipart
                content-field = paste[body]
                field = paste[parser]=plaintext
                field = paste[authorization]=burger
                result = redirect
                """, path: "/pastes/create"),
        Case(
            name: "form + location",
            keys: """
                url = MOCK/location
                format = form
                content-field = text
                result = location
                """, path: "/location"),
        Case(
            name: "raw + body",
            keys: """
                url = MOCK/pasters/
                format = raw
                result = body
                """, path: "/pasters/"),
        Case(
            name: "json + json:/pointer",
            keys: """
                url = MOCK/json
                format = json
                json = {"content": "{content}", "meta": {"title": "{title:untitled}"}}
                result = json:/data/url
                """, path: "/json"),
        Case(
            name: "form + regex:RE",
            keys: """
                url = MOCK/sprunge/
                format = form
                content-field = sprunge
                result = regex:(nothing here)|(http://\\S+/pastes/[0-9]+)
                """, path: "/sprunge/"),
        Case(
            name: "tcp + body",
            keys: """
                url = tcp://127.0.0.1:TCP
                format = tcp
                result = body
                """, path: "", tcp: true),
    ]

    @Test("uploads, prints the URL, and the paste reads back byte-exact", arguments: cases)
    func roundTrip(_ item: Case) throws {
        let mock = try MockServer(tcp: item.tcp)
        let keys = item.keys.replacingOccurrences(of: "MOCK", with: mock.baseURL)
            .replacingOccurrences(of: "TCP", with: String(mock.tcpPort ?? 0))
        try paste.writeConfig("[service \"custom\"]\n" + keys + "\n")
        let result = try paste.run(["-S", "custom", "--no-copy"], stdin: awkwardText)
        #expect(result.status == 0)
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(result.out == url + "\n")
        let id = try #require(pasteID(url))
        #expect(url == mock.baseURL + (item.tcp ? "/t/\(id)" : "/pastes/\(id)"))
        #expect(try mock.rawPaste(id: id) == Data(awkwardText.utf8))
        let request = try #require(try mock.requests().first)
        if item.tcp {
            #expect(request.listener == "tcp")
        } else {
            #expect(request.path == item.path)
            #expect(request.method == "POST")
        }
    }

    @Test("method = PUT sends the raw body with PUT", .mock)
    func put() throws {
        try paste.writeConfig(
            """
            [service "putter"]
                url = \(mock.url("/pasters/"))
                format = raw
                method = PUT
                content-type = text/x-log
                result = body
            """)
        let result = try paste.run(["-S", "putter", "--no-copy"], stdin: "put me\n")
        // The mock's paste.rs route only takes POST: the 405 proves the method went out as PUT.
        #expect(result.status == 69)
        #expect(result.err.hasPrefix("paste: putter answered HTTP 405: method PUT not allowed on /pasters/\n"))
        let request = try #require(try mock.requests().first)
        #expect(request.method == "PUT")
        #expect(request.header("Content-Type") == "text/x-log")
        #expect(request.bodyData == Data("put me\n".utf8))
    }

    @Test(
        "an answer with no usable URL exits 69 with the status and a sanitized start of the body",
        .mock(arguments: ["--fault", "no-url"]))
    func noURL() throws {
        try paste.writeConfig(
            "[service \"s\"]\nurl = \(mock.url("/sprunge/"))\nformat = form\ncontent-field = sprunge\nresult = body\n")
        let result = try paste.run(["-S", "s", "--no-copy"], stdin: "lost?\n")
        #expect(result.status == 69)
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            result.err
                == "paste: s gave no paste URL (HTTP 200): Error error Something went wrong.\n"
                + keptLine(id: id, isHeld: true) + "\n")
        #expect(result.out == "")
        #expect(try paste.outboxContents() == [Data("lost?\n".utf8)])
    }

    @Test(
        "a JSON answer without the pointer exits 69 and shows the JSON",
        .mock(arguments: ["--fault", "no-url:format=json"]))
    func noURLInJSON() throws {
        try paste.writeConfig(
            "[service \"j\"]\nurl = \(mock.url("/json"))\nformat = json\njson = {\"content\": \"{content}\"}\nresult = json:/data/url\n"
        )
        let result = try paste.run(["-S", "j", "--no-copy"], stdin: "lost?\n")
        #expect(result.status == 69)
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            result.err
                == "paste: j gave no paste URL (HTTP 200): result = json:/data/url found nothing in the answer "
                + "'{\"error\":\"error\",\"status\":\"error\"}'\n"
                + keptLine(id: id, isHeld: true) + "\n")
    }

    @Test(
        "escape sequences in an error body never reach the terminal",
        .mock(arguments: ["--fault", "status:status=500,body=\u{1B}[2Jbad\u{07}thing"]))
    func hostileBody() throws {
        try paste.writeConfig("[service \"s\"]\nurl = \(mock.url("/pasters/"))\nformat = raw\nresult = body\n")
        let result = try paste.run(["-S", "s", "--no-copy"], stdin: "x\n")
        #expect(result.status == 69)
        #expect(result.err.hasPrefix("paste: s answered HTTP 500: bad thing\n"))
        #expect(!result.err.contains("\u{1B}"))
    }
}
