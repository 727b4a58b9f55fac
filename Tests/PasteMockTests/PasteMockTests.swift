import Foundation
import TestSupport
import Testing

/// Runs /usr/bin/curl (the reference client) with `-sS` and a deadline.
func curl(_ arguments: [String], input: ProcessInput = .null, timeout: Double = 30) throws -> ProcessResult {
    try runProcess("/usr/bin/curl", ["-sS"] + arguments, input: input, timeout: timeout)
}

/// Writes bytes to a fresh file in the test's home (`.temporaryHome`) and returns its path.
func temporaryFile(_ data: Data, name: String = "content.bin") throws -> String {
    let folder = TemporaryHome.current.root.appendingPathComponent("files-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent(name)
    try data.write(to: url)
    return url.path
}

/// UTF-8 beyond ASCII, quotes, HTML metacharacters, CRLF, a NUL-free run of high bytes that is
/// not valid UTF-8, and a line that looks like a multipart boundary.
let trickyContent: Data = {
    var data = Data("héllo wörld — 日本語 🎉\r\n\"quotes\" 'single' <b>&amp;</b>\n--boundary\r\n".utf8)
    data.append(contentsOf: [0xff, 0xfe, 0x80, 0x81, 0xc0, 0x0d, 0x0a, 0x01, 0x7f])
    data.append(Data("\nend without newline".utf8))
    return data
}()

@Suite("paste-mock process")
struct ProcessTests: ScopedSuite {
    @Test("prints its URL first, serves, and exits 0 on SIGTERM")
    func bannerAndSigterm() throws {
        let mock = try MockServer()
        #expect(mock.baseURL == "http://127.0.0.1:\(mock.port)")
        let health = try curl([mock.url("/_health")])
        #expect(health.out == "ok\n")
        #expect(try mock.stop() == 0)
    }

    @Test("exits 0 on SIGINT too")
    func sigint() throws {
        let mock = try MockServer()
        kill(mock.processIdentifier, SIGINT)
        try waitUntil("paste-mock exits") {
            kill(mock.processIdentifier, 0) != 0 || (try? mock.stop(timeout: 0.1)) != nil
        }
        #expect(try mock.stop() == 0)
    }

    @Test("prints the tcp listener as the second line", .mock(tcp: true))
    func tcpBanner() throws {
        #expect(mock.tcpPort != nil)
        #expect(mock.tcpPort != mock.port)
    }

    @Test("rejects unknown options with status 64")
    func usage() throws {
        let result = try runProcess(BuiltProducts.path(of: "paste-mock"), ["--bogus"], timeout: 10)
        #expect(result.status == 64)
        #expect(result.err.hasPrefix("paste-mock: unknown option '--bogus'"))
        let badFault = try runProcess(BuiltProducts.path(of: "paste-mock"), ["--fault", "nope"], timeout: 10)
        #expect(badFault.status == 64)
        #expect(badFault.err.contains("unknown fault 'nope'"))
    }

    @Test("serves several connections at once", .mock)
    func concurrency() throws {
        // Each of these requests is held for a second; served one at a time they would take 6s.
        try mock.addFault(.delay(seconds: 1), count: 6, path: "/pasters")
        let started = Date()
        let results = Locked<[ProcessResult?]>([])
        let group = DispatchGroup()
        for i in 0..<6 {
            group.enter()
            // Captured here: a thread of its own does not see the test's scope.
            Thread.detachNewThread { [mock] in
                let result = try? curl([mock.url("/pasters/"), "--data-binary", "paste \(i)"])
                results.mutate { $0.append(result) }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        let elapsed = Date().timeIntervalSince(started)
        #expect(results.value.count == 6)
        #expect(results.value.allSatisfy { $0?.status == 0 && $0?.out.hasPrefix(mock.url("/pastes/")) == true })
        #expect(elapsed < 5.5, "6 delayed requests took \(elapsed)s: not concurrent (one after another is 6 s)")
        let ids = Set(try mock.requests().compactMap(\.pasteId))
        #expect(ids.count == 6)
    }

    @Test("keeps connections alive between requests", .mock)
    func keepAlive() throws {
        let result = try curl([
            mock.url("/_health"), mock.url("/_health"), "-o", "/dev/null", "-o", "/dev/null",
            "-w", "%{num_connects}\n",
        ])
        #expect(result.out == "1\n0\n")
    }
}

@Suite("classic pastie API", .temporaryHome, .mock)
struct PastieTests: ScopedSuite {
    @Test("multipart upload redirects to the paste and stores it byte for byte")
    func roundTrip() throws {
        let file = try temporaryFile(trickyContent)
        let result = try curl([
            mock.url("/pastes/create"), "-H", "Expect:", "-F", "paste[parser]=plaintext",
            "-F", "paste[body]=<\(file)", "-F", "paste[authorization]=burger", "-F", "paste[title]=My title",
            "-F", "paste[restricted]=1", "-L", "-o", "/dev/null", "-w", "%{url_effective}",
        ])
        #expect(result.status == 0)
        #expect(result.out == mock.url("/pastes/1"))
        #expect(try mock.rawPaste(id: 1) == trickyContent)
        let paste = try mock.paste(id: 1)
        #expect(paste.data == trickyContent)
        #expect(paste.encoding == "base64")
        #expect(paste.service == "pastie")
        #expect(paste.parser == "plaintext")
        #expect(paste.title == "My title")
        #expect(paste.restricted == "1")
        #expect(paste.fingerprint == (try Fingerprint(of: trickyContent)))

        let raw = try curl([mock.url("/pastes/1.txt"), "-D", "-", "-o", "/dev/null"])
        #expect(raw.out.contains("Content-Type: text/plain; charset=utf-8\r\n"))
    }

    @Test("the HTML page escapes the content")
    func htmlEscapes() throws {
        _ = try curl([
            mock.url("/pastes"), "--form-string", "paste[body]=<script>alert(\"x\")</script> & 'q'",
            "-F", "paste[authorization]=burger",
        ])
        let page = try curl([mock.url("/pastes/1")]).out
        #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"))
        #expect(!page.contains("<script>"))
    }

    @Test("a file part keeps its filename and content type")
    func filePart() throws {
        let file = try temporaryFile(trickyContent, name: "notes.bin")
        let result = try curl([
            mock.url("/pastes/create"), "-F", "paste[body]=@\(file);type=application/octet-stream",
            "-F", "paste[authorization]=burger", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}",
        ])
        #expect(result.out == "302 \(mock.url("/pastes/1"))")
        let field = try #require(try mock.requests().first?.field("paste[body]"))
        #expect(field.filename == "notes.bin")
        #expect(field.contentType == "application/octet-stream")
        #expect(field.data == trickyContent)
        #expect(field.size == trickyContent.count)
    }

    @Test("urlencoded fields work the same")
    func urlencoded() throws {
        let result = try curl([
            mock.url("/pastes/create"), "--data-urlencode", "paste[body]=a+b & c=d ü",
            "--data-urlencode", "paste[authorization]=burger", "-o", "/dev/null", "-w", "%{http_code}",
        ])
        #expect(result.out == "302")
        #expect(try mock.rawPaste(id: 1) == Data("a+b & c=d ü".utf8))
        #expect(try mock.requests().first?.bodyKind == "urlencoded")
    }

    @Test("a wrong or missing authorization is 403 and stores nothing")
    func forbidden() throws {
        for auth in [["-F", "paste[authorization]=fries"], []] {
            let result = try curl(
                [mock.url("/pastes/create"), "-F", "paste[body]=x"] + auth + ["-w", "\n%{http_code}"])
            #expect(result.out.hasSuffix("\n403"))
            #expect(result.out.hasPrefix("forbidden"))
        }
        #expect(try mock.pastes().isEmpty)
    }

    @Test("chunked bodies and Expect: 100-continue are read and logged")
    func chunkedAndExpect() throws {
        let result = try curl(
            [
                mock.url("/pastes/create"), "-H", "Transfer-Encoding: chunked", "-H", "Expect: 100-continue",
                "-F", "paste[body]=<-", "-F", "paste[authorization]=burger", "-o", "/dev/null", "-w", "%{http_code}",
            ], input: .bytes(trickyContent))
        #expect(result.out == "302")
        let logged = try #require(try mock.requests().first)
        #expect(logged.chunked)
        #expect(logged.expectContinue)
        #expect(logged.header("transfer-encoding") == "chunked")
        #expect(try mock.rawPaste(id: 1) == trickyContent)
    }

    @Test("a 3 MiB binary body survives the round trip")
    func largeBody() throws {
        var generator = SystemRandomNumberGenerator()
        let data = Data((0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let file = try temporaryFile(data)
        let result = try curl([
            mock.url("/pastes/create"), "-F", "paste[body]=@\(file)", "-F", "paste[authorization]=burger",
            "-o", "/dev/null", "-w", "%{http_code}",
        ])
        #expect(result.out == "302")
        #expect(try mock.rawPaste(id: 1) == data)
    }

    @Test("ids are unique and increasing")
    func ids() throws {
        var urls: [String] = []
        for _ in 0..<3 {
            urls.append(
                try curl([
                    mock.url("/pastes/create"), "-F", "paste[body]=x", "-F", "paste[authorization]=burger",
                    "-o", "/dev/null", "-w", "%{redirect_url}",
                ]).out)
        }
        #expect(urls == [1, 2, 3].map { mock.url("/pastes/\($0)") })
    }
}

@Suite("control routes", .temporaryHome, .mock)
struct ControlTests: ScopedSuite {
    @Test("the request log records method, path, query, headers and fields, and can be cleared")
    func requestLog() throws {
        _ = try curl([mock.url("/pasters/?a=1&b"), "-H", "X-Test: yes", "--data-binary", "raw body"])
        let logged = try #require(try mock.requests().first)
        #expect(logged.method == "POST")
        #expect(logged.path == "/pasters/")
        #expect(logged.query == "a=1&b")
        #expect(logged.header("X-Test") == "yes")
        #expect(logged.bodyData == Data("raw body".utf8))
        #expect(logged.bodySize == 8)
        #expect(logged.status == 201)
        #expect(logged.pasteId == 1)
        try mock.clearRequests()
        #expect(try mock.requests().isEmpty)
    }

    @Test("values over 64 KiB are listed by size and SHA-256 alone, their bytes at their own routes")
    func listedByDigest() throws {
        let big = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) })
        let file = try temporaryFile(big)
        _ = try curl([
            mock.url("/pastes/create"), "-F", "paste[body]=<\(file)", "-F", "paste[authorization]=burger",
            "-o", "/dev/null",
        ])
        _ = try curl([
            mock.url("/pasters/"), "-H", "Content-Type: application/octet-stream", "--data-binary", "@\(file)",
        ])
        let print = try Fingerprint(of: big)
        // Two uploads of 3 MiB each: the listings stay a few KiB.
        #expect(try mock.request("GET", "/_requests").body.count < 8 << 10)
        #expect(try mock.request("GET", "/_pastes").body.count < 8 << 10)

        let requests = try mock.requests()
        try #require(requests.count == 2)
        let part = try #require(requests[0].field("paste[body]"))
        #expect(part.value == nil && part.kept)
        #expect(part.fingerprint == print)
        #expect(part.href == "/_requests/\(requests[0].seq)/fields/0")
        #expect(try mock.data(part) == big)
        // Small values are in the listing itself.
        #expect(requests[0].field("paste[authorization]")?.text == "burger")
        #expect(try mock.request("GET", "/_requests/\(requests[0].seq)/body").status == 404)

        #expect(requests[1].bodyData == nil)
        #expect(requests[1].bodyFingerprint == print)
        #expect(try mock.body(requests[1]) == big)

        let pastes = try mock.pastes()
        #expect(pastes.map(\.fingerprint) == [print, print])
        #expect(pastes.allSatisfy { $0.data == nil })
        for paste in pastes { #expect(try mock.data(paste) == big) }
        #expect(try mock.data(#require(pastes[0].field("paste[authorization]"))) == Data("burger".utf8))
        for path in ["/_pastes/9/body", "/_requests/9/body", "/_pastes/1/fields/9", "/_requests/1/fields/9"] {
            #expect(try mock.request("GET", path).status == 404, "\(path)")
        }
    }

    @Test("an exchange with the mock past its deadline says which one timed out and how far it got")
    func deadline() throws {
        _ = try curl([mock.url("/pasters/"), "--data-binary", "slow"])
        try mock.addFault(.delay(seconds: 3), path: "/pastes/1.txt", method: "GET")
        let started = ContinuousClock.now
        #expect {
            try mock.request("GET", "/pastes/1.txt", timeout: 0.5)
        } throws: { error in
            "\(error)" == "GET /pastes/1.txt: paste-mock (port \(mock.port)) did not answer within 0.5 s: "
                + "0 bytes of its answer arrived"
        }
        #expect(ContinuousClock.now - started < .seconds(2.5))
        #expect(try mock.rawPaste(id: 1) == Data("slow".utf8))
    }

    @Test("missing pastes and routes are 404")
    func notFound() throws {
        #expect(try mock.request("GET", "/pastes/99").status == 404)
        #expect(try mock.request("GET", "/_pastes/99").status == 404)
        #expect(try mock.request("GET", "/nowhere").status == 404)
        #expect(try mock.request("PUT", "/pastes/create").status == 405)
    }

    @Test("--max-body answers 413 and stores nothing", .mock(arguments: ["--max-body", "1K"]))
    func maxBody() throws {
        let file = try temporaryFile(Data(repeating: 65, count: 4096))
        for extra in [[String](), ["-H", "Expect:"], ["-H", "Transfer-Encoding: chunked"]] {
            let result = try curl(
                [mock.url("/pastes/create"), "-F", "paste[body]=<\(file)", "-F", "paste[authorization]=burger"]
                    + extra + ["-o", "/dev/null", "-w", "%{http_code}"])
            #expect(result.out == "413", "with \(extra)")
        }
        #expect(try mock.pastes().isEmpty)
    }

    @Test("--discard-bodies counts and hashes big values without keeping them", .mock(arguments: ["--discard-bodies"]))
    func discardBodies() throws {
        let data = Data((0..<(5 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let file = try temporaryFile(data)
        let result = try curl([
            mock.url("/pastes/create"), "-F", "paste[body]=<\(file)", "-F", "paste[authorization]=burger",
            "-o", "/dev/null", "-w", "%{http_code}",
        ])
        #expect(result.out == "302")
        let paste = try mock.paste(id: 1)
        #expect(!paste.kept)
        #expect(paste.fingerprint == (try Fingerprint(of: data)))
        #expect(paste.href == nil)
        #expect(try mock.request("GET", "/_pastes/1/body").status == 410)
        #expect(try mock.requests().first?.field("paste[authorization]")?.text == "burger")
    }
}

@Suite("other pastebin APIs", .temporaryHome, .mock)
struct ServiceTests: ScopedSuite {
    @Test("dpaste: 201 with the URL in Location and body")
    func dpaste() throws {
        let result = try curl(
            [
                mock.url("/api/v2/"), "-F", "content=<-", "-F", "syntax=python", "-F", "title=T",
                "-F", "expiry_days=3", "-D", "/dev/stderr",
            ], input: .bytes(Data("print(1)\n".utf8)))
        #expect(result.out == mock.url("/pastes/1") + "\n")
        #expect(result.err.contains("HTTP/1.1 201 Created"))
        #expect(result.err.contains("Location: \(mock.url("/pastes/1"))\r\n"))
        #expect(try mock.rawPaste(id: 1) == Data("print(1)\n".utf8))
        #expect(try mock.paste(id: 1).field("syntax")?.text == "python")
        let bad = try curl([mock.url("/api/v2/"), "-F", "content=x", "-F", "expiry_days=999", "-w", "%{http_code}"])
        #expect(bad.out.hasSuffix("400"))
    }

    @Test("paste.rs: raw body, 201, URL body (also on POST /)")
    func pasteRS() throws {
        let file = try temporaryFile(trickyContent)
        for path in ["/pasters/", "/"] {
            let result = try curl([mock.url(path), "--data-binary", "@\(file)", "-w", " %{http_code}"])
            #expect(result.out.hasSuffix(" 201"))
            let id = try #require(Int(result.out.split(separator: " ")[0].split(separator: "/").last ?? ""))
            #expect(try mock.rawPaste(id: id) == trickyContent)
        }
    }

    @Test("0x0: file upload gives URL and X-Token; the token deletes")
    func nullPointer() throws {
        let file = try temporaryFile(trickyContent, name: "a.txt")
        let result = try curl([mock.url("/0x0/"), "-F", "file=@\(file)", "-F", "expires=24", "-D", "/dev/stderr"])
        #expect(result.out == mock.url("/0x0/1.txt") + "\n")
        let token = try #require(
            result.err.components(separatedBy: "\r\n").first { $0.hasPrefix("X-Token: ") }?.dropFirst(9))
        #expect(try curl([mock.url("/0x0/1.txt")]).stdout == trickyContent)
        let wrong = try curl([
            mock.url("/0x0/1"), "-F", "token=nope", "-F", "delete=", "-o", "/dev/null", "-w", "%{http_code}",
        ])
        #expect(wrong.out == "401")
        let delete = try curl([
            mock.url("/0x0/1"), "-F", "token=\(token)", "-F", "delete=", "-o", "/dev/null", "-w", "%{http_code}",
        ])
        #expect(delete.out == "200")
        #expect(try mock.request("GET", "/pastes/1.txt").status == 404)
    }

    @Test("0x0: an image or binary file is stored byte-exact with its part's name and type, and served as that type")
    func nullPointerFiles() throws {
        let mock = try MockServer()
        let png = try TestImages.noisePNG(side: 300)
        let binary = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 9) })
        let cases: [(Data, String, String, String)] = [
            (Data(png), "clipboard-20250131-123456.png", "image/png", ".png"),
            (binary, "blob.bin", "application/octet-stream", ".bin"),
        ]
        for (index, (bytes, name, type, ext)) in cases.enumerated() {
            let file = try temporaryFile(bytes, name: name)
            let result = try curl([mock.url("/0x0/"), "-F", "file=@\(file);type=\(type)"])
            let url = mock.url("/0x0/\(index + 1)\(ext)")
            #expect(result.out == url + "\n")
            let served = try mock.fetch(url: url)
            #expect(served.status == 200)
            #expect(served.header("Content-Type") == type)
            #expect(served.body == bytes)
            let stored = try mock.paste(id: index + 1)
            #expect(stored.filename == name)
            #expect(stored.contentType == type)
            #expect(stored.fingerprint == (try Fingerprint(of: bytes)))
        }
        // A part with no type (nor name) of its own is served as text.
        let text = try temporaryFile(Data("plain\n".utf8), name: "noext")
        #expect(try curl([mock.url("/0x0/"), "-F", "file=<\(text)"]).out == mock.url("/0x0/3.txt") + "\n")
        #expect(try mock.fetch(url: mock.url("/0x0/3.txt")).header("Content-Type") == "text/plain; charset=utf-8")
    }

    @Test("sprunge: form field on /sprunge/ and on /")
    func sprunge() throws {
        #expect(
            try curl([mock.url("/sprunge/"), "-F", "sprunge=<-"], input: .bytes(Data("one".utf8))).out
                == mock.url("/pastes/1") + "\n")
        #expect(try curl([mock.url("/"), "--data-urlencode", "sprunge=two"]).out == mock.url("/pastes/2") + "\n")
        #expect(try mock.rawPaste(id: 2) == Data("two".utf8))
    }

    @Test("pinnwand: JSON in, link and removal out, raw at /raw/ID")
    func pinnwand() throws {
        let json = #"{"expiry":"1day","files":[{"lexer":"python","content":"print(\"ü\")\n"}]}"#
        let result = try curl([mock.url("/api/v1/paste"), "-H", "Content-Type: application/json", "-d", json])
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: String])
        #expect(object["link"] == mock.url("/pastes/1"))
        let removal = try #require(object["removal"])
        #expect(removal.hasPrefix(mock.url("/remove/")))
        #expect(try curl([mock.url("/raw/1")]).out == "print(\"ü\")\n")
        #expect(try mock.paste(id: 1).field("files[0].lexer")?.text == "python")
        let bad = try curl([mock.url("/api/v1/paste"), "-d", #"{"expiry":"never","files":[]}"#, "-w", " %{http_code}"])
        #expect(bad.out.hasSuffix(" 400"))
        #expect(try curl([removal, "-o", "/dev/null", "-w", "%{http_code}"]).out == "302")
        #expect(try mock.request("GET", "/raw/1").status == 404)
    }

    /// A paste in PrivateBin's v2 shape; the mock checks the shape, never the cryptography.
    static let privateBinPaste =
        #"{"v":2,"adata":[["AAECAwQFBgcICQoLDA0ODw==","//79/Pv6+fg=",100000,256,128,"aes","gcm","zlib"],"#
        + #""plaintext",0,0],"ct":"c2VhbGVkIGJ5dGVzIGFuZCBhIHRhZw==","meta":{"expire":"1day"}}"#

    /// `curl` with PrivateBin's JSON header; the answer as a JSON object.
    func privateBin(_ arguments: [String]) throws -> [String: Any] {
        let result = try curl(["-H", "X-Requested-With: JSONHttpRequest"] + arguments)
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }

    @Test("privatebin: stores the JSON as sent, answers a relative url and a token, serves it back, deletes")
    func privateBin() throws {
        let created = try privateBin([mock.url("/privatebin/"), "--data-binary", Self.privateBinPaste])
        #expect(created["status"] as? Int == 0)
        let id = try #require(created["id"] as? String)
        #expect(id.count == 16 && id.allSatisfy(\.isHexDigit))
        #expect(created["url"] as? String == "/privatebin/?\(id)")
        let token = try #require(created["deletetoken"] as? String)
        #expect(token.count == 64)
        let stored = try #require(try mock.pastes().first)
        #expect(stored.service == "privatebin")
        #expect(stored.data == Data(Self.privateBinPaste.utf8))
        #expect(stored.field("expire")?.text == "1day")
        #expect(stored.field("formatter")?.text == "plaintext")

        // Read back as pbincli does: `GET ?ID` with the JSON header; adata and ct unchanged.
        let read = try privateBin([mock.url("/privatebin/?\(id)")])
        #expect(read["status"] as? Int == 0)
        #expect(read["ct"] as? String == "c2VhbGVkIGJ5dGVzIGFuZCBhIHRhZw==")
        let adata = try JSONSerialization.data(
            withJSONObject: try #require(read["adata"]), options: .withoutEscapingSlashes)
        #expect(String(decoding: adata, as: UTF8.self).hasSuffix(#""zlib"],"plaintext",0,0]"#))
        // Without the header PrivateBin renders its page, not JSON.
        #expect(try curl([mock.url("/privatebin/?\(id)")]).out.contains("<title>PrivateBin</title>"))

        let wrong = try privateBin([mock.url("/privatebin/"), "-d", #"{"pasteid":"\#(id)","deletetoken":"nope"}"#])
        #expect(wrong["status"] as? Int == 1)
        #expect(wrong["message"] as? String == "Wrong deletion token. Document was not deleted.")
        let deleted = try privateBin([
            mock.url("/privatebin/"), "-d", #"{"pasteid":"\#(id)","deletetoken":"\#(token)"}"#,
        ])
        #expect(deleted["status"] as? Int == 0)
        #expect(try mock.pastes().isEmpty)
        let gone = try privateBin([mock.url("/privatebin/?\(id)")])
        #expect(gone["message"] as? String == "Document does not exist, has expired or has been deleted.")
    }

    @Test("privatebin: GET deletion, burn after reading, invalid data and the privatebin-error fault")
    func privateBinDetails() throws {
        let burning = Self.privateBinPaste.replacingOccurrences(of: #""plaintext",0,0]"#, with: #""plaintext",0,1]"#)
        let burnt = try privateBin([mock.url("/privatebin/"), "--data-binary", burning])
        let burntID = try #require(burnt["id"] as? String)
        #expect(try privateBin([mock.url("/privatebin/?\(burntID)")])["status"] as? Int == 0)
        #expect(try privateBin([mock.url("/privatebin/?\(burntID)")])["status"] as? Int == 1)

        let kept = try privateBin([mock.url("/privatebin/"), "--data-binary", Self.privateBinPaste])
        let id = try #require(kept["id"] as? String)
        let token = try #require(kept["deletetoken"] as? String)
        let deleted = try privateBin([mock.url("/privatebin/?pasteid=\(id)&deletetoken=\(token)")])
        #expect(deleted["status"] as? Int == 0)
        #expect(try mock.pastes().isEmpty)

        for invalid in [
            Self.privateBinPaste.replacingOccurrences(of: "100000", with: "1000"),
            Self.privateBinPaste.replacingOccurrences(of: #""plaintext""#, with: #""html""#),
            Self.privateBinPaste.replacingOccurrences(of: #","meta":{"expire":"1day"}"#, with: ""),
            #"{"v":2}"#,
        ] {
            let refused = try privateBin([mock.url("/privatebin/"), "--data-binary", invalid])
            #expect(refused["status"] as? Int == 1)
            #expect(refused["message"] as? String == "Invalid data.")
        }
        try mock.addFault(.privateBinError(message: "Please wait 10 seconds between each post."))
        let limited = try privateBin([mock.url("/privatebin/"), "--data-binary", Self.privateBinPaste])
        #expect(limited["status"] as? Int == 1)
        #expect(limited["message"] as? String == "Please wait 10 seconds between each post.")
        #expect(try mock.pastes().isEmpty)
    }

    @Test("generic JSON and Location-only endpoints")
    func genericEndpoints() throws {
        let json = try curl([mock.url("/json"), "-F", "content=abc"])
        let object = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        #expect((object?["data"] as? [String: Any])?["url"] as? String == mock.url("/pastes/1"))
        let location = try curl([mock.url("/location"), "--data-binary", "xyz", "-D", "-", "-o", "/dev/null"])
        #expect(location.out.hasPrefix("HTTP/1.1 201 Created\r\n"))
        #expect(location.out.contains("Location: \(mock.url("/pastes/2"))\r\n"))
        #expect(try mock.rawPaste(id: 2) == Data("xyz".utf8))
    }

    @Test("termbin: TCP content until half-close, answered with a URL line", .mock(tcp: true))
    func termbin() throws {
        let answer = try mock.tcpPaste(trickyContent)
        #expect(answer == mock.url("/t/1") + "\n")
        #expect(try curl([mock.url("/t/1")]).stdout == trickyContent)
        #expect(try mock.requests().first?.listener == "tcp")
    }
}

@Suite("faults", .temporaryHome, .mock)
struct FaultTests: ScopedSuite {
    @Test("status with Retry-After and body, for the next request only")
    func status() throws {
        try mock.addFault(.status(503, retryAfter: 2, body: "busy\n"))
        let failed = try curl([mock.url("/pasters/"), "-d", "x", "-D", "/dev/stderr", "-w", "%{http_code}"])
        #expect(failed.out == "busy\n503")
        #expect(failed.err.contains("Retry-After: 2\r\n"))
        #expect(try curl([mock.url("/pasters/"), "-d", "x", "-o", "/dev/null", "-w", "%{http_code}"]).out == "201")
        #expect(try mock.requests().map(\.fault) == ["status", nil])
    }

    @Test(
        "--fault on the command line lasts the whole run and filters by path",
        .mock(arguments: ["--fault", "status:status=429,retry-after=7,path=/pasters"]))
    func commandLineFault() throws {
        for _ in 0..<3 {
            #expect(try curl([mock.url("/pasters/"), "-d", "x", "-o", "/dev/null", "-w", "%{http_code}"]).out == "429")
        }
        #expect(try curl([mock.url("/json"), "-d", "content=x", "-o", "/dev/null", "-w", "%{http_code}"]).out == "200")
        #expect(try curl([mock.url("/_health")]).out == "ok\n")
    }

    @Test("delay holds the answer")
    func delay() throws {
        try mock.addFault(.delay(seconds: 2))
        let result = try curl([mock.url("/pasters/"), "-d", "x", "-m", "1", "-w", "%{http_code}"])
        #expect(result.status == 28)  // curl: operation timed out
    }

    @Test("drop-request closes while the body is being read")
    func dropRequest() throws {
        try mock.addFault(.dropRequest(afterBytes: 1000))
        let file = try temporaryFile(Data(repeating: 66, count: 200_000))
        let result = try curl([mock.url("/pasters/"), "--data-binary", "@\(file)", "-H", "Expect:"])
        #expect(result.status != 0)
        let logged = try #require(try mock.requests().first)
        #expect(logged.dropped)
        #expect(logged.bodySize < 1000)
        #expect(try mock.pastes().isEmpty)
    }

    @Test("drop-response cuts the answer after N bytes")
    func dropResponse() throws {
        let whole = try curl([mock.url("/pasters/"), "-d", "x", "-o", "/dev/null", "-w", "%{size_header}"])
        let headSize = try #require(Int(whole.out))
        try mock.addFault(.dropResponse(afterBytes: headSize + 5))
        let result = try curl([mock.url("/pasters/"), "-d", "x"])
        #expect(result.status == 18, "curl said: \(result.err)")  // partial file
        #expect(result.out == String(mock.url("/pastes/2").prefix(5)))
        #expect(try mock.requests().last?.status == 201)
    }

    @Test("redirect-loop never ends; curl gives up")
    func redirectLoop() throws {
        try mock.addFault(.redirectLoop)
        let result = try curl([mock.url("/pasters/"), "-d", "x", "-L", "--max-redirs", "5"])
        #expect(result.status == 47)  // too many redirects
    }

    @Test("redirect-file points at file:///etc/passwd")
    func redirectFile() throws {
        try mock.addFault(.redirectToFile)
        let result = try curl([
            mock.url("/pasters/"), "-d", "x", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}",
        ])
        #expect(result.out == "302 file:///etc/passwd")
    }

    @Test("redirect-root sends the client back to the form page")
    func redirectRoot() throws {
        try mock.addFault(.redirectToRoot())
        let result = try curl([
            mock.url("/pastes/create"), "-F", "paste[body]=x", "-F", "paste[authorization]=burger", "-L",
            "-w", "\n%{url_effective}",
        ])
        #expect(result.out.hasSuffix("\n" + mock.url("/")))
        #expect(result.out.contains("<form"))
        #expect(try mock.pastes().isEmpty)
    }

    @Test("huge streams the configured size")
    func huge() throws {
        try mock.addFault(.huge(bytes: 20 << 20))
        let result = try curl([
            mock.url("/pasters/"), "-d", "x", "-o", "/dev/null", "-w", "%{http_code} %{size_download}",
        ])
        #expect(result.out == "200 \(20 << 20)")
    }

    @Test("no-url answers 200 with an HTML error page")
    func noURL() throws {
        try mock.addFault(.noURL)
        let result = try curl([mock.url("/pasters/"), "-d", "x", "-w", "%{http_code}"])
        #expect(result.out.contains("<h1>error</h1>"))
        #expect(result.out.hasSuffix("200"))
        #expect(!result.out.contains("http://"))
    }

    @Test("escape-url and javascript-url put hostile URLs in Location and body")
    func hostileURLs() throws {
        try mock.addFault(.escapeURL())
        let escaped = try curl([mock.url("/pasters/"), "-d", "x", "-D", "/dev/stderr"])
        #expect(escaped.out.contains("\u{1B}["))
        #expect(escaped.err.contains("Location: \(mock.url("/pastes/1"))\u{1B}[31m"))
        try mock.addFault(.javascriptURL(json: true))
        let script = try curl([mock.url("/json"), "-d", "x"])
        let object = try JSONSerialization.jsonObject(with: script.stdout) as? [String: Any]
        #expect(((object?["data"] as? [String: Any])?["url"] as? String)?.hasPrefix("javascript:") == true)
    }

    @Test("partial answers 206 and keeps only part of the content")
    func partial() throws {
        try mock.addFault(.partial())
        let result = try curl([mock.url("/pasters/"), "--data-binary", "0123456789", "-D", "/dev/stderr"])
        #expect(result.err.hasPrefix("HTTP/1.1 206 Partial Content"))
        #expect(result.err.contains("Content-Range: bytes 0-4/10"))
        #expect(result.out == mock.url("/pastes/1"))
        #expect(try mock.rawPaste(id: 1) == Data("01234".utf8))
        #expect(try mock.paste(id: 1).partial)
    }

    @Test("trickle sends the answer a byte at a time")
    func trickle() throws {
        try mock.addFault(.trickle(bytes: 1, seconds: 0.5))
        let result = try curl([mock.url("/pasters/"), "-d", "x", "-m", "2"])
        #expect(result.status == 28)
        try mock.addFault(.trickle(bytes: 64, seconds: 0.01))
        #expect(try curl([mock.url("/pasters/"), "-d", "y"]).out == mock.url("/pastes/2"))
    }

    @Test("faults can be listed and cleared; control routes are never faulted")
    func clearing() throws {
        try mock.addFault(.status(500), count: 0)
        #expect(try mock.request("GET", "/_health").status == 200)
        #expect(try curl([mock.url("/pasters/"), "-d", "x", "-o", "/dev/null", "-w", "%{http_code}"]).out == "500")
        try mock.clearFaults()
        #expect(try curl([mock.url("/pasters/"), "-d", "x", "-o", "/dev/null", "-w", "%{http_code}"]).out == "201")
        let bad = try mock.request(
            "POST", "/_faults", body: Data(#"{"fault":"nope"}"#.utf8), contentType: "application/json")
        #expect(bad.status == 400)
    }
}

/// A value shared between threads under a lock.
final class Locked<Value>: @unchecked Sendable {
    // Safe: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func mutate(_ body: (inout Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&stored)
    }
}
