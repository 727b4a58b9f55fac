import Foundation
import PasteCore
import Testing
import TestSupport
@testable import Upload

/// Hands out the given words in turn, then repeats the last: boundaries chosen by the test.
struct ScriptedGenerator: RandomNumberGenerator {
    var words: [UInt64]
    mutating func next() -> UInt64 {
        words.count > 1 ? words.removeFirst() : words[0]
    }
}

/// The boundary `MultipartBody` makes from these two generator words (12 bytes, little end first).
func boundary(_ first: UInt64, _ second: UInt64) -> String {
    var bytes: [UInt8] = []
    for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: first >> (8 * UInt64(index)))) }
    for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: second >> (8 * UInt64(index)))) }
    return String(repeating: "-", count: 24) + bytes.map { String(format: "%02x", $0) }.joined()
}

/// The multipart encoder on its own: framing, escaping, boundary choice.
@Suite("Multipart bodies encoded in memory")
struct MultipartBodyTests {
    @Test("the framing is libcurl's, byte for byte: escapes, default types, empty parts, no NUL in names")
    func framing() throws {
        var generator = ScriptedGenerator(words: [0x0123_4567_89AB_CDEF, 0x0F0E_0D0C])
        let parts = [
            MultipartBody.Part(name: "plain", data: Array("v".utf8), isInline: true),
            MultipartBody.Part(
                name: "na\"me\\\r\n名", data: Array("a\r\nb\0c".utf8), fileName: "f \"q\"\\x\r\n.TXT",
                isInline: false),
            MultipartBody.Part(name: "typed", data: [], fileName: "x.json", contentType: "text/x-a", isInline: false),
            MultipartBody.Part(name: "cut\0off", data: [], fileName: "x.json", isInline: true),
            MultipartBody.Part(name: "emptytype", data: Array("z".utf8), contentType: "", isInline: false),
        ]
        let body = try #require(MultipartBody(parts: parts, using: &generator))
        let b = boundary(0x0123_4567_89AB_CDEF, 0x0F0E_0D0C)
        #expect(body.boundary == b)
        #expect(b == "------------------------efcdab89674523010c0d0e0f")
        let expected =
            "--\(b)\r\nContent-Disposition: form-data; name=\"plain\"\r\n\r\nv\r\n"
            + "--\(b)\r\nContent-Disposition: form-data; name=\"na%22me\\%0D%0A名\"; filename=\"f %22q%22\\x%0D%0A.TXT\"\r\n"
            + "Content-Type: text/plain\r\n\r\na\r\nb\0c\r\n"
            + "--\(b)\r\nContent-Disposition: form-data; name=\"typed\"; filename=\"x.json\"\r\nContent-Type: text/x-a\r\n\r\n\r\n"
            + "--\(b)\r\nContent-Disposition: form-data; name=\"cut\"; filename=\"x.json\"\r\n\r\n\r\n"
            + "--\(b)\r\nContent-Disposition: form-data; name=\"emptytype\"\r\nContent-Type: \r\n\r\nz\r\n"
            + "--\(b)--\r\n"
        #expect(body.segments.flatMap { $0 } == Array(expected.utf8))
        #expect(body.length == Int64(expected.utf8.count))
    }

    @Test("no parts is just the closing delimiter, as libcurl sends it")
    func noParts() throws {
        var generator = ScriptedGenerator(words: [1, 2])
        let body = try #require(MultipartBody(parts: [], using: &generator))
        #expect(body.segments.flatMap { $0 } == Array("--\(boundary(1, 2))--\r\n".utf8))
    }

    @Test("content is its own segment: the clipboard text is shared, not copied into the framing")
    func contentIsASegment() throws {
        var generator = ScriptedGenerator(words: [1, 2])
        let content = Array(repeating: trickyText, count: 100).flatMap { $0 }
        let body = try #require(
            MultipartBody(
                parts: [
                    .init(name: "content", data: content, isInline: false),
                    .init(name: "lang", data: Array("text".utf8), isInline: true),
                ], using: &generator))
        #expect(body.segments.count == 3)
        #expect(body.segments[1] == content)
    }

    @Test(
        "a boundary found in any part is drawn again",
        arguments: ["data", "name", "fileName", "contentType"])
    func collisionRedraws(place: String) throws {
        let first = boundary(0x1111_2222_3333_4444, 0x5555_6666)
        let second = boundary(0x7777_8888_9999_AAAA, 0xBBBB_CCCC)
        var part = MultipartBody.Part(name: "f", data: Array("x".utf8), isInline: false)
        // The prospective delimiter as a naive parser would look for it.
        let planted = "\r\n--" + first + "\r\n"
        switch place {
        case "data": part.data = Array(("before" + planted + "after").utf8)
        case "name": part.name = planted
        case "fileName": part.fileName = planted
        default: part.contentType = "text/plain" + planted
        }
        var generator = ScriptedGenerator(words: [
            0x1111_2222_3333_4444, 0x5555_6666, 0x7777_8888_9999_AAAA, 0xBBBB_CCCC,
        ])
        let body = try #require(MultipartBody(parts: [part], using: &generator))
        #expect(body.boundary == second)
        let bytes = body.segments.flatMap { $0 }
        // The planted text is sent as it was (a name's CR LF escaped); only the boundary moved.
        #expect(MultipartBody.contains(Array(first.utf8), in: bytes))
        if place == "data" {
            let parts = try Part.split(bytes, boundary: second)
            #expect(parts.map(\.content) == [part.data])
        }
    }

    @Test("when every draw occurs in a part, no body is made and curl_mime takes over")
    func collisionGivesUp() {
        let stuck = boundary(42, 42)
        let part = MultipartBody.Part(name: "f", data: Array(stuck.utf8), isInline: false)
        var generator = ScriptedGenerator(words: [42])
        #expect(MultipartBody(parts: [part], using: &generator) == nil)
    }

    @Test("the boundary search agrees with a plain scan", arguments: 0..<40)
    func searchAgrees(seed: Int) {
        // Small alphabets make near misses and overlaps common.
        var generator = ScriptedGenerator(words: [UInt64(seed) &* 0x9E37_79B9_7F4A_7C15])
        var state = generator.next() | 1
        func nextByte(_ alphabet: Int) -> UInt8 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state % UInt64(alphabet)) &+ 0x61
        }
        let alphabet = 2 + seed % 3
        let text = (0..<(200 + seed * 7)).map { _ in nextByte(alphabet) }
        let pattern = (0..<(1 + seed % 6)).map { _ in nextByte(alphabet) }
        let plain =
            text.count >= pattern.count
            && (0...(text.count - pattern.count)).contains { text[$0..<($0 + pattern.count)].elementsEqual(pattern) }
        #expect(MultipartBody.contains(pattern, in: text) == plain)
        #expect(MultipartBody.contains(pattern, in: text + pattern))
    }

    @Test("only fields held in memory are encoded here; a file or stream part goes to curl_mime")
    func inMemoryOnly() {
        let text = FormField(name: "a", value: .text("x"))
        let bytes = FormField(name: "b", value: .content(.bytes([1]), fileName: "b.txt", contentType: nil))
        let file = FormField(
            name: "c", value: .content(.file(path: "/etc/hostname", size: 1), fileName: nil, contentType: nil))
        let stream = FormField(
            name: "d",
            value: .content(.stream(fileDescriptor: 0, prefix: [], teePath: nil), fileName: nil, contentType: nil))
        #expect(
            MultipartBody.inMemoryParts([text, bytes])
                == [
                    .init(name: "a", data: Array("x".utf8), isInline: true),
                    .init(name: "b", data: [1], fileName: "b.txt", isInline: false),
                ])
        #expect(MultipartBody.inMemoryParts([text, file]) == nil)
        #expect(MultipartBody.inMemoryParts([stream, bytes]) == nil)
    }

    @Test(
        "a service's own Content-Type gets the boundary appended, as libcurl does for a MIME post",
        arguments: [
            ([String](), "multipart/form-data"),
            (["X-A: 1", "Content-Type: text/plain", "content-type: other"], "text/plain"),
            (["content-type:   multipart/related"], "multipart/related"),
            (["Content-Type: multipart/form-data; charset=utf-8"], "multipart/form-data; charset=utf-8"),
            (["Content-Type:"], ""),
            (["Content-Type;"], ""),
        ])
    func serviceContentType(headers: [String], value: String) throws {
        var generator = ScriptedGenerator(words: [7, 8])
        let type = MultipartBody.contentType(userHeaders: headers)
        #expect(type == value)
        let body = try #require(MultipartBody(parts: [], contentType: type, using: &generator))
        #expect(body.contentTypeHeader == "Content-Type: \(value); boundary=\(boundary(7, 8))")
        #expect(MultipartBody.otherHeaders(headers) == headers.filter { $0.hasPrefix("X-") })
    }

    @Test(
        "parts are form-data under multipart/form-data and attachments under any other type",
        arguments: [
            ("multipart/form-data", "form-data"), ("Multipart/Form-Data; charset=utf-8", "form-data"),
            ("multipart/form-data\tx", "form-data"), ("multipart/form-dataX", "attachment"),
            ("multipart/related", "attachment"), ("", "attachment"),
        ])
    func disposition(type: String, disposition: String) throws {
        var generator = ScriptedGenerator(words: [7, 8])
        let part = MultipartBody.Part(name: "n", data: [], isInline: true)
        let body = try #require(MultipartBody(parts: [part], contentType: type, using: &generator))
        let text = String(decoding: body.segments.flatMap { $0 }, as: UTF8.self)
        #expect(text.contains("\r\nContent-Disposition: \(disposition); name=\"n\"\r\n"))
    }
}
