import Testing

@testable import PasteCore
@testable import Requests

/// Requests for files and images (`RequestBuilder.build(file:named:type:options:)`).
@Suite("Request building for files and images")
struct FileRequestTests {
    let context = Context(environment: [:])
    let png = MediaType(imageType: "image/png")!
    /// Bytes no text path would let through: NUL, CR LF, invalid UTF-8, a multipart boundary
    /// look-alike.
    let bytes: [UInt8] =
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE] + Array("\r\n--x--\r\n".utf8)

    @Test("0x0: the file part carries the bytes as they are, with its name and Content-Type; the fields stay")
    func multipartFilePart() throws {
        var builder = RequestBuilder(profile: BuiltInServices.nullPointer, context: context)
        let request = try builder.build(
            file: .bytes(bytes), named: "clipboard-20250131-123456.png", type: png,
            options: PasteOptions(isPrivate: true, expirySeconds: 7200))
        #expect(
            request.body
                == .multipart([
                    FormField(
                        name: "file",
                        value: .content(
                            .bytes(bytes), fileName: "clipboard-20250131-123456.png", contentType: "image/png")),
                    FormField(name: "secret", value: .text("")),
                    FormField(name: "expires", value: .text("2")),
                ]))
        #expect(request.url == "https://0x0.st")
        #expect(request.result == .body)
    }

    @Test("text to the same service keeps its own file name and type (paste.txt, text/plain)")
    func textUnchanged() throws {
        var builder = RequestBuilder(profile: BuiltInServices.nullPointer, context: context)
        let request = try builder.build(content: .bytes(Array("hi".utf8)), options: PasteOptions())
        guard case .multipart(let fields) = request.body, case .content(_, let name, let type) = fields[0].value else {
            Issue.record("not a multipart content part")
            return
        }
        #expect(name == "paste.txt")
        #expect(type == "text/plain; charset=utf-8")
    }

    @Test("a -f file streams from disk with its own name and detected type")
    func fileOnDisk() throws {
        var builder = RequestBuilder(profile: BuiltInServices.nullPointer, context: context)
        let pdf = MediaType.detect(start: Array("%PDF-1.4\n".utf8), isWhole: false, fileName: "report.pdf")
        let request = try builder.build(
            file: .file(path: "/tmp/report.pdf", size: 300_000), named: "report.pdf", type: pdf, options: PasteOptions()
        )
        #expect(
            request.body
                == .multipart([
                    FormField(
                        name: "file",
                        value: .content(
                            .file(path: "/tmp/report.pdf", size: 300_000), fileName: "report.pdf",
                            contentType: "application/pdf"))
                ]))
    }

    @Test("a raw-body service sends the bytes as the body with the file's Content-Type")
    func rawBody() throws {
        var profile = ServiceProfile(name: "put", url: ConfigValue("https://files.example/upload"))
        profile.format = .raw
        profile.method = "PUT"
        profile.accepts = .files
        var builder = RequestBuilder(profile: profile, context: context)
        let request = try builder.build(file: .bytes(bytes), named: "shot.png", type: png, options: PasteOptions())
        #expect(request.body == .raw(.bytes(bytes), contentType: "image/png"))
        #expect(request.method == "PUT")
    }

    @Test("a format with no place for a file is refused; max-size still holds")
    func refusals() {
        var form = RequestBuilder(profile: BuiltInServices.dpaste, context: context)
        #expect(throws: ContentRefusal.cannotCarryFiles(service: "dpaste", format: "form")) {
            try unwrapped { () throws(PartError) in
                try form.build(file: .bytes(bytes), named: "x.png", type: png, options: PasteOptions())
            }
        }
        var limited = BuiltInServices.nullPointer
        limited.maximumBytes = 10
        var builder = RequestBuilder(profile: limited, context: context)
        #expect(throws: RequestError.tooLarge(service: "0x0", bytes: Int64(bytes.count), limit: 10)) {
            try unwrapped { () throws(PartError) in
                try builder.build(file: .bytes(bytes), named: "x.png", type: png, options: PasteOptions())
            }
        }
    }
}
