import Foundation
import Testing
import TestSupport

@testable import PasteCore
@testable import Requests

@Suite("Content inspection in requests: what the builder checks whole and what it leaves to the stream")
struct RequestContentCheckTests: ScopedSuite {
    func profile(_ format: RequestFormat, template: String? = nil) -> ServiceProfile {
        var profile = ServiceProfile(name: "svc", url: ConfigValue("https://svc.example/api"))
        profile.format = format
        profile.contentField = "content"
        profile.jsonTemplate = template.map { ConfigValue($0) }
        return profile
    }

    @Test("form and json bodies built in memory refuse text that is not UTF-8, never rewrite it")
    func inMemoryRefusal() throws {
        for format in [RequestFormat.form, .json] {
            var builder = RequestBuilder(
                profile: profile(format, template: #"{"c": "{content}"}"#), context: Context(environment: [:]))
            #expect(throws: InspectionRefusal.notUTF8(source: "the text", offset: 3, format: format)) {
                try unwrapped { () throws(PartError) in
                    try builder.build(content: .bytes([0x63, 0x61, 0x66, 0xE9]), options: PasteOptions())
                }
            }
            #expect(throws: InspectionRefusal.binary(source: "the text", offset: 1)) {
                try unwrapped { () throws(PartError) in
                    try builder.build(content: .bytes([0x63, 0x00]), options: PasteOptions())
                }
            }
        }
    }

    @Test(
        "a large file or a pipe goes to a JSON service as the rendered halves around its escaped content",
        .temporaryHome)
    func jsonEmbedded() throws {
        let template = #"{"title": "{title:none}", "content": "{content}", "lang": "{lang:text}"}"#
        var builder = RequestBuilder(profile: profile(.json, template: template), context: Context(environment: [:]))
        let stream = ContentSource.stream(fileDescriptor: 0, prefix: [0x61], teePath: nil)
        let request = try builder.build(content: stream, options: PasteOptions(title: "a \"t\""))
        #expect(
            request.body
                == .embedded(
                    prefix: Array(#"{"title": "a \"t\"", "content": ""#.utf8), content: stream, escaping: .jsonString,
                    suffix: Array(#"", "lang": "text"}"#.utf8), contentType: "application/json"))
        #expect(request.contentChecks == ContentChecks(refusesBinary: true, utf8Format: .json))
        #expect(profile(.json, template: template).streamsContent)

        // {content} twice: a file is read into memory; a pipe cannot be.
        let twice = #"{"a": "{content}", "b": "{content}"}"#
        #expect(!profile(.json, template: twice).streamsContent)
        var twiceBuilder = RequestBuilder(profile: profile(.json, template: twice), context: Context(environment: [:]))
        let file = try home.write("x\"y", to: "f")
        let fromFile = try twiceBuilder.build(content: .file(path: file, size: 3), options: PasteOptions())
        #expect(fromFile.body == .rendered(Array(#"{"a": "x\"y", "b": "x\"y"}"#.utf8), contentType: "application/json"))
        #expect(throws: RequestError.self) {
            try unwrapped { () throws(PartError) in try twiceBuilder.build(content: stream, options: PasteOptions()) }
        }
    }

    @Test("a file or image sent as a file carries no checks: its NUL bytes are its own")
    func filesUnchecked() throws {
        var builder = RequestBuilder(profile: profile(.multipart), context: Context(environment: [:]))
        let png = try #require(MediaType(imageType: "image/png"))
        let stream = ContentSource.stream(fileDescriptor: 0, prefix: [0x89, 0x50, 0x00], teePath: nil)
        let request = try builder.build(file: stream, named: "shot.png", type: png, options: PasteOptions())
        #expect(request.contentChecks == .none)
    }

    @Test("every text request carries its checks and its service's response-timeout")
    func requestCarriesChecks() throws {
        var multipart = profile(.multipart)
        multipart.responseTimeout = .seconds(5)
        var builder = RequestBuilder(profile: multipart, context: Context(environment: [:]))
        let request = try builder.build(content: .bytes([0x61]), options: PasteOptions())
        #expect(request.contentChecks == ContentChecks(refusesBinary: true, utf8Format: nil))
        #expect(request.responseTimeout == .seconds(5))
        var raw = RequestBuilder(profile: profile(.raw), context: Context(environment: [:]))
        #expect(try raw.build(content: .bytes([0x61]), options: PasteOptions()).responseTimeout == nil)
    }
}
