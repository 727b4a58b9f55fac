import Foundation
import PasteCore
import Requests
import Testing
import TestSupport

@testable import Upload

/// Files and images on the wire: built by `RequestBuilder.build(file:…)`, sent by the real
/// libcurl, and taken apart by the server byte for byte.
@Suite("File parts on the wire")
struct FilePartWireTests {
    let server: TestServer
    let uploader = Uploader()

    init() throws { server = try TestServer() }

    /// 0x0's profile pointed at the test server.
    var fileHost: ServiceProfile {
        var profile = BuiltInServices.nullPointer
        profile.url = ConfigValue(server.base + "/0x0")
        return profile
    }

    /// 300 KB of every byte value, NULs and CR LF included.
    static let binary: [UInt8] = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }

    @Test("a PNG in memory and a 300 KB binary file from disk arrive byte-exact, with name and Content-Type")
    func multipartFileParts() throws {
        let png = try TestImages.noisePNG(side: 200)
        let file = try TemporaryFile(Self.binary)
        let unknown = MediaType.detect(start: Self.binary.prefix(512), isWhole: false, fileName: "blob.bin")
        #expect(unknown == .octetStream)
        let cases: [(ContentSource, String, MediaType, [UInt8])] = [
            (.bytes(png), "clipboard-20250131-123456.png", MediaType(imageType: "image/png")!, png),
            (.file(path: file.path, size: Int64(Self.binary.count)), "blob.bin", unknown, Self.binary),
        ]
        for (source, name, type, expected) in cases {
            var builder = RequestBuilder(profile: fileHost, context: Context(environment: [:]))
            let request = try builder.build(
                file: source, named: name, type: type, options: PasteOptions(expirySeconds: 3600))
            let echo = try Echo(try uploader.send(request))
            let parts = try echo.parts()
            #expect(parts.map(\.name) == ["file", "expires"])
            #expect(parts[0].fileName == name)
            #expect(parts[0].headers.contains("Content-Type: \(type.name)"), "\(parts[0].headers)")
            #expect(parts[0].content.count == expected.count)
            #expect(parts[0].content == expected)
            #expect(parts[1].content == Array("1".utf8))
        }
    }

    @Test("a raw body carries the file byte-exact with its Content-Type")
    func rawBody() throws {
        var profile = ServiceProfile(name: "put", url: ConfigValue(server.base + "/upload"))
        profile.format = .raw
        profile.method = "PUT"
        profile.accepts = .files
        let png = try TestImages.smallPNG()
        var builder = RequestBuilder(profile: profile, context: Context(environment: [:]))
        let request = try builder.build(
            file: .bytes(png), named: "shot.png", type: MediaType(imageType: "image/png")!, options: PasteOptions())
        let echo = try Echo(try uploader.send(request))
        #expect(echo.method == "PUT")
        #expect(echo.header("Content-Type") == "image/png")
        #expect(echo.bodyBytes == png)
    }
}
