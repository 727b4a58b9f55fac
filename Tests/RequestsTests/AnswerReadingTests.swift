import FoundationEssentials
import Testing

@testable import PasteCore
@testable import Requests

@Suite("Reading answers: templates, relative URLs, lookbehind, JSON, XML")
struct AnswerReadingTests {
    func profile(result: String, deletion: String? = nil) throws -> ServiceProfile {
        var profile = ServiceProfile(name: "s", url: ConfigValue("https://api.example/v1/documents"))
        let file = try ConfigFile(
            parsing: "[service \"s\"]\nurl = https://api.example/v1/documents\nformat = raw\nresult = \(result)\n"
                + (deletion.map { "deletion = \($0)\n" } ?? ""), path: "/c")
        profile = try Configuration(file: file).service(named: "s")
        return profile
    }

    func extract(
        _ profile: ServiceProfile, body: String, headers: [(String, String)] = [], status: Int = 200,
        finalURL: String = "https://api.example/v1/documents", redirects: Int = 0
    ) throws -> ResultExtractor.Outcome {
        var builder = RequestBuilder(profile: profile, context: Context(environment: [:]))
        let request = try builder.build(content: .bytes([0x61]), options: PasteOptions())
        let response = UploadResponse(
            status: status, headers: headers.map { ($0.0, $0.1) }, effectiveURL: finalURL, redirectCount: redirects,
            body: Array(body.utf8))
        return try ResultExtractor.extract(from: response, request: request, profile: profile)
    }

    @Test("a URL built from a JSON key (haste-server's answer)")
    func jsonKey() throws {
        let outcome = try extract(try profile(result: "https://api.example/{json:/key}"), body: #"{"key":"abc123"}"#)
        #expect(outcome.url == "https://api.example/abc123")
        // The key alone is relative to the request URL; "/…" to the host.
        #expect(
            try extract(try profile(result: "{json:/key}"), body: #"{"key":"abc"}"#).url == "https://api.example/v1/abc"
        )
        #expect(
            try extract(try profile(result: "/{json:/key}"), body: #"{"key":"abc"}"#).url == "https://api.example/abc")
    }

    @Test("relative answers are resolved against the final URL: a JSON path, a Location, a bare path body")
    func relative() throws {
        #expect(
            try extract(try profile(result: "json:/path"), body: #"{"path":"/x.rs"}"#).url == "https://api.example/x.rs"
        )
        #expect(
            try extract(
                try profile(result: "location"), body: "", headers: [("Location", "../upload/q")], status: 302
            ).url == "https://api.example/upload/q")
        #expect(try extract(try profile(result: "body"), body: "/p/abc\n").url == "https://api.example/p/abc")
        // After redirects, against where they ended.
        #expect(
            try extract(
                try profile(result: "{json:/p}"), body: #"{"p":"z"}"#, finalURL: "https://other.example/a/b",
                redirects: 1
            ).url == "https://other.example/a/z")
        // A body of words is no URL, relative or not.
        #expect(throws: ServiceError.self) { try extract(try profile(result: "body"), body: "error: quota\n") }
    }

    @Test("{header:…}, {body}, {url}, numbers from JSON, and a deletion template")
    func otherValues() throws {
        let header = try extract(
            try profile(result: "{header:X-Url}", deletion: "{header:X-Token}"), body: "",
            headers: [("x-url", "https://api.example/h"), ("X-Token", "t0k")])
        #expect(header.url == "https://api.example/h")
        #expect(header.deletion == "t0k")
        #expect(
            try extract(try profile(result: "{body}"), body: "  https://api.example/b \n").url
                == "https://api.example/b")
        #expect(
            try extract(try profile(result: "{url}"), body: "", finalURL: "https://api.example/f", redirects: 1).url
                == "https://api.example/f")
        // A 19-digit id stays exact (a Double would round it).
        #expect(
            try extract(try profile(result: "https://api.example/p/{json:/id}"), body: #"{"id": 1234567890123456789}"#)
                .url == "https://api.example/p/1234567890123456789")
        let deletion = try extract(
            try profile(result: "{json:/u}", deletion: "{json:/d}"), body: #"{"u":"/p/1","d":"/delete/2"}"#)
        #expect(deletion.deletion == "https://api.example/delete/2")
    }

    @Test("a template whose value is missing is no URL, never a half URL")
    func missing() throws {
        #expect(
            throws: ServiceError.noURL(
                service: "s", status: 200, excerpt: #"{"other":1}"#, tried: "https://api.example/{json:/key}")
        ) {
            try extract(try profile(result: "https://api.example/{json:/key}"), body: #"{"other":1}"#)
        }
    }

    @Test("an error-message template shows the service's own words")
    func errorMessage() throws {
        let file = try ConfigFile(
            parsing:
                "[service \"s\"]\nurl = https://api.example/x\nformat = raw\nresult = {json:/u}\nerror-message = {json:/error/message}\n",
            path: "/c")
        let profile = try Configuration(file: file).service(named: "s")
        #expect(throws: ServiceError.httpStatus(service: "s", status: 422, excerpt: "title is too long")) {
            try extract(profile, body: #"{"error":{"message":"title is too long"}}"#, status: 422)
        }
    }

    @Test("leading lookbehinds run, positive and negative; elsewhere they are refused")
    func lookbehind() throws {
        let html = #"<a href="/static/x.css"> <a class="l" href="https://h/p/abc">https://h/p/abc</a>"#
        #expect(try TextPattern(#"(?<=href=")https[^"]+(?=")"#).capture(.whole, in: html) == "https://h/p/abc")
        #expect(try TextPattern(#"(?i)(?<=HREF=")[^"]+"#).capture(.whole, in: html) == "/static/x.css")
        #expect(try TextPattern(#"(?<!/)p/([a-z]+)"#).capture(.number(1), in: "x/p/no p/yes") == "yes")
        #expect(try TextPattern(#"(?<="l" href=")(?<url>[^"]+)"#).capture(.name("url"), in: html) == "https://h/p/abc")
        #expect(try TextPattern("a(b)|(c)").capture(.firstParticipating, in: "xc") == "c")
        #expect(throws: TextPattern.Problem.lookbehindNotAtStart) { try TextPattern("a(?<=b)c") }
        #expect(throws: TextPattern.Problem.groupInLookbehind) { try TextPattern("(?<=(a))b") }
        // A `)` inside a class (or escaped) does not end the lookbehind, and a `(` there opens no
        // group.
        #expect(try TextPattern(#"(?<=[\])])\d+"#).capture(.whole, in: "a(1 b)23 c]45") == "23")
        #expect(try TextPattern(#"(?<=\)|\])\d+"#).capture(.whole, in: "a(1 b]23") == "23")
        #expect(try TextPattern(#"[(\]](b)"#).captureCount == 1)
    }

    @Test("OrderedJSON keeps member order and number text, and reports the line of an error")
    func orderedJSON() throws {
        let json = try OrderedJSON(parsing: #"{"b": 1.50, "a": [true, null, "\u00fc\ud83c\udf89"], "c": {"d": -2e3}}"#)
        guard case .object(let members) = json else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.name) == ["b", "a", "c"])
        #expect(json.value(at: "/b")?.scalarText == "1.50")
        #expect(json.value(at: "/a/2")?.stringValue == "ü🎉")
        #expect(json.value(at: "/c/d")?.scalarText == "-2e3")
        #expect(throws: OrderedJSON.SyntaxError(line: 3, expected: "',' or '}'")) {
            try OrderedJSON(parsing: "{\n\"a\": 1\n\"b\": 2}")
        }
        #expect(throws: OrderedJSON.SyntaxError.self) { try OrderedJSON(parsing: "[1,]") }
        #expect(throws: OrderedJSON.SyntaxError.self) { try OrderedJSON(parsing: "01") }
        #expect(throws: OrderedJSON.SyntaxError.self) { try OrderedJSON(parsing: String(repeating: "[", count: 600)) }
    }

    @Test("the XPath subset: paths, positions, any depth, attributes, text()")
    func xmlPath() throws {
        let xml = """
            <?xml version="1.0"?>
            <!-- an answer -->
            <files><file><url>https://h/1</url></file>
            <file kind="b"><url><![CDATA[https://h/2?a=1&b=2]]></url><del href="https://h/d/2"/></file></files>
            """
        #expect(try XMLPath("/files/file[1]/url").value(in: xml) == "https://h/1")
        #expect(try XMLPath("files/file[2]/url").value(in: xml) == "https://h/2?a=1&b=2")
        #expect(try XMLPath("//url").value(in: xml) == "https://h/1")
        #expect(try XMLPath("//del/@href").value(in: xml) == "https://h/d/2")
        #expect(try XMLPath("/files/file[2]/@kind").value(in: xml) == "b")
        #expect(try XMLPath("/files/*[1]/url/text()").value(in: xml) == "https://h/1")
        #expect(try XMLPath("/files/file[3]/url").value(in: xml) == nil)
        #expect(try XMLPath("/a").value(in: "<a>x &amp; &#233;</a>") == "x & é")
        #expect(try XMLPath("/a").value(in: "<a><b></a>") == nil)
        #expect(throws: XMLPath.Unsupported.self) { try XMLPath("/files/file[@kind='b']") }
    }
}
