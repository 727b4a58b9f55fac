import Foundation
import Testing
import TestSupport

/// Text that catches encoders that are not byte-exact: UTF-8 of several widths, CRLF, quotes,
/// backslashes, form and JSON metacharacters, no trailing newline.
let awkwardText = "grüße 日本語 🎉\r\n\"quoted\" \\back\\slash & a=b+c %20 {content}\n\ttab\nno newline at the end"

/// The SHA-256 of `data`, by coreutils' sha256sum (independent of paste's own SHA256).
func sha256sum(_ data: Data) throws -> String {
    let result = try runProcess("/usr/bin/sha256sum", ["-"], input: .bytes(data))
    return String(result.out.prefix(64))
}

@Suite("Built-in services, each against a mock of its API", .temporaryHome, .mock)
struct ServiceBuiltInTests: ScopedSuite {
    @Test("dpaste: the default service; form fields content, title, syntax, expiry_days; URL from the body")
    func dpaste() throws {
        // A section named like a built-in inherits it: only the URL changes. (Chosen: with
        // nothing chosen paste asks first, ConsentTests.)
        try paste.writeConfig(
            "[paste]\n    service = dpaste\n[service \"dpaste\"]\n    url = \(mock.url("/api/v2/"))\n")
        let result = try paste.run(["-t", "My title", "-l", "python", "-e", "2d", "--no-copy"], stdin: awkwardText)
        #expect(result.status == 0)
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(result.out == url + "\n")
        #expect(url.hasPrefix(mock.baseURL + "/pastes/"))
        #expect(try fetch(url + ".txt") == Data(awkwardText.utf8))
        let request = try #require(try mock.requests().first)
        #expect(request.path == "/api/v2/")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.fields.map(\.name) == ["content", "title", "syntax", "expiry_days"])
        #expect(request.field("content")?.text == awkwardText)
        #expect(request.field("title")?.text == "My title")
        #expect(request.field("syntax")?.text == "python")
        #expect(request.field("expiry_days")?.text == "2")
    }

    @Test("dpaste cannot make a private paste: -p exits 64 and nothing is sent")
    func dpastePrivate() throws {
        try paste.writeConfig("[service \"dpaste\"]\n    url = \(mock.url("/api/v2/"))\n")
        let result = try paste.run(["-p", "--no-copy"], stdin: "private please\n")
        #expect(result.status == 64)
        #expect(
            result.err
                == "paste: service 'dpaste' cannot honour a private paste (-p); nothing was uploaded\n"
                + "paste: choose another service with -S (see 'paste --list-services')\n")
        #expect(result.out == "")
        #expect(try mock.requests().isEmpty)
        #expect(try paste.outboxContents().isEmpty)
    }

    @Test("paste.rs: the raw body is the paste; -p is honoured (unlisted), -t is refused")
    func pasteRS() throws {
        try paste.writeConfig("[service \"paste.rs\"]\n    url = \(mock.url("/pasters/"))\n")
        let result = try paste.run(["-S", "paste.rs", "-p", "--no-copy"], stdin: awkwardText)
        #expect(result.status == 0)
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix(mock.baseURL + "/pastes/"))
        #expect(try fetch(url + ".txt") == Data(awkwardText.utf8))
        let request = try #require(try mock.requests().first)
        #expect(request.path == "/pasters/")
        #expect(request.bodyData == Data(awkwardText.utf8))
        #expect(request.header("Content-Type") == "text/plain; charset=utf-8")

        try mock.clearRequests()
        let titled = try paste.run(["-S", "paste.rs", "-t", "no titles here", "--no-copy"], stdin: "x\n")
        #expect(titled.status == 64)
        #expect(
            titled.err
                == "paste: service 'paste.rs' cannot honour a title (-t); nothing was uploaded\n"
                + "paste: choose another service with -S (see 'paste --list-services')\n")
        #expect(try mock.requests().isEmpty)
    }

    @Test("termbin: the content goes over TCP, the URL line comes back; -e is refused", .mock(tcp: true))
    func termbin() throws {
        let tcpPort = try #require(mock.tcpPort)
        try paste.writeConfig("[service \"termbin\"]\n    url = tcp://127.0.0.1:\(tcpPort)\n")
        let result = try paste.run(["-S", "termbin", "-p", "--no-copy"], stdin: awkwardText)
        #expect(result.status == 0)
        #expect(result.err == "")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix(mock.baseURL + "/t/"))
        #expect(try fetch(url) == Data(awkwardText.utf8))
        let request = try #require(try mock.requests().first)
        #expect(request.listener == "tcp")

        try mock.clearRequests()
        let expiring = try paste.run(["-S", "termbin", "-e", "1h", "--no-copy"], stdin: "x\n")
        #expect(expiring.status == 64)
        #expect(expiring.err.hasPrefix("paste: service 'termbin' cannot honour an expiry (-e); nothing was uploaded\n"))
        #expect(try mock.requests().isEmpty)
    }

    @Test("0x0: multipart file, secret for -p, expires in hours, deletion token from X-Token")
    func nullPointer() throws {
        try paste.writeConfig("[service \"0x0\"]\n    url = \(mock.url("/0x0/"))\n")
        let result = try paste.run(["-S", "0x0", "-p", "-e", "3h", "--json", "--no-copy"], stdin: awkwardText)
        #expect(result.status == 0)
        #expect(result.err == "")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let url = try #require(object["url"] as? String)
        // A secret paste gets an unguessable path segment.
        #expect(url.hasPrefix(mock.baseURL + "/0x0/s/"))
        #expect(try fetch(url) == Data(awkwardText.utf8))
        let stored = try mock.paste(id: try #require(pasteID(url.replacingOccurrences(of: ".txt", with: ""))))
        #expect(object["deletion"] as? String == stored.token)
        let request = try #require(try mock.requests().first)
        #expect(request.header("Content-Type")?.hasPrefix("multipart/form-data") == true)
        #expect(request.fields.map(\.name) == ["file", "secret", "expires"])
        #expect(request.field("file")?.filename == "paste.txt")
        #expect(request.field("file")?.data == Data(awkwardText.utf8))
        #expect(request.field("expires")?.text == "3")
    }

    @Test("privatebin: encrypted JSON to the instance's root, the key in the link; -p is honoured (unlisted)")
    func privateBin() throws {
        // A section named like the built-in self-hosts it: only the URL changes.
        try paste.writeConfig("[service \"privatebin\"]\n    url = \(mock.url("/privatebin/"))\n")
        let result = try paste.run(["-S", "privatebin", "-p", "--no-copy"], stdin: awkwardText)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let stored = try #require(try mock.pastes().first)
        let id = try #require(stored.field("pasteid")?.text)
        #expect(result.out.hasPrefix(mock.url("/privatebin/?\(id)#")))
        #expect(stored.data?.range(of: Data(awkwardText.utf8)) == nil)
        let request = try #require(try mock.requests().first)
        #expect(request.header("X-Requested-With") == "JSONHttpRequest")
        #expect(request.header("Content-Type") == "application/json")
        // Decryption by an independent client: PrivateBinEndToEndTests.
    }

    @Test("bpa.st (pinnwand): a JSON body with name, lexer, expiry; link and removal from the answer")
    func bpaST() throws {
        try paste.writeConfig("[service \"bpa.st\"]\n    url = \(mock.url("/api/v1/paste"))\n")
        let result = try paste.run(
            ["-S", "bpa.st", "-t", "notes.txt", "-l", "rust", "-e", "10d", "--json", "--no-copy"], stdin: awkwardText)
        #expect(result.status == 0)
        #expect(result.err == "")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let url = try #require(object["url"] as? String)
        #expect(try fetch(url + ".txt") == Data(awkwardText.utf8))
        let stored = try mock.paste(id: try #require(pasteID(url)))
        #expect(object["deletion"] as? String == mock.url("/remove/") + (stored.token ?? "?"))
        let request = try #require(try mock.requests().first)
        #expect(request.header("Content-Type") == "application/json")
        let body = try #require(request.bodyData)
        let sent = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        // The longest offered expiry that does not outlive 10 days.
        #expect(sent["expiry"] as? String == "1week")
        let file = try #require((sent["files"] as? [[String: Any]])?.first)
        #expect(file["name"] as? String == "notes.txt")
        #expect(file["lexer"] as? String == "rust")
        #expect(file["content"] as? String == awkwardText)
    }

    @Test("bpa.st refuses an expiry shorter than its shortest choice, sending nothing")
    func bpaSTShortExpiry() throws {
        try paste.writeConfig("[service \"bpa.st\"]\n    url = \(mock.url("/api/v1/paste"))\n")
        let result = try paste.run(["-S", "bpa.st", "-e", "1h", "--no-copy"], stdin: "short-lived\n")
        #expect(result.status == 64)
        #expect(
            result.err
                == "paste: service 'bpa.st' cannot expire a paste within 3600s (shortest: 1day); nothing was uploaded\n"
        )
        #expect(try mock.requests().isEmpty)
    }

    @Test("a section named like a built-in keeps the built-in's other keys and may add its own")
    func inheritance() throws {
        try paste.writeConfig(
            """
            [paste]
                service = dpaste
            [service "dpaste"]
                url = \(mock.url("/api/v2/"))
                field = poster=paste-tests
            """)
        let result = try paste.run(["-l", "c", "--no-copy"], stdin: "int main;\n")
        #expect(result.status == 0)
        let request = try #require(try mock.requests().first)
        #expect(request.fields.map(\.name) == ["content", "poster", "syntax"])
        #expect(request.field("poster")?.text == "paste-tests")
    }
}
