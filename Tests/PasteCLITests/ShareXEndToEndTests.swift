import Foundation
import Testing
import TestSupport

/// ShareX custom uploaders (`.sxcu`) of the styles real definitions have, run end to end
/// against paste-mock three ways: `-S FILE.sxcu`, `sxcu = FILE` in a section, and the section
/// `--import-sxcu` prints. All three must send the same requests.
@Suite("ShareX custom uploaders, end to end", .temporaryHome, .mock)
struct ShareXEndToEndTests: ScopedSuite {
    /// A definition from Fixtures/sharex and what its URL and request must look like.
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        /// The path the mock must see.
        var path: String
        /// The fields (multipart or form) the mock must see, name → value; `CONTENT` is the text.
        var fields: [String: String] = [:]
        /// Whether a deletion URL comes back.
        var hasDeletion = false
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(
            file: "multipart-body-url.sxcu", path: "/sx/text",
            fields: ["syntax": "text", "text": "CONTENT", "name": "paste.txt"]),
        Case(file: "json-data.sxcu", path: "/sx/json", hasDeletion: true),
        Case(file: "legacy-regexlist.sxcu", path: "/sx/html", fields: ["file": "CONTENT"], hasDeletion: true),
        Case(file: "responseurl.sxcu", path: "/sx/redirect", fields: ["text": "CONTENT", "title": "paste.txt"]),
        Case(file: "fileformname-f1.sxcu", path: "/sx/text", fields: ["expires": "1h", "f:1": "CONTENT"]),
    ]

    /// The text sent: quotes, a backslash, an ampersand, braces and non-ASCII, so escaping
    /// for JSON, forms and multipart all show.
    static let text = "say \"hi\" \\ & {input} <b>ü</b>\nsecond line\n"

    /// Writes the fixture with the mock's address filled in, mode 0600, and returns its path.
    static func install(_ file: String, mock: MockServer, in paste: PasteRunner) throws -> String {
        let source = try String(contentsOf: fixtures.appendingPathComponent("sharex/\(file)"), encoding: .utf8)
        return try paste.home.write(
            source.replacingOccurrences(of: "http://MOCK", with: mock.baseURL), to: "sxcu/\(file)")
    }

    /// What identifies a request, without what differs between two runs (boundaries, ports).
    static func shape(_ request: MockRecordedRequest) -> String {
        let headers = request.headers.filter {
            !["content-type", "content-length", "host"].contains($0[0].lowercased())
        }
        .map { "\($0[0]): \($0[1])" }
        let type = request.header("Content-Type")?.split(separator: ";").first.map(String.init) ?? "-"
        let fields = request.fields.map {
            "\($0.name)=\($0.text ?? "?") [\($0.filename ?? "-")] [\($0.contentType ?? "-")]"
        }
        return ([request.method + " " + request.target, "type " + type] + headers + fields + [request.body ?? ""])
            .joined(separator: "\n")
    }

    @Test(
        "-S FILE.sxcu, sxcu = FILE and the imported section send the same request and print the same URL",
        arguments: cases)
    func threeWays(_ item: Case) throws {
        let file = try Self.install(item.file, mock: mock, in: paste)

        // 1. -S FILE.sxcu
        let direct = try paste.run(["-S", file, "--no-copy", "--json"], stdin: Self.text)
        #expect(direct.status == 0, "\(direct.err)")
        #expect(direct.err == "")
        let object = try #require(try JSONSerialization.jsonObject(with: direct.stdout) as? [String: Any])
        let url = try #require(object["url"] as? String)
        let id = try #require(pasteID(url))
        #expect(url == mock.url("/pastes/\(id)"))
        #expect(try mock.rawPaste(id: id) == Data(Self.text.utf8))
        if item.hasDeletion {
            let deletion = try #require(object["deletion"] as? String)
            let token = try #require(try mock.paste(id: id).token)
            #expect(deletion == mock.url("/sx/delete/\(token)"))
        } else {
            #expect(object["deletion"] is NSNull)
        }
        let first = try #require(try mock.requests().first)
        #expect(first.path == item.path)
        for (name, value) in item.fields {
            #expect(
                first.field(name)?.text == (value == "CONTENT" ? Self.text : value), "field \(name) of \(item.file)")
        }

        // 2. sxcu = FILE in a section
        try mock.clearRequests()
        try paste.writeConfig("[service \"from-file\"]\n    sxcu = \(file)\n")
        let configured = try paste.run(["-S", "from-file", "--no-copy"], stdin: Self.text)
        #expect(configured.status == 0, "\(configured.err)")
        #expect(pasteID(configured.out) != nil)
        let second = try #require(try mock.requests().first)

        // 3. The section --import-sxcu prints
        try mock.clearRequests()
        let imported = try paste.run(["--import-sxcu", file])
        #expect(imported.status == 0, "\(imported.err)")
        #expect(imported.err == "")
        try paste.writeConfig(imported.out)
        let name = try #require(
            imported.out.split(separator: "\n").first { $0.hasPrefix("[service") }.flatMap {
                $0.split(separator: "\"").dropFirst().first.map(String.init)
            })
        let viaSection = try paste.run(["-S", name, "--no-copy"], stdin: Self.text)
        #expect(viaSection.status == 0, "\(viaSection.err)\n\(imported.out)")
        #expect(pasteID(viaSection.out) != nil)
        let third = try #require(try mock.requests().first)

        #expect(Self.shape(second) == Self.shape(first))
        #expect(Self.shape(third) == Self.shape(first), "section:\n\(imported.out)")
    }

    @Test("a JSON Data body is JSON-escaped; {filename} is the -f file's name")
    func jsonBody() throws {
        let file = try Self.install("json-data.sxcu", mock: mock, in: paste)
        let notes = try paste.home.write(Self.text, to: "notes \"v2\".md")
        let result = try paste.run(["-S", file, "-f", notes, "--no-copy"])
        #expect(result.status == 0, "\(result.err)")
        let request = try #require(try mock.requests().first)
        #expect(request.target == "/sx/json?v=2")
        #expect(request.header("X-Client") == "paste-test")
        #expect(request.header("Content-Type") == "application/json")
        let sent = try #require(try JSONSerialization.jsonObject(with: request.bodyData ?? Data()) as? [String: String])
        #expect(sent == ["text": Self.text, "name": "notes \"v2\".md", "keep": "{random:a|b}"])
    }

    // MARK: - Bad definitions

    /// A definition that must be refused, and the one line that says why.
    struct Bad: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var status: Int32
        /// The message after `paste: 'FILE'` (or the whole message when it names the file first).
        var message: String
        var testDescription: String { name }
    }

    static let bad: [Bad] = [
        Bad(
            name: "not JSON", json: "{\"Version\": \"15.0.0\",\n  \"RequestURL\": }", status: 78,
            message: "'FILE' is not a ShareX uploader: not JSON (line 2: expected a value)"),
        Bad(
            name: "too old", json: #"{"Version": "12.3.1", "RequestURL": "http://x/"}"#, status: 78,
            message: "'FILE': ShareX 12.3.1 definitions are not supported (ShareX 12.4 or later)"),
        Bad(
            name: "unknown Body", json: #"{"Version": "15.0.0", "RequestURL": "http://x/", "Body": "Yaml"}"#,
            status: 78,
            message:
                "'FILE': bad Body 'Yaml': expected None, MultipartFormData, FormURLEncoded, JSON, XML or Binary"),
        Bad(
            name: "unknown function",
            json:
                #"{"Version": "15.0.0", "RequestURL": "http://x/", "Body": "JSON", "Data": "{input}", "URL": "{jsn:a}"}"#,
            status: 78, message: "'FILE': URL uses unknown function 'jsn'"),
        Bad(
            name: "a regex that does not compile",
            json:
                #"{"Version": "15.0.0", "RequestURL": "http://x/", "Body": "JSON", "Data": "{input}", "URL": "{regex:a(b}"}"#,
            status: 78, message: "'FILE': URL: regular expression 'a(b' cannot be used: "),
        Bad(
            name: "a JSON Data body that is not JSON",
            json: #"{"Version": "15.0.0", "RequestURL": "http://x/", "Body": "JSON", "Data": "{\"text\": {input}}"}"#,
            status: 78,
            message: "'FILE': Data: not valid JSON once filled (template line 1: expected a value)"),
        Bad(
            name: "an image uploader",
            json:
                #"{"Version": "15.0.0", "DestinationType": "ImageUploader", "RequestURL": "http://x/", "Body": "MultipartFormData", "FileFormName": "f"}"#,
            status: 65,
            message:
                "service 'FILE' takes images only, not text, so nothing was uploaded: name a service that takes text "
                + "with -S NAME"),
        Bad(
            name: "nothing carries the text",
            json:
                #"{"Version": "15.0.0", "RequestURL": "http://x/", "Body": "FormURLEncoded", "Arguments": {"a": "b"}}"#,
            status: 65, message: "'FILE' cannot send text: no Argument holds {input}"),
    ]

    @Test("a definition that cannot be used is one line naming the file and why; nothing is sent", arguments: bad)
    func refused(_ item: Bad) throws {
        let file = try paste.home.write(
            item.json.replacingOccurrences(of: "http://x/", with: mock.url("/sx/text")), to: "bad.sxcu")
        let result = try paste.run(["-S", file, "--no-copy"], stdin: "text\n")
        #expect(result.status == item.status)
        let expected = "paste: " + item.message.replacingOccurrences(of: "FILE", with: file)
        #expect(result.err.hasPrefix(expected), "\(result.err)")
        #expect(result.err.split(separator: "\n").count <= 2)
        #expect(try mock.requests().isEmpty)
        if item.status == 78 {
            // --import-sxcu refuses it the same way, and prints nothing.
            let imported = try paste.run(["--import-sxcu", file])
            #expect(imported.status == 78)
            #expect(imported.out == "")
            #expect(imported.err.hasPrefix(expected))
        }
    }

    @Test("--import-sxcu names the one feature a section cannot express, with status 65")
    func inexpressible() throws {
        let file = try paste.home.write(
            #"{"Version": "15.0.0", "RequestURL": "https://a.example/up", "Body": "MultipartFormData", "FileFormName": "file", "URL": "{json:{header:X-Data}|url}"}"#,
            to: "choice.sxcu")
        let result = try paste.run(["--import-sxcu", file])
        #expect(result.status == 65)
        #expect(result.out == "")
        #expect(
            result.err
                == "paste: '\(file)' cannot be written as a [service] section: it uses {json:…} over text other than the answer; use it with 'sxcu = \(file)'\n"
        )
    }

    @Test("{prompt:…} with no display stops before anything is sent, saying why")
    func promptWithoutDisplay() throws {
        let file = try paste.home.write(
            #"{"Version": "15.0.0", "RequestURL": "http://MOCK/sx/text", "Body": "MultipartFormData", "Arguments": {"title": "{prompt:Title of the paste}", "text": "{input}"}}"#
                .replacingOccurrences(of: "http://MOCK", with: mock.baseURL), to: "ask.sxcu")
        let result = try paste.run(["-S", file, "--no-copy"], stdin: "text\n")
        #expect(result.status == 69)
        #expect(
            result.err
                == "paste: the service asks 'Title of the paste' in a window, and no window can be shown; nothing was uploaded\n"
        )
        #expect(try mock.requests().isEmpty)
    }

    @Test("a definition holding a literal credential must not be readable by others")
    func readableCredential() throws {
        let file = try paste.home.write(
            #"{"Version": "15.0.0", "RequestURL": "http://MOCK/sx/text", "Headers": {"Authorization": "Bearer s3cr3t-t0ken"}, "Body": "MultipartFormData", "FileFormName": "file"}"#
                .replacingOccurrences(of: "http://MOCK", with: mock.baseURL), to: "key.sxcu", mode: 0o644)
        let result = try paste.run(["-S", file, "--no-copy"], stdin: "text\n")
        #expect(result.status == 78)
        #expect(
            result.err
                == "paste: '\(file)' holds a literal credential (header 'Authorization') but others can read it (mode 644)\n"
                + "paste: run 'chmod 600 \(file)'\n")
        #expect(try mock.requests().isEmpty)
        #expect(chmod(file, 0o600) == 0)
        let fixed = try paste.run(["-S", file, "--no-copy"], stdin: "text\n")
        #expect(fixed.status == 0, "\(fixed.err)")
        #expect(try mock.requests().first?.header("Authorization") == "Bearer s3cr3t-t0ken")
    }
}
