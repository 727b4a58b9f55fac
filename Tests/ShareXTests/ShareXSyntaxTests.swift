import Testing

@testable import PasteCore
@testable import ShareX

@Suite("ShareX definitions: both syntaxes, JSONPath, and what a definition becomes")
struct ShareXSyntaxTests {
    func setting(_ side: ShareXSyntax.Side, legacy: Bool = false, regexList: [String] = []) -> ShareXSyntax.Setting {
        ShareXSyntax.Setting(file: "x.sxcu", key: "URL", side: side, isLegacy: legacy, regexList: regexList)
    }

    func profile(_ json: String) throws -> ServiceProfile {
        try ShareXUploader.makeProfile(try OrderedJSON(parsing: json), file: "x.sxcu")
    }

    @Test("current syntax: functions nest, parameters split at |, \\ escapes, names ignore case")
    func current() throws {
        let template = try ShareXSyntax.parse(
            #"https://{random:a.example|b.example}/{JSON:files[0].url}?k={base64:{prompt:User}:pw}\{x\}"#,
            setting(.answer))
        #expect(
            template.parts == [
                .literal("https://"),
                .random([Template(literal: "a.example"), Template(literal: "b.example")]),
                .literal("/"), .answer(.json(pointer: "/files/0/url", input: nil)), .literal("?k="),
                .base64(Template([.prompt(title: Template(literal: "User"), initial: Template([])), .literal(":pw")])),
                .literal("{x}"),
            ])
        #expect(
            try ShareXSyntax.parse("{regex:{response}|id=(\\d+)|1}", setting(.answer)).parts == [
                .answer(.regex(pattern: "id=(\\d+)", group: .firstParticipating, input: Template([.answer(.body)])))
            ])
        // A regex keeps a backslash before what is not ShareX syntax (`\s`, `\.`); `\\d` (ShareX's
        // own spelling) and `\|` read as ShareX reads them (issue 40, item 5).
        #expect(
            try ShareXSyntax.parse(#"{regex:https?:\/\/\S+\.txt}"#, setting(.answer)).parts == [
                .answer(.regex(pattern: #"https?:\/\/\S+\.txt"#, group: .firstParticipating, input: nil))
            ])
        #expect(
            try ShareXSyntax.parse(#"{regex:a\\d\|b}"#, setting(.answer)).parts == [
                .answer(.regex(pattern: #"a\d|b"#, group: .firstParticipating, input: nil))
            ])
        // Elsewhere ShareX's escaping is unchanged: `\s` is `s`.
        #expect(try ShareXSyntax.parse(#"x\sy"#, setting(.answer)).parts == [.literal("xsy")])
    }

    @Test("legacy syntax: $name:value$, RegexList by number with a group, | and , separators")
    func legacy() throws {
        let list = [#""url":"(.+?)""#, #"(?<=href=")[^"]+"#, #"(?<id>[0-9]+)-(x)"#]
        let legacy = setting(.answer, legacy: true, regexList: list)
        #expect(
            try ShareXSyntax.parse("$regex:1|1$", legacy).parts == [
                .answer(.regex(pattern: list[0], group: .firstParticipating, input: nil))
            ])
        #expect(
            try ShareXSyntax.parse("$regex:2$", legacy).parts == [
                .answer(.regex(pattern: list[1], group: .firstParticipating, input: nil))
            ])
        #expect(
            try ShareXSyntax.parse("$regex:3,2$/$regex:3|id$", legacy).parts == [
                .answer(.regex(pattern: list[2], group: .number(2), input: nil)), .literal("/"),
                .answer(.regex(pattern: list[2], group: .name("id"), input: nil)),
            ])
        #expect(
            try ShareXSyntax.parse(#"https://h/$json:data.id$?\$=$responseurl$ {x}"#, legacy).parts == [
                .literal("https://h/"), .answer(.json(pointer: "/data/id", input: nil)), .literal("?$="),
                .answer(.url), .literal(" {x}"),
            ])
        #expect(throws: ShareXError.self) { try ShareXSyntax.parse("$regex:4$", legacy) }
        #expect(throws: ShareXError.self) { try ShareXSyntax.parse("$json:a", legacy) }
        #expect(throws: ShareXError.unknownFunction(file: "x.sxcu", key: "URL", name: "nope")) {
            try ShareXSyntax.parse("$nope$", legacy)
        }
    }

    @Test("ShareX's JSONPath subset as JSON pointers; the rest refused")
    func jsonPath() throws {
        let answer = setting(.answer)
        #expect(try ShareXSyntax.jsonPointer(fromPath: "url", answer) == "/url")
        #expect(try ShareXSyntax.jsonPointer(fromPath: "$.data.files[0].url", answer) == "/data/files/0/url")
        #expect(try ShareXSyntax.jsonPointer(fromPath: "data['a b'][\"c/d\"]", answer) == "/data/a b/c~1d")
        for bad in ["$..url", "files[*].url", "files[?(@.x)]", "a[1:2]"] {
            #expect(throws: ShareXError.self) { try ShareXSyntax.jsonPointer(fromPath: bad, answer) }
        }
    }

    @Test("a request-side function that reads the answer is refused")
    func answerInRequest() {
        #expect(throws: ShareXError.self) { try ShareXSyntax.parse("{json:a}", setting(.request)) }
        #expect(throws: ShareXError.self) { try ShareXSyntax.parse("{input}", setting(.answer)) }
    }

    @Test("current Data replaces only {input} and {filename}; legacy Data parses every function")
    func data() throws {
        #expect(
            try ShareXSyntax.parseData(#"{"t": "{INPUT}", "n": "{filename}", "r": "{random:a|b}"}"#, setting(.request))
                .parts
                == [
                    .literal(#"{"t": ""#), .placeholder(.content, fallback: nil), .literal(#"", "n": ""#),
                    .placeholder(.filename, fallback: nil), .literal(#"", "r": "{random:a|b}"}"#),
                ])
        #expect(
            try ShareXSyntax.parseData(#"{"t": "$input$"}"#, setting(.request, legacy: true)).parts == [
                .literal(#"{"t": ""#), .placeholder(.content, fallback: nil), .literal(#""}"#),
            ])
    }

    @Test("a definition: query moved out of RequestURL, https:// added, methods, body kinds, destinations")
    func definition() throws {
        let multipart = try profile(
            #"""
            {"version": "14.0.0", "requestmethod": "put", "RequestURL": "up.example/u?key=a%20b&flag",
             "Parameters": {"key": "kept", "t": "{filename}"}, "Body": "MultipartFormData",
             "Arguments": {"a": "1", "text": "{input}"}, "DestinationType": "TextUploader, ImageUploader",
             "URL": "{json:link}", "DeletionURL": "{header:X-Delete}"}
            """#)
        #expect(multipart.url.template == Template(literal: "https://up.example/u"))
        #expect(multipart.method == "PUT")
        #expect(multipart.format == .multipart)
        #expect(multipart.query.map(\.name) == ["key", "t", "flag"])
        #expect(multipart.query[0].value.template == Template(literal: "kept"))
        #expect(multipart.fields.map(\.name) == ["a", "text"])
        #expect(multipart.fields[1].value.template.isContentAlone)
        #expect(multipart.accepts == [.text, .images])
        #expect(multipart.result == .template(Template([.answer(.json(pointer: "/link", input: nil))])))
        #expect(multipart.deletion == Template([.answer(.header("X-Delete"))]))

        // FileFormName without DestinationType: it sends files (the corpus's 0x0.st image uploader).
        let fileForm = try profile(
            #"{"Version": "13.2.1", "RequestURL": "https://0x0.st", "Body": "MultipartFormData", "FileFormName": "file"}"#
        )
        #expect(fileForm.accepts == [.text, .images, .files])

        let binary = try profile(#"{"Version": "13.7.2", "RequestURL": "https://h/", "Body": "Binary"}"#)
        #expect(binary.format == .raw)
        #expect(binary.result == .template(Template([.answer(.body)])))
        #expect(binary.accepts == .text)

        let none = try profile(
            #"{"Version": "15.0.0", "RequestMethod": "GET", "RequestURL": "https://h/?text={input}"}"#)
        #expect(none.format == .noBody)
        #expect(none.query.first?.value.template.isContentAlone == true)

        #expect(throws: ShareXError.unsupportedVersion(file: "x.sxcu", version: nil)) {
            try profile(#"{"RequestURL": "https://h/"}"#)
        }
        #expect(throws: ShareXError.self) {
            try profile(#"{"Version": "15.0.0", "RequestURL": "https://h/", "RequestMethod": "FETCH"}"#)
        }
        #expect(
            throws: ShareXError.cannotSendText(
                file: "x.sxcu", reason: "Headers.X holds {input}; a header cannot carry the text")
        ) {
            try profile(#"{"Version": "15.0.0", "RequestURL": "https://h/", "Headers": {"X": "{input}"}}"#)
        }
    }

    @Test("a section printed from a definition reads back as the same profile")
    func printedSection() throws {
        let original = try profile(
            #"""
            {"Version": "15.0.0", "Name": "My Host", "RequestURL": "https://h/api?x=1", "Headers": {"X-A": "b #c"},
             "Body": "JSON", "Data": "{\n \"t\": \"{input}\"\n}", "URL": "https://h/{json:id}", "ErrorMessage": "{json:error}"}
            """#)
        let section = try original.configSection()
        let file = try ConfigFile(parsing: section, path: "/c")
        let read = try Configuration(file: file).service(named: "My Host")
        #expect(read.url.template == original.url.template)
        #expect(read.query.map(\.value.template) == original.query.map(\.value.template))
        #expect(read.headers.map(\.template) == original.headers.map(\.template))
        #expect(read.jsonTemplate?.template == original.jsonTemplate?.template)
        #expect(read.result == original.result)
        #expect(read.errorMessage == original.errorMessage)
    }
}
