import FoundationEssentials
import Testing
import TestSupport

@testable import PasteCore
@testable import Requests

/// Deterministic primitives that leave a trace of their inputs in their outputs, so the layout
/// PrivateBin's format builds around them can be checked byte for byte.
///
/// Random bytes are `count, count+1, …` (the key, IV and salt differ by length); PBKDF2
/// returns the password's first `keyLength` bytes; deflate prefixes `Z`; the "seal" returns
/// plaintext, `|`, additional data, `|`, key, then a tag of `T`s.
struct TracingCryptography: PasteCryptography {
    func randomBytes(count: Int) -> [UInt8] { (0..<count).map { UInt8(count + $0) } }
    func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, keyLength: Int) -> [UInt8] {
        Array(password.prefix(keyLength))
    }
    func sealAESGCM(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8], additionalData: [UInt8], tagLength: Int)
        -> [UInt8]
    {
        plaintext + [UInt8(ascii: "|")] + additionalData + [UInt8(ascii: "|")] + key
            + [UInt8](repeating: UInt8(ascii: "T"), count: tagLength)
    }
    func deflateRaw(_ bytes: [UInt8]) -> [UInt8] { [UInt8(ascii: "Z")] + bytes }
}

@Suite("PrivateBin format")
struct PrivateBinTests {
    let context = Context(environment: [:])
    let crypto = TracingCryptography()

    /// Bitcoin Core's base58 vectors (src/test/data/base58_encode_decode.json), and leading zeros.
    static let base58Vectors: [(String, String)] = [
        ("", ""),
        ("61", "2g"),
        ("626262", "a3gV"),
        ("636363", "aPEr"),
        ("73696d706c792061206c6f6e6720737472696e67", "2cFupjhnEsSn59qHXstmK2ffpLv2"),
        ("00eb15231dfceb60925886b67d065299925915aeb172c06647", "1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L"),
        ("516b6fcd0f", "ABnLTmg"),
        ("bf4f89001e670274dd", "3SEo3LWLoPntC"),
        ("572e4794", "3EFU7m"),
        ("ecac89cad93923c02321", "EJDM8drfXA6uyA"),
        ("10c8511e", "Rt5zm"),
        ("00000000000000000000", "1111111111"),
        ("0000ff", "115Q"),
    ]

    @Test("base58 matches Bitcoin's vectors, leading zero bytes as '1'", arguments: PrivateBinTests.base58Vectors)
    func base58(_ hex: String, _ expected: String) {
        #expect(Base58.encode([UInt8](hex: hex)) == expected)
    }

    @Test("adata is compact JSON written byte for byte: base64's '/' and '+' are not escaped")
    func additionalData() {
        let adata = PrivateBin.additionalData(
            iv: Array(0...15), salt: [0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0xFA, 0xF9, 0xF8], compression: .zlib,
            formatter: .syntaxhighlighting, burnsAfterReading: true)
        #expect(
            String(decoding: adata, as: UTF8.self)
                == #"[["AAECAwQFBgcICQoLDA0ODw==","//79/Pv6+fg=",100000,256,128,"aes","gcm","zlib"],"syntaxhighlighting",0,1]"#
        )
        let plain = PrivateBin.additionalData(
            iv: [1], salt: [2], compression: .none, formatter: .plaintext, burnsAfterReading: false)
        #expect(
            String(decoding: plain, as: UTF8.self)
                == #"[["AQ==","Ag==",100000,256,128,"aes","gcm","none"],"plaintext",0,0]"#)
    }

    @Test("sealing: the body, the AAD handed to AES-GCM, the deflated message and the key fragment")
    func seal() throws {
        let text = "a \"quoted\" line\\ 日本語 🎉\n</script>"
        let sealed = try PrivateBin.seal(
            text, formatter: .markdown, burnsAfterReading: false, expire: "1day", using: crypto)
        let key = crypto.randomBytes(count: 32)
        let adata = PrivateBin.additionalData(
            iv: crypto.randomBytes(count: 16), salt: crypto.randomBytes(count: 8), compression: .zlib,
            formatter: .markdown, burnsAfterReading: false)
        let message = Array(#"{"paste":"a \"quoted\" line\\ 日本語 🎉\n</script>"}"#.utf8)
        let cipherText =
            [UInt8(ascii: "Z")] + message + [UInt8(ascii: "|")] + adata + [UInt8(ascii: "|")] + key
            + [UInt8](repeating: UInt8(ascii: "T"), count: 16)
        let expected =
            #"{"v":2,"adata":"# + String(decoding: adata, as: UTF8.self) + #","ct":""#
            + Data(cipherText).base64EncodedString() + #"","meta":{"expire":"1day"}}"#
        #expect(String(decoding: sealed.body, as: UTF8.self) == expected)
        #expect(sealed.fragment == "#" + Base58.encode(key))
        #expect(
            sealed.preview
                == #"{"v":2,"adata":"# + String(decoding: adata, as: UTF8.self) + #","ct":"encrypted "#
                + RequestBuilder.contentMarker + #"","meta":{"expire":"1day"}}"#)
    }

    @Test("burn after reading: adata's last flag is 1 and the fragment starts '#-'")
    func burn() throws {
        let sealed = try PrivateBin.seal(
            "x", formatter: .plaintext, burnsAfterReading: true, expire: "5min", using: crypto)
        #expect(String(decoding: sealed.body, as: UTF8.self).contains(#""plaintext",0,1],"ct":"#))
        #expect(sealed.fragment == "#-" + Base58.encode(crypto.randomBytes(count: 32)))
    }

    @Test("compression none encrypts the JSON message as it is")
    func noCompression() throws {
        let sealed = try PrivateBin.seal(
            "x", formatter: .plaintext, burnsAfterReading: false, expire: "1week", compression: .none, using: crypto)
        let body = String(decoding: sealed.body, as: UTF8.self)
        let base64 = try #require(body.split(separator: "\"ct\":\"").last?.split(separator: "\"").first)
        let cipherText = try #require(Data(base64Encoded: String(base64)))
        #expect(String(decoding: cipherText.prefix(13), as: UTF8.self) == #"{"paste":"x"}"#)
        #expect(body.contains(#""gcm","none"]"#))
    }

    @Test(
        "-l picks the formatter",
        arguments: [
            (nil, "plaintext"), ("text", "plaintext"), ("PlainText", "plaintext"), ("none", "plaintext"),
            ("markdown", "markdown"), ("md", "markdown"), ("python", "syntaxhighlighting"),
            ("diff", "syntaxhighlighting"),
        ] as [(String?, String)])
    func formatter(_ language: String?, _ expected: String) {
        #expect(PrivateBin.Formatter(language: language).rawValue == expected)
    }

    @Test(
        "-e maps exactly onto PrivateBin's expiries; no -e is 1week; others are not offered",
        arguments: [
            (300, "5min"), (600, "10min"), (3_600, "1hour"), (86_400, "1day"), (604_800, "1week"),
            (2_592_000, "1month"), (31_536_000, "1year"), (7_200, nil), (60, nil), (1_209_600, nil),
        ] as [(Int, String?)])
    func expire(_ seconds: Int, _ expected: String?) {
        #expect(PrivateBin.expire(for: PasteOptions(expirySeconds: seconds)) == expected)
    }

    @Test("no -e sends the default expiry, -e never sends never")
    func expireDefaults() {
        #expect(PrivateBin.expire(for: PasteOptions()) == "1week")
        var never = PasteOptions()
        never.neverExpires = true
        #expect(PrivateBin.expire(for: never) == "never")
    }

    @Test("answers: status 0 with id, url and token; status 1 with its message; anything else is none")
    func answers() {
        func parse(_ text: String) -> PrivateBin.Answer? { PrivateBin.answer(parsing: Array(text.utf8)) }
        #expect(
            parse(#"{"status":0,"id":"0123456789abcdef","url":"\/?0123456789abcdef","deletetoken":"aa11"}"#)
                == .accepted(id: "0123456789abcdef", url: "/?0123456789abcdef", deleteToken: "aa11"))
        #expect(parse(#"{"status":1,"message":"Invalid data."}"#) == .refused(message: "Invalid data."))
        #expect(parse(#"{"status":0}"#) == nil)
        #expect(parse("<html>PrivateBin</html>") == nil)
        #expect(parse(#"{"status":"0","id":"x"}"#) == nil)
    }

    @Test("deletion: POST pasteid and deletetoken as JSON to the link without its query and key")
    func deletion() throws {
        let request = try #require(
            PrivateBin.deletionRequest(pasteURL: "https://bin.example/p/?0123456789abcdef#-KeY", token: "t\"1"))
        #expect(request.url == "https://bin.example/p/")
        #expect(request.method == "POST")
        #expect(request.headers == ["X-Requested-With: JSONHttpRequest"])
        #expect(
            request.body
                == .rendered(
                    Array(#"{"pasteid":"0123456789abcdef","deletetoken":"t\"1"}"#.utf8), contentType: "application/json"
                ))
        #expect(PrivateBin.deletionRequest(pasteURL: "https://bin.example/pastes/7", token: "t") == nil)
        #expect(PrivateBin.deletionRequest(pasteURL: "https://bin.example/?a=b#k", token: "t") == nil)
    }
}

@Suite("PrivateBin requests and answers")
struct PrivateBinRequestTests {
    let context = Context(environment: [:])
    var profile: ServiceProfile {
        var profile = BuiltInServices.privateBin
        profile.url = ConfigValue("https://bin.example/")
        return profile
    }

    @Test("the request: POST JSON with X-Requested-With; the key only in the link fragment")
    func build() throws {
        var builder = RequestBuilder(profile: profile, context: context, cryptography: TracingCryptography())
        var options = PasteOptions(language: "swift", expirySeconds: 600)
        options.burnsAfterReading = true
        let request = try builder.build(content: .bytes(Array("print(1)\n".utf8)), options: options)
        #expect(request.url == "https://bin.example/")
        #expect(request.method == "POST")
        #expect(request.headers == ["X-Requested-With: JSONHttpRequest"])
        guard case .rendered(let body, let contentType) = request.body else {
            Issue.record("not a rendered body")
            return
        }
        #expect(contentType == "application/json")
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.hasPrefix(#"{"v":2,"adata":[["#))
        #expect(text.contains(#""syntaxhighlighting",0,1],"ct":"#))
        #expect(text.hasSuffix(#","meta":{"expire":"10min"}}"#))
        #expect(!text.contains("print(1)"))
        #expect(request.linkFragment == "#-" + Base58.encode(TracingCryptography().randomBytes(count: 32)))
        #expect(builder.previews.last??.contentBytes == 9)
    }

    @Test("refused before anything is built: -t, an expiry PrivateBin lacks, text that is not UTF-8")
    func refusals() throws {
        let builder = RequestBuilder(profile: profile, context: context, cryptography: TracingCryptography())
        #expect(throws: RequestError.unsupportedOption(service: "privatebin", option: "a title (-t)")) {
            try builder.validate(PasteOptions(title: "t"), size: nil)
        }
        let offered = ["5min", "10min", "1hour", "1day", "1week", "1month", "1year", "never"]
        let spellings = ["5m", "10m", "1h", "1d", "1w", "30d", "365d", "never"]
        let error = RequestError.expiryNotOffered(
            service: "privatebin", requested: "2h", offered: offered, spellings: spellings)
        #expect(throws: error) { try builder.validate(PasteOptions(expirySeconds: 7_200), size: nil) }
        #expect(
            error.message
                == "service 'privatebin' cannot expire a paste after 2h; it offers 5min, 10min, 1hour, 1day, 1week, "
                + "1month, 1year or never; nothing was uploaded")
        #expect(error.hint == "use -e 5m, 10m, 1h, 1d, 1w, 30d, 365d or never")
        #expect(error.exitStatus == .usage)
        var utf8Builder = builder
        #expect(throws: InspectionRefusal.notUTF8(source: "the text", offset: 1, format: .privatebin)) {
            try unwrapped { () throws(PartError) in
                try utf8Builder.build(content: .bytes([0x61, 0xFF, 0x62]), options: PasteOptions())
            }
        }
        // -p is honoured (no PrivateBin paste is listed), and so are --burn and -e never.
        var options = PasteOptions(isPrivate: true)
        options.burnsAfterReading = true
        options.neverExpires = true
        try builder.validate(options, size: nil)
    }

    @Test("other services refuse --burn and -e never; nothing is sent")
    func otherServices() {
        let builder = RequestBuilder(profile: BuiltInServices.dpaste, context: context)
        var burn = PasteOptions()
        burn.burnsAfterReading = true
        #expect(throws: RequestError.unsupportedOption(service: "dpaste", option: "burn after reading (--burn)")) {
            try builder.validate(burn, size: nil)
        }
        var never = PasteOptions()
        never.neverExpires = true
        #expect(
            throws: RequestError.unsupportedOption(service: "dpaste", option: "a paste that never expires (-e never)")
        ) {
            try builder.validate(never, size: nil)
        }
    }

    func request(fragment: String = "#KEY") -> UploadRequest {
        var request = UploadRequest(
            url: "https://bin.example/sub/", body: .rendered([], contentType: "application/json"),
            result: .json(pointer: "/url"))
        request.linkFragment = fragment
        return request
    }

    func extract(_ body: String, fragment: String = "#KEY") throws(ServiceError) -> ResultExtractor.Outcome {
        try ResultExtractor.extract(
            from: UploadResponse(status: 200, effectiveURL: "https://bin.example/sub/", body: Array(body.utf8)),
            request: request(fragment: fragment), profile: profile)
    }

    @Test("the relative url is resolved against the endpoint; the key fragment follows; the token is kept")
    func link() throws {
        let outcome = try extract(
            #"{"status":0,"id":"0123456789abcdef","url":"\/sub\/?0123456789abcdef","deletetoken":"d7"}"#)
        #expect(outcome.url == "https://bin.example/sub/?0123456789abcdef#KEY")
        #expect(outcome.deletion == "d7")
        let burnt = try extract(#"{"status":0,"id":"0123456789abcdef"}"#, fragment: "#-KEY")
        #expect(burnt.url == "https://bin.example/sub/?0123456789abcdef#-KEY")
        #expect(burnt.deletion == nil)
    }

    @Test("status 1 is a refusal with the server's message, escapes removed; exit 69")
    func refused() {
        let error = ServiceError.refused(service: "privatebin", message: "Invalid data.red")
        #expect(throws: error) { try extract("{\"status\":1,\"message\":\"Invalid data.\\u001b[31mred\"}") }
        #expect(error.message == "privatebin refused the paste: Invalid data.red")
        #expect(error.exitStatus == .unavailable)
    }

    @Test("an answer that is not PrivateBin's JSON gives no URL, with the page's text")
    func notJSON() {
        #expect(
            throws: ServiceError.noURL(service: "privatebin", status: 200, excerpt: "PrivateBin needs JavaScript")
        ) {
            try extract("<html><body>PrivateBin needs JavaScript</body></html>")
        }
    }
}
