import Foundation
import Testing
import TestSupport

/// ShareX uploaders against servers as they answer today (issue 27 item 6): a JSON string for
/// a URL, text that is no URL, a 400 for an uploader written for an older API; and the
/// functions a section now spells too (`{random:…}`, `{base64:…}`, `{regex-group:…}`).
@Suite("ShareX uploaders, as their servers answer today", .temporaryHome, .mock)
struct ShareXAnswerTests: ScopedSuite {
    /// Writes a definition with the mock's address for `http://MOCK`, mode 0600.
    func install(_ json: String, as name: String) throws -> String {
        try paste.home.write(json.replacingOccurrences(of: "http://MOCK", with: mock.baseURL), to: "sxcu/\(name)")
    }

    @Test("an answer that is a JSON string (the open-source dpaste's format=json) is the URL it holds")
    func jsonStringAnswer() throws {
        let file = try install(
            #"{"Version": "15.0.0", "RequestURL": "http://MOCK/api/", "Body": "MultipartFormData", "Arguments": {"content": "{input}", "format": "json"}, "URL": ""}"#,
            as: "dpaste.sxcu")
        let result = try paste.run(["-S", file, "--no-copy"], stdin: "hello\n")
        #expect(result.err == "")
        #expect(result.status == 0)
        let id = try #require(pasteID(result.out))
        #expect(result.out == mock.url("/pastes/\(id)") + "\n")
        #expect(try mock.rawPaste(id: id) == Data("hello\n".utf8))
    }

    @Test("a result that is no URL is never printed or copied: 69, and the text is held in the outbox")
    func resultThatIsNoURL() throws {
        let file = try install(
            #"{"Version": "15.0.0", "RequestURL": "http://MOCK/sx/text", "Body": "MultipartFormData", "Arguments": {"text": "{input}"}, "URL": "<{response}>"}"#,
            as: "angle.sxcu")
        let result = try paste.run(["-S", file, "--no-copy"], stdin: "hello\n")
        #expect(result.status == 69)
        #expect(result.out == "")
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            result.err
                == "paste: \(file) gave an unusable URL: it holds '<', which no URL holds\n"
                + keptLine(id: id, isHeld: true) + "\n")
        #expect(try paste.historyLines().isEmpty)
    }

    @Test("a 400 from a service made from a ShareX uploader names the uploader's file")
    func httpErrorNamesTheFile() throws {
        // The mock finds no text in a field named `data`, and answers 400.
        let file = try install(
            #"{"Version": "12.4.1", "RequestURL": "http://MOCK/sx/text", "Body": "MultipartFormData", "Arguments": {"data": "$input$"}}"#,
            as: "2015.sxcu")
        try paste.writeConfig("[paste]\nretries = 0\n[service \"old\"]\nsxcu = \(file)\n")
        let result = try paste.run(["-S", "old", "--no-copy"], stdin: "hello\n")
        #expect(result.status == 69)
        #expect(result.out == "")
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            result.err
                == "paste: old (ShareX uploader '\(file)') answered HTTP 400: no content\n"
                + "paste: the text is held in the outbox (\(id)): the service refused it, so 'paste --retry' does not "
                + "send it again; 'paste --outbox send \(id)' sends it anyway, 'paste --outbox drop \(id)' drops it\n")
    }

    @Test("--import-sxcu prints {random:…}, {base64:…} and regex groups past the first, and the section sends the same")
    func functionsAsASection() throws {
        let file = try install(
            #"""
            {"Version": "15.0.0", "Name": "Functions", "RequestURL": "http://MOCK/sx/{random:html|html}",
             "Headers": {"Authorization": "Basic {base64:paste:s3cret}"}, "Body": "MultipartFormData",
             "Arguments": {"text": "{input}", "tag": "{random:a\\|b|a\\|b}"},
             "URL": "{regex:(class=\"link\" href=\")([^\"]+)|2}",
             "DeletionURL": "{regex:href=\"(/sx/(delete)/[a-z0-9]+)\"|1}"}
            """#, as: "functions.sxcu")
        let imported = try paste.run(["--import-sxcu", file])
        #expect(imported.err == "")
        #expect(imported.status == 0)
        #expect(
            imported.out == """
                # From the ShareX custom uploader \(file)
                [service "functions"]
                    url = \(mock.baseURL)/sx/{random:html|html}
                    format = multipart
                    field = text={content}
                    field = tag={random:a\\|b|a\\|b}
                    header = Authorization: Basic {base64:paste:s3cret}
                    result = {regex-group:2:(class="link" href=")([^"]+)}
                    deletion = {regex-group:1:href="(/sx/(delete)/[a-z0-9]+)"}

                """)
        var urls: [String] = []
        for service in [file, "functions"] {
            if service == "functions" { try paste.writeConfig(imported.out) }
            try mock.clearRequests()
            let result = try paste.run(["-S", service, "--no-copy", "--json"], stdin: "hello\n")
            #expect(result.err == "")
            #expect(result.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            let url = try #require(object["url"] as? String)
            let id = try #require(pasteID(url))
            #expect(url == mock.url("/pastes/\(id)"))
            let token = try #require(try mock.paste(id: id).token)
            #expect(object["deletion"] as? String == mock.url("/sx/delete/\(token)"))
            let request = try #require(try mock.requests().first)
            #expect(request.path == "/sx/html")
            #expect(request.header("Authorization") == "Basic " + Data("paste:s3cret".utf8).base64EncodedString())
            #expect(request.field("tag")?.text == "a|b")
            urls.append(url)
        }
        #expect(urls.count == 2)
    }
}
