import Foundation
import PasteCore
import Testing
import TestSupport
@testable import Upload

/// Multipart bodies encoded in memory, as the server receives them, checked against what
/// libcurl's own `curl_mime` sends for the same fields.
@Suite("Multipart bodies on the wire", .testServer)
struct MultipartWireTests: ScopedSuite {
    let uploader = Uploader()

    /// Text that looks like libcurl's boundaries and delimiters, around the tricky text.
    static let boundaryLookalikes =
        Array(
            ("--------------------------d229469290e56ac6\r\n\r\n--------------------------d229469290e56ac6--\r\n"
                + "\r\n--" + String(repeating: "-", count: 24) + "0123456789abcdef01234567\r\n").utf8) + trickyText

    /// Fields with awkward names and file names; the content part is `content`.
    static func fields(_ content: ContentSource) -> [FormField] {
        [
            FormField(
                name: "paste[body] \"q\" \\ 名前",
                value: .content(content, fileName: "a \"b\"\\c\r\nd.txt", contentType: nil)),
            FormField(name: "lang", value: .text("text")),
            FormField(name: "quote\"d\r\nname", value: .text("值 \"\r\n\0")),
            FormField(name: "typed", value: .content(.bytes(Array("<p>".utf8)), fileName: "x.html", contentType: nil)),
            FormField(name: "empty", value: .text("")),
        ]
    }

    /// The body with its boundary replaced by a fixed string, to compare two requests.
    static func normalised(_ echo: Echo) throws -> [UInt8] {
        let contentType = try #require(echo.header("Content-Type"))
        let boundary = try #require(contentType.components(separatedBy: "boundary=").last)
        let text = echo.bodyBytes
        let pattern = Array(boundary.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < text.count {
            if index + pattern.count <= text.count, text[index..<(index + pattern.count)].elementsEqual(pattern) {
                out += Array("BOUNDARY".utf8)
                index += pattern.count
            } else {
                out.append(text[index])
                index += 1
            }
        }
        return out
    }

    @Test(
        "an in-memory body is exactly what curl_mime sends for the same fields, boundary aside",
        arguments: ["POST", "PUT"], [nil, "Content-Type: multipart/related", "content-type:  Multipart/Form-Data; x=y"])
    func sameAsCurlMime(method: String, contentType: String?) throws {
        let content = Self.boundaryLookalikes
        let file = try TemporaryFile(content)
        let headers = ["X-Before: 1"] + (contentType.map { [$0] } ?? []) + ["X-After: 2"]
        // A file part sends every part of the request through curl_mime; bytes, none.
        let ours = try Echo(
            try uploader.send(
                UploadRequest(
                    url: server.base + "/mine", method: method, headers: headers,
                    body: .multipart(Self.fields(.bytes(content))),
                    result: .body)))
        let libcurls = try Echo(
            try uploader.send(
                UploadRequest(
                    url: server.base + "/mine", method: method, headers: headers,
                    body: .multipart(Self.fields(.file(path: file.path, size: Int64(content.count)))), result: .body)))
        #expect(ours.method == method)
        #expect(libcurls.method == method)
        #expect(try Self.normalised(ours) == Self.normalised(libcurls))
        let type = contentType.map { String($0.split(separator: ":", maxSplits: 1)[1].drop { $0 == " " }) }
        #expect(
            ours.header("Content-Type")?.hasPrefix(
                (type ?? "multipart/form-data") + "; boundary=" + String(repeating: "-", count: 24))
                == true)
        #expect(ours.header("Content-Type")?.count == libcurls.header("Content-Type").map { $0.count + 8 })
        #expect(ours.headers.filter { $0[0].lowercased() == "content-type" }.count == 1)
        #expect(ours.header("X-Before") == "1" && ours.header("X-After") == "2")
        let parts = try ours.parts()
        #expect(parts.map(\.content) == [content, Array("text".utf8), Array("值 \"\r\n\0".utf8), Array("<p>".utf8), []])
    }

    @Test("Content-Length is the body's size, nothing goes chunked, no Expect, and the content arrives byte-exact")
    func lengthAndHeaders() throws {
        let content = Array(repeating: Self.boundaryLookalikes, count: 400).flatMap { $0 }
        let response = try uploader.send(
            UploadRequest(
                url: server.base + "/pastes/create", body: .multipart(Self.fields(.bytes(content))), result: .body))
        let echo = try Echo(response)
        #expect(!echo.chunked)
        #expect(echo.header("Transfer-Encoding") == nil)
        #expect(echo.header("Expect") == nil)
        #expect(echo.header("Content-Length") == String(echo.bodyBytes.count))
        #expect(response.bytesSent == Int64(echo.bodyBytes.count))
        let contentType = try #require(echo.header("Content-Type"))
        #expect(contentType.hasPrefix("multipart/form-data; boundary=" + String(repeating: "-", count: 24)))
        let parts = try echo.parts()
        #expect(parts.map(\.name) == ["paste[body] %22q%22 \\ 名前", "lang", "quote%22d%0D%0Aname", "typed", "empty"])
        #expect(parts[0].fileName == "a %22b%22\\c%0D%0Ad.txt")
        #expect(parts[0].content == content)
        #expect(parts[0].headers.contains("Content-Type: text/plain"))
    }

    @Test("the boundary is new for every request, and is 24 random hex digits after libcurl's dashes")
    func boundaryDiffers() throws {
        var seen: Set<String> = []
        for _ in 0..<3 {
            let echo = try Echo(
                try uploader.send(
                    UploadRequest(
                        url: server.base + "/p", body: .multipart([FormField(name: "a", value: .text("b"))]),
                        result: .body)))
            let boundary = try #require(echo.header("Content-Type")?.components(separatedBy: "boundary=").last)
            #expect(boundary.count == 48)
            #expect(boundary.dropFirst(24).allSatisfy { $0.isHexDigit && !$0.isUppercase })
            seen.insert(boundary)
        }
        #expect(seen.count == 3)
    }

    @Test("a 307 or 308 re-POSTs the same body, rewound, byte-exact", arguments: [307, 308])
    func redirectResends(code: Int) throws {
        // Under the 64 KiB a followed answer may have before it is cut (the echo is base64).
        let content = Array(repeating: Self.boundaryLookalikes, count: 100).flatMap { $0 }
        let target = server.base + "/landed"
        let response = try uploader.send(
            UploadRequest(
                url: server.base + "/redirect?code=\(code)&to=" + target.addingPercentEncoding(
                    withAllowedCharacters: .alphanumerics)!,
                body: .multipart(Self.fields(.bytes(content))), result: .redirect))
        #expect(response.redirectCount == 1)
        let echo = try Echo(response)
        #expect(echo.method == "POST")
        #expect(echo.path == "/landed")
        #expect(echo.header("Content-Length") == String(echo.bodyBytes.count))
        #expect(echo.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(try echo.parts().map(\.content)[0] == content)
    }

    @Test(
        "a 301, 302 or 303 is followed with a GET without the multipart Content-Type, as after curl_mime",
        arguments: [301, 302, 303])
    func redirectToGet(code: Int) throws {
        let target = server.base + "/landed"
        let response = try uploader.send(
            UploadRequest(
                url: server.base + "/redirect?code=\(code)&to=" + target.addingPercentEncoding(
                    withAllowedCharacters: .alphanumerics)!,
                headers: ["X-Kept: yes"], body: .multipart(Self.fields(.bytes(trickyText))), result: .redirect))
        #expect(response.redirectCount == 1)
        let echo = try Echo(response)
        #expect(echo.method == "GET")
        #expect(echo.path == "/landed")
        #expect(echo.header("Content-Type") == nil)
        #expect(echo.header("X-Kept") == "yes")
        #expect(echo.bodyBytes.isEmpty)
    }
}
