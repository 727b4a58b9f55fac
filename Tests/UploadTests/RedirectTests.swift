import Foundation
import PasteCore
import Testing
import TestSupport
@testable import Upload

/// Redirects followed by paste itself, request by request: credentials stay with the service's
/// origin, a body never goes to another one, a page that fails after the body was accepted
/// still gives the paste, and the connection is reused as libcurl's own following did.
@Suite("Redirects, request by request", .testServer)
struct RedirectTests: ScopedSuite {
    /// The same server under another origin: `localhost` instead of `127.0.0.1`.
    var otherOrigin: String { "http://localhost:\(server.port)" }

    static let credentials = ["X-Api-Key: key-123", "Authorization: Bearer token-456", "Cookie: session=cookie-789"]

    private func post(_ path: String, code: Int = 302, to target: String, headers: [String] = credentials)
        -> UploadRequest
    {
        let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return UploadRequest(
            url: server.base + "\(path)?code=\(code)&to=\(encoded)", headers: headers,
            body: .raw(.bytes(Array("text".utf8)), contentType: "text/plain"), result: .redirect)
    }

    // MARK: - The chain's rules, without a network

    @Test("301 and 302 turn a POST into a GET, 303 anything; 307, 308 and a PUT's 301 keep the body")
    func methods() throws {
        for (method, status, keepsBody) in [
            ("POST", 301, false), ("POST", 302, false), ("POST", 303, false), ("POST", 307, true), ("POST", 308, true),
            ("PUT", 301, true), ("PUT", 302, true), ("PUT", 303, false), ("GET", 307, false),
        ] {
            var chain = RedirectChain(
                request: UploadRequest(
                    url: "http://a.example/new", method: method, body: .rendered([], contentType: ""),
                    result: .redirect), limit: 10)
            let hop = try #require(try chain.next(status: status, location: "/p", target: "http://a.example/p"))
            #expect(hop.sendsBody == keepsBody, "\(method) answered \(status)")
            #expect(chain.bodyAccepted == (method != "GET" && !keepsBody), "\(method) answered \(status)")
            #expect(hop.bodyAllowance == RedirectChain.pageAllowance)
        }
    }

    @Test("origins differ by scheme, host or port; the default port is the scheme's")
    func origins() {
        #expect(Origin("http://A.example/x") == Origin("http://a.example:80/y"))
        #expect(Origin("https://a.example/") == Origin("https://a.example:443"))
        #expect(Origin("http://a.example/") != Origin("https://a.example/"))
        #expect(Origin("http://a.example/") != Origin("http://b.a.example/"))
        #expect(Origin("http://127.0.0.1:8/") != Origin("http://localhost:8/"))
        #expect(Origin("http://a.example:8080/") != Origin("http://a.example/"))
    }

    @Test("a body is never re-sent to another origin; a GET may go anywhere, without credentials")
    func crossOriginRules() throws {
        let request = UploadRequest(
            url: "https://paste.example/new", body: .rendered([], contentType: ""), result: .redirect)
        var resend = RedirectChain(request: request, limit: 10)
        #expect(throws: UploadError.bodyRedirectRefused(url: "https://cdn.example/new", status: 307)) {
            try resend.next(status: 307, location: "https://cdn.example/new", target: "https://cdn.example/new")
        }
        var get = RedirectChain(request: request, limit: 10)
        let away = try #require(try get.next(status: 302, location: "x", target: "https://cdn.example/p/1"))
        #expect(!away.isAtHome)
        let back = try #require(try get.next(status: 302, location: "x", target: "https://paste.example/p/1"))
        #expect(back.isAtHome)
        var location = RedirectChain(
            request: UploadRequest(
                url: "https://paste.example/new", body: .rendered([], contentType: ""), result: .location), limit: 10)
        #expect(try location.next(status: 302, location: "/p", target: "https://paste.example/p") == nil)
    }

    // MARK: - On the wire

    @Test("a redirect to another origin drops the configured headers; the same origin keeps them")
    func credentialsStayHome() throws {
        let away = try Uploader().send(post("/redirect", to: otherOrigin + "/landed"))
        let echo = try Echo(away)
        #expect(echo.method == "GET")
        #expect(away.effectiveURL == otherOrigin + "/landed")
        for name in ["X-Api-Key", "Authorization", "Cookie", "Content-Type"] {
            #expect(echo.header(name) == nil, "\(name) reached another origin")
        }
        let home = try Echo(Uploader().send(post("/redirect", to: server.base + "/landed")))
        #expect(home.header("X-Api-Key") == "key-123")
        #expect(home.header("Authorization") == "Bearer token-456")
        #expect(home.header("Cookie") == "session=cookie-789")
        #expect(home.header("Content-Type") == nil)
    }

    @Test("a 307 or 308 to another origin is refused before the body goes there", arguments: [307, 308])
    func bodyStaysHome(code: Int) throws {
        let saved = try TemporaryFile()
        let target = otherOrigin + "/landed?save=" + saved.path
        let error = try #require(throws: UploadError.self) {
            try Uploader().send(post("/redirect", code: code, to: target))
        }
        #expect(error == .bodyRedirectRefused(url: target, status: code))
        #expect(error.exitStatus == .unavailable)
        #expect(error.message.hasPrefix("refusing the \(code) redirect to 'http://localhost:\(server.port)/landed"))
        #expect(error.message.hasSuffix("': it would send the text to another origin"))
        #expect(!FileManager.default.fileExists(atPath: saved.path), "the body reached the other origin")
    }

    @Test("a 307 to the same origin re-sends a streamed multipart part (curl_mime) byte-exact")
    func mimeResent() throws {
        let content = Array(repeating: trickyText, count: 50).flatMap { $0 }
        let file = try TemporaryFile(content)
        let encoded = (server.base + "/landed").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let response = try Uploader().send(
            UploadRequest(
                url: server.base + "/redirect?code=307&to=\(encoded)",
                body: .multipart([
                    FormField(
                        name: "f",
                        value: .content(
                            .file(path: file.path, size: Int64(content.count)), fileName: nil,
                            contentType: nil))
                ]), result: .redirect))
        let echo = try Echo(response)
        #expect(echo.method == "POST")
        #expect(try echo.parts().first?.content == content)
    }

    @Test("the POST and the GET of its redirect share one connection, as with CURLOPT_FOLLOWLOCATION")
    func connectionReused() throws {
        let lines = Recorder<String>()
        let uploader = Uploader(options: TransportOptions(verbose: { lines.append($0) }))
        let response = try uploader.send(post("/redirect", to: "/landed"))
        #expect(try Echo(response).connection == 1, "the GET came on a new connection")
        #expect(lines.all.filter { $0.contains("Connected to") }.count == 1, "\(lines.all)")
        #expect(lines.all.contains { $0.contains("Re-using existing connection") })
    }

    @Test("a page that fails after the body was accepted still gives the URL, saying how it failed")
    func pageFailsAfterAcceptance() throws {
        let notFound = try Uploader().send(post("/redirect", to: "/status?code=404"))
        #expect(notFound.effectiveURL == server.base + "/status?code=404")
        #expect(notFound.status == 404)
        #expect(notFound.unreadPage == "answered HTTP 404")
        #expect(notFound.redirectCount == 1)
        let stalled = try Uploader(options: TransportOptions(timeouts: TransferTimeouts(stall: .seconds(1))))
            .send(post("/redirect", to: "/delay?s=30"))
        #expect(stalled.effectiveURL == server.base + "/delay?s=30")
        #expect(
            stalled.unreadPage?.hasPrefix("did not load: transfer with 127.0.0.1:\(server.port) stalled") == true,
            "\(String(describing: stalled.unreadPage))")
        // The total timeout bounds the whole chain, not each request of it.
        let started = ContinuousClock.now
        let late = try Uploader(options: TransportOptions(timeouts: TransferTimeouts(total: .seconds(1))))
            .send(post("/redirect", to: "/delay?s=30"))
        #expect(late.unreadPage == "did not load: transfer with 127.0.0.1:\(server.port) timed out after 1s")
        #expect(ContinuousClock.now - started < .seconds(5))
        // A 307's target is where the body goes: its failure is the upload's.
        let resent = try Uploader().send(post("/redirect", code: 307, to: "/status?code=404"))
        #expect(resent.unreadPage == nil)
        #expect(resent.status == 404)
    }

    @Test("an error names the host that answered last, not the service's")
    func errorNamesLastHost() throws {
        // A GET (a deletion link) carries no body, so its redirect's failure is the request's.
        let target = "http://localhost:1/gone".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let error = try #require(throws: UploadError.self) {
            try Uploader().send(
                UploadRequest(
                    url: server.base + "/redirect?to=\(target)", method: "GET", body: .rendered([], contentType: ""),
                    result: .redirect))
        }
        #expect(error.message == "cannot connect to localhost:1: connection refused")
        #expect(error.mayHaveReachedServer)
    }

    @Test("a batch follows redirects too, each on its own chain")
    func batchFollows() throws {
        let requests = (0..<8).map { post("/redirect", to: "/landed/\($0)", headers: []) }
        let results = Uploader().sendAll(requests, maxConcurrent: 3)
        let echoes = try results.map { try Echo($0.get()) }
        #expect(echoes.map(\.path) == (0..<8).map { "/landed/\($0)" })
        #expect(echoes.allSatisfy { $0.method == "GET" })
        #expect(try results.allSatisfy { try $0.get().redirectCount == 1 })
    }

    // MARK: - Answers that are not HTTP

    @Test("an HTTP/0.9 reply and a 200 KB header line are service failures (69), not config or memory")
    func notHTTP() throws {
        let old = try #require(throws: UploadError.self) {
            try Uploader().send(post("/http09", to: "/"))
        }
        #expect(
            old == .badAnswer(url: server.base + "/http09?code=302&to=%2F", detail: "not an HTTP/1.x or HTTP/2 answer"))
        #expect(old.message == "unusable answer from 127.0.0.1:\(server.port): not an HTTP/1.x or HTTP/2 answer")
        #expect(old.exitStatus == .unavailable)
        #expect(old.mayHaveReachedServer)
        let huge = try #require(throws: UploadError.self) {
            try Uploader().send(post("/huge-header", to: "/"))
        }
        #expect(huge.message == "unusable answer from 127.0.0.1:\(server.port): a header line longer than 100 KiB")
        #expect(huge.exitStatus == .unavailable)
    }
}
