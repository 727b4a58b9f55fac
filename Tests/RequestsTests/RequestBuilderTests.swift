import Testing

@testable import PasteCore
@testable import Requests

@Suite("Request building")
struct RequestBuilderTests {
    let context = Context(environment: ["TOKEN": "t0k"])

    @Test("--url builds the classic pastie request: content first, then the fixed fields")
    func classicPastie() throws {
        var builder = RequestBuilder(profile: .pastie(url: "http://h/pastes/create"), context: context)
        let request = try builder.build(content: .bytes(Array("hi".utf8)), options: PasteOptions())
        #expect(request.url == "http://h/pastes/create")
        #expect(request.result == .redirect)
        #expect(
            request.body
                == .multipart([
                    FormField(
                        name: "paste[body]", value: .content(.bytes(Array("hi".utf8)), fileName: nil, contentType: nil)),
                    FormField(name: "paste[parser]", value: .text("plaintext")),
                    FormField(name: "paste[authorization]", value: .text("burger")),
                ]))
    }

    @Test("-l, -t and -p map to the service's own fields; -l replaces the fixed parser")
    func optionsMapToFields() throws {
        var builder = RequestBuilder(profile: .pastie(url: "http://h/pastes/create"), context: context)
        let request = try builder.build(
            content: .bytes([0x61]), options: PasteOptions(title: "T", language: "ruby", isPrivate: true))
        guard case .multipart(let fields) = request.body else {
            Issue.record("not multipart")
            return
        }
        let texts = fields.compactMap { field -> String? in
            if case .text(let value) = field.value { return "\(field.name)=\(value)" }
            return nil
        }
        #expect(
            texts == ["paste[parser]=ruby", "paste[authorization]=burger", "paste[title]=T", "paste[restricted]=1"])
    }

    @Test("an option the service cannot honour is an error, never dropped")
    func unsupportedOptions() {
        let profile = BuiltInServices.dpaste
        let builder = RequestBuilder(profile: profile, context: context)
        #expect(throws: RequestError.unsupportedOption(service: "dpaste", option: "a private paste (-p)")) {
            try builder.validate(PasteOptions(isPrivate: true), size: nil)
        }
        #expect(throws: RequestError.unsupportedOption(service: "paste.rs", option: "a title (-t)")) {
            try RequestBuilder(profile: BuiltInServices.pasteRS, context: context).validate(
                PasteOptions(title: "x"), size: nil)
        }
        #expect(throws: RequestError.tooLarge(service: "dpaste", bytes: 300_000, limit: 250_000)) {
            try builder.validate(PasteOptions(), size: 300_000)
        }
    }

    @Test("expiry never outlives the request: counts round down, choices take the longest that fits")
    func expiry() throws {
        let dpaste = RequestBuilder(profile: BuiltInServices.dpaste, context: context)
        #expect(try dpaste.expiryValue(3 * 86_400 + 5) == "3")
        #expect(throws: RequestError.self) { try dpaste.expiryValue(3_600) }
        let pinnwand = RequestBuilder(profile: BuiltInServices.bpaST, context: context)
        #expect(try pinnwand.expiryValue(2 * 86_400) == "1day")
        #expect(try pinnwand.expiryValue(8 * 86_400) == "1week")
        // pinnwand's default choices start at a day.
        #expect(throws: RequestError.self) { try pinnwand.expiryValue(3_600) }
    }

    @Test("JSON templates are filled JSON-escaped, with defaults")
    func jsonTemplate() throws {
        var builder = RequestBuilder(profile: BuiltInServices.bpaST, context: context)
        let text = "a \"quote\" \\ and\nnewline \u{01} 日本"
        let request = try builder.build(content: .bytes(Array(text.utf8)), options: PasteOptions(language: "python"))
        guard case .rendered(let bytes, let type) = request.body else {
            Issue.record("not rendered")
            return
        }
        #expect(type == "application/json")
        let body = String(decoding: bytes, as: UTF8.self)
        #expect(body.contains(#""content": "a \"quote\" \\ and\nnewline \u0001 日本""#))
        #expect(body.contains(#""lexer": "python""#))
        #expect(body.contains(#""expiry": "1day""#))
    }

    @Test("headers resolve secrets from the environment")
    func headers() throws {
        var profile = ServiceProfile(name: "x", url: ConfigValue("http://h/"))
        profile.format = .raw
        profile.result = .body
        profile.headers = [ConfigValue("Authorization: Bearer ${env:TOKEN}")]
        var builder = RequestBuilder(profile: profile, context: context)
        let request = try builder.build(content: .bytes([0x61]), options: PasteOptions())
        #expect(request.headers == ["Authorization: Bearer t0k"])
        #expect(builder.expansion.redact(Redaction.header(request.headers[0])) == "Authorization: Bearer [redacted]")
    }
}

@Suite("Headers from templates")
struct HeaderTemplateTests {
    @Test("a value with a line break cannot start a header of its own; an empty value is not sent")
    func headers() throws {
        var profile = ServiceProfile(name: "x", url: ConfigValue("http://h/"))
        profile.format = .raw
        profile.result = .body
        profile.headers = [ConfigValue("X-Name: {filename}"), ConfigValue("X-Title: {title}")]
        var builder = RequestBuilder(profile: profile, context: Context(environment: [:]))
        let request = try builder.build(content: .bytes([0x61]), options: PasteOptions(), fileName: "a\r\nEvil: 1.txt")
        #expect(request.headers == ["X-Name: a  Evil: 1.txt"])
    }
}
