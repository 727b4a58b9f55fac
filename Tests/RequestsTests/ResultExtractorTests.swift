import Testing

@testable import PasteCore
@testable import Requests

@Suite("Result extraction and sanitizing")
struct ResultExtractorTests {
    let endpoint = "http://127.0.0.1:8080/pastes/create"

    func request(_ rule: ResultRule) -> UploadRequest {
        UploadRequest(url: endpoint, body: .raw(.bytes([0x61]), contentType: "text/plain"), result: rule)
    }

    func extract(_ rule: ResultRule, _ response: UploadResponse, profile: ServiceProfile? = nil) throws(ServiceError)
        -> ResultExtractor.Outcome
    {
        try ResultExtractor.extract(
            from: response, request: request(rule), profile: profile ?? ServiceProfile.pastie(url: endpoint))
    }

    @Test("redirect: the final URL after redirects")
    func redirect() throws {
        let response = UploadResponse(status: 200, effectiveURL: "http://127.0.0.1:8080/pastes/7", redirectCount: 1)
        #expect(try extract(.redirect, response).url == "http://127.0.0.1:8080/pastes/7")
    }

    @Test("location: the Location header, resolved against the endpoint")
    func location() throws {
        let response = UploadResponse(status: 302, headers: [("Location", "/pastes/9")], effectiveURL: endpoint)
        #expect(try extract(.location, response).url == "http://127.0.0.1:8080/pastes/9")
    }

    @Test("body: the first http(s) URL in the body")
    func body() throws {
        let response = UploadResponse(
            status: 201, effectiveURL: endpoint, body: Array("Your paste: https://x.test/abc\n".utf8))
        #expect(try extract(.body, response).url == "https://x.test/abc")
    }

    @Test("json: an RFC 6901 pointer, with escapes and array indexes")
    func json() throws {
        let text = #"{"data": {"a/b": [{"url": "https://x.test/1"}], "m~n": "https://x.test/2"}}"#
        let response = UploadResponse(status: 200, effectiveURL: endpoint, body: Array(text.utf8))
        #expect(try extract(.json(pointer: "/data/a~1b/0/url"), response).url == "https://x.test/1")
        #expect(try extract(.json(pointer: "/data/m~0n"), response).url == "https://x.test/2")
        #expect(throws: ServiceError.self) { try extract(.json(pointer: "/data/missing"), response) }
    }

    @Test("regex: the first capture group")
    func regex() throws {
        let response = UploadResponse(
            status: 200, effectiveURL: endpoint, body: Array("id=<a href='https://x.test/p/42'>".utf8))
        #expect(try extract(.regex("href='([^']+)'"), response).url == "https://x.test/p/42")
    }

    @Test("deletion tokens come from a header or a JSON pointer")
    func deletion() throws {
        var profile = BuiltInServices.nullPointer
        let response = UploadResponse(
            status: 200, headers: [("X-Token", "tok123")], effectiveURL: endpoint,
            body: Array("https://x.test/a.txt\n".utf8))
        #expect(try extract(.body, response, profile: profile).deletion == "tok123")
        profile.deletionSource = "json:/removal"
        let json = UploadResponse(
            status: 200, effectiveURL: endpoint,
            body: Array(#"{"link":"https://x.test/a","removal":"https://x.test/remove/a"}"#.utf8))
        #expect(try extract(.json(pointer: "/link"), json, profile: profile).deletion == "https://x.test/remove/a")
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        var name: String
        var rule: ResultRule
        var response: UploadResponse
        var status: PasteCore.ExitStatus
        var testDescription: String { name }
    }

    static let failures: [Failure] = [
        Failure(
            name: "HTTP 500", rule: .redirect,
            response: UploadResponse(
                status: 500, effectiveURL: "http://127.0.0.1:8080/pastes/create", body: Array("boom".utf8)),
            status: .unavailable),
        Failure(
            name: "HTTP 503 is temporary", rule: .redirect,
            response: UploadResponse(status: 503, effectiveURL: "http://127.0.0.1:8080/pastes/create"),
            status: .temporaryFailure),
        Failure(
            name: "HTTP 429 is temporary", rule: .body,
            response: UploadResponse(status: 429, effectiveURL: "http://127.0.0.1:8080/pastes/create"),
            status: .temporaryFailure),
        Failure(
            name: "206 partial", rule: .redirect,
            response: UploadResponse(status: 206, effectiveURL: "http://127.0.0.1:8080/pastes/1", redirectCount: 1),
            status: .unavailable),
        Failure(
            name: "no redirect: the endpoint itself", rule: .redirect,
            response: UploadResponse(status: 200, effectiveURL: "http://127.0.0.1:8080/pastes/create"),
            status: .unavailable),
        Failure(
            name: "redirect to the site root", rule: .redirect,
            response: UploadResponse(status: 200, effectiveURL: "http://127.0.0.1:8080/", redirectCount: 1),
            status: .unavailable),
        Failure(
            name: "redirect to the form page", rule: .redirect,
            response: UploadResponse(status: 200, effectiveURL: "http://127.0.0.1:8080/pastes/new", redirectCount: 1),
            status: .unavailable),
        Failure(
            name: "200 with an error page and no URL", rule: .body,
            response: UploadResponse(
                status: 200, effectiveURL: "http://127.0.0.1:8080/pastes/create", body: Array("<h1>Error</h1>".utf8)),
            status: .unavailable),
        Failure(
            name: "javascript: URL", rule: .json(pointer: "/url"),
            response: UploadResponse(
                status: 200, effectiveURL: "x", body: Array(#"{"url":"javascript:alert(1)"}"#.utf8)),
            status: .unavailable),
        Failure(
            name: "URL with an escape sequence", rule: .location,
            response: UploadResponse(
                status: 302, headers: [("Location", "http://x.test/\u{1B}[2J")], effectiveURL: "x"),
            status: .unavailable),
    ]

    @Test("a wrong URL never looks like success", arguments: failures)
    func failuresAreFailures(_ failure: Failure) {
        #expect {
            try extract(failure.rule, failure.response)
        } throws: { error in
            (error as? ServiceError)?.exitStatus == failure.status
        }
    }

    @Test("URLs must be http(s), bounded, free of controls and white space")
    func validatesURLs() throws {
        #expect(try Sanitizer.validateURL(" https://x.test/a\n").get() == "https://x.test/a")
        #expect(Sanitizer.validateURL("file:///etc/passwd") == .failure(.notHTTP(scheme: "file")))
        #expect(Sanitizer.validateURL("https://x.test/a b") == .failure(.whitespace))
        #expect(Sanitizer.validateURL("https://x.test/\u{07}") == .failure(.controlCharacters))
        #expect(Sanitizer.validateURL("https://x.test/\u{9B}31m") == .failure(.controlCharacters))
        #expect(Sanitizer.validateURL("https:///path") == .failure(.noHost))
        #expect(
            Sanitizer.validateURL("https://x.test/" + String(repeating: "a", count: 3000)) == .failure(.tooLong(3015)))
    }

    @Test("error bodies lose escapes and control characters and are cut short")
    func printable() {
        #expect(Sanitizer.printable("\u{1B}[31mred\u{1B}[0m\u{1B}]0;title\u{07}\r\nnext\tline") == "red next line")
        #expect(Sanitizer.printable("safe\u{202E}txt.exe") == "safetxt.exe")
        #expect(Sanitizer.excerpt(Array(String(repeating: "x", count: 500).utf8), limit: 10) == "xxxxxxxxxx…")
    }
}

/// Answers as servers give them today to ShareX uploaders (issue 27 item 6).
@Suite("Result extraction: JSON strings and text that is no URL")
struct ResultTextTests {
    let endpoint = "http://127.0.0.1:8080/api/"

    func extract(_ body: String, status: Int = 200, template: String = "{body}", profile: ServiceProfile? = nil)
        throws(ServiceError) -> ResultExtractor.Outcome
    {
        let rule = ResultRule.template(try! Template(configText: template, use: .result))
        let request = UploadRequest(url: endpoint, body: .raw(.bytes([0x61]), contentType: "text/plain"), result: rule)
        return try ResultExtractor.extract(
            from: UploadResponse(status: status, effectiveURL: endpoint, body: Array(body.utf8)), request: request,
            profile: profile ?? ServiceProfile.pastie(name: "d", url: endpoint))
    }

    @Test("a JSON string answer is the string it stands for, not a path with quotes")
    func jsonString() throws {
        #expect(try extract("\"http://127.0.0.1:8080/abc\"\n").url == "http://127.0.0.1:8080/abc")
        #expect(try extract(#"  "http:\/\/127.0.0.1:8080\/a\u0062c"  "#).url == "http://127.0.0.1:8080/abc")
        // A relative one is resolved as any relative answer is.
        #expect(try extract("\"/abc\"").url == "http://127.0.0.1:8080/abc")
    }

    @Test(
        "text that is no URL (quotes, angle brackets, a backtick, white space, control characters) is refused",
        arguments: [
            ("\"http://127.0.0.1:8080/abc", Sanitizer.URLProblem.notInURL("\"")),
            ("<http://127.0.0.1:8080/abc>", .notInURL("<")),
            ("http://127.0.0.1:8080/a`b", .notInURL("`")),
            ("\"http://127.0.0.1:8080/a b\"", .whitespace),
            ("http://127.0.0.1:8080/a\u{7}", .controlCharacters),
        ])
    func notAURL(_ body: String, _ problem: Sanitizer.URLProblem) {
        #expect(throws: ServiceError.unsafeURL(service: "d", problem: problem)) { try extract(body) }
    }

    @Test("the message says which character no URL holds")
    func message() {
        #expect(
            ServiceError.unsafeURL(service: "d", problem: .notInURL("\"")).message
                == "d gave an unusable URL: it holds '\"', which no URL holds")
    }

    @Test("an HTTP error of a service made from a ShareX uploader names the uploader's file")
    func uploaderFile() {
        var profile = ServiceProfile.pastie(name: "old", url: endpoint)
        profile.shareXPath = "/home/u/old.sxcu"
        #expect(
            throws: ServiceError.httpStatus(
                service: "old (ShareX uploader '/home/u/old.sxcu')", status: 400, excerpt: "bad")
        ) {
            try extract("bad", status: 400, profile: profile)
        }
        // Named by its file already (-S FILE.sxcu): once.
        profile.name = "/home/u/old.sxcu"
        #expect(throws: ServiceError.httpStatus(service: "/home/u/old.sxcu", status: 400, excerpt: "bad")) {
            try extract("bad", status: 400, profile: profile)
        }
    }
}
