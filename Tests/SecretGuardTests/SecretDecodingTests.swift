import Foundation
import PasteCore
import Testing

@testable import SecretGuard

/// The encodings undone before matching (`SecretDecoding`, and hard wraps in the token check):
/// each finds what it hides, reports it where it is in the text as given, and leaves clean
/// text alone.
@Suite("Secret guard: decoding before matching")
struct SecretDecodingTests {
    /// A GitHub token with a valid CRC32 tail (as in SecretScannerTests).
    static let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"
    static let pem =
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n"
        + "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n-----END RSA PRIVATE KEY-----\n"

    func scan(_ text: String) -> [SecretFinding] { SecretGuard().scan(Array(text.utf8)) }

    @Test("every decoding is a row of the table, so the prefilter finds its triggers with the rest")
    func decodingsAreRows() {
        for decoding in SecretDecoding.allCases {
            #expect(
                SecretRule.table.contains {
                    if case .decoded(let row) = $0.check { row == decoding } else { false }
                }, "\(decoding)")
            #expect(decoding.triggers.allSatisfy { $0.utf8.count >= 2 })
        }
    }

    @Test("JSON escapes: a URL written by PHP (\\/), a key escaped twice (\\\\n), at the place in the text")
    func jsonEscapes() throws {
        let url = #"{"dsn":"postgres:\/\/app:Xq7-pLm2vR9z@db.example.net\/app"}"#
        let found = scan(url + "\n")
        #expect(found.map(\.pattern) == [.urlCredentials])
        #expect(try #require(found.first).offset == 8)
        let twice = try String(
            data: JSONEncoder().encode([
                "outer": String(data: JSONEncoder().encode(["key": Self.pem]), encoding: .utf8)!
            ]),
            encoding: .utf8)!
        #expect(twice.contains(#"\\n"#))
        #expect(scan(twice).map(\.pattern) == [.privateKey])
    }

    @Test("percent-encoding: a PEM and an Authorization header split by escapes")
    func percentEncoding() {
        let pem = Self.pem.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(scan("GET /import?key=\(pem) HTTP/1.1\n").map(\.pattern) == [.privateKey])
        let header = "Authorization%3A%20Bearer%20Zk3mQ9xV2pL7nR4tW8yB1cD6hJ0sA5eG"
        #expect(scan("headers=\(header)&next=1\n").map(\.pattern) == [.bearerToken])
    }

    @Test("base64 under data: (YAML and JSON), and base64 of -----BEGIN anywhere")
    func base64Values() throws {
        let encoded = Data(Self.pem.utf8).base64EncodedString()
        let yaml = "kind: Secret\nmetadata:\n  name: x\ndata:\n  tls.key: \(encoded)\n  other: dGV4dA==\n"
        let found = scan(yaml)
        #expect(found.map(\.pattern) == [.privateKey])
        #expect(try #require(found.first).line == 5)
        let json = "{\"data\": {\"token\": \"\(Data(("t=" + Self.token).utf8).base64EncodedString())\"}}\n"
        #expect(scan(json).map(\.pattern) == [.gitHubToken])
        #expect(scan("blob \(encoded) end\n").map(\.pattern) == [.privateKey])
    }

    /// A Kubernetes Secret whose `data:` holds `harmless` bytes of harmless base64 values first
    /// (one entry a line), then `last`.
    static func secret(harmless: Int, then last: String) -> String {
        var yaml = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\ndata:\n"
        var index = 0
        while yaml.utf8.count < harmless {
            let value = Data("harmless setting number \(index) of the app".utf8).base64EncodedString()
            yaml += "  setting-\(index): \(value)\n"
            index += 1
        }
        return yaml + last
    }

    @Test(
        "a Secret's key or password past 8 KiB of harmless data: values is found (issue 45, item 8)",
        arguments: [8_192, 16_384, 65_536])
    func longDataBlock(harmless: Int) throws {
        let key = "  tls.key: " + Data(Self.pem.utf8).base64EncodedString() + "\n"
        let keyFound = scan(Self.secret(harmless: harmless, then: key))
        #expect(keyFound.map(\.pattern) == [.privateKey])
        // Base64 of text that starts with none of the triggers' own forms.
        let wrapped = "  id_rsa: " + Data(("# deploy key\n" + Self.pem).utf8).base64EncodedString() + "\n"
        #expect(scan(Self.secret(harmless: harmless, then: wrapped)).map(\.pattern) == [.privateKey])
        // A key name that says nothing: only the decoded value does.
        let password = "  app.env: " + Data("DB_PASSWORD=Tr0ub4dor-and-3x\n".utf8).base64EncodedString() + "\n"
        let passwordFound = scan(Self.secret(harmless: harmless, then: password))
        #expect(passwordFound.map(\.pattern) == [.passwordAssignment])
        // Placed where it is: on the Secret's last line.
        let text = Self.secret(harmless: harmless, then: password)
        #expect(try #require(passwordFound.first).line == text.split(separator: "\n").count)
        #expect(scan(Self.secret(harmless: harmless, then: "")).isEmpty)
    }

    /// The bytes the decodings go over for `size` bytes of `unit` repeated, scanned whole and
    /// fed in 64 KiB chunks.
    static func decodingWork(_ unit: String, size: Int) -> (whole: Int, streamed: Int) {
        let text = Array(String(repeating: unit, count: size / unit.utf8.count).utf8)
        var whole = 0
        _ = SecretScanner.scan(text.span, maximumFindings: SecretGuard.defaultMaximumFindings, decodingWork: &whole)
        var scanner = SecretScanner()
        var offset = 0
        while offset < text.count {
            scanner.feed(Array(text[offset..<min(text.count, offset + (64 << 10))]))
            offset += 64 << 10
        }
        _ = scanner.finish()
        return (whole, scanner.decodingWork)
    }

    @Test(
        "runs of triggers are decoded in linear time: 256 KiB costs about four times 64 KiB (issue 45, item 12)",
        arguments: ["%20", "\\/", "-----\\\\", "\u{1b}[", "a%2Fb ", "\ndata:\n  k: dmFsdWUgb25l\n"])
    func linearWork(unit: String) {
        // The regions restart every 3 KiB, so 64 KiB is 21 of them and 256 KiB 85, with 4
        // streamed chunks: what is not linear shows at these sizes as at larger ones (1 MiB and
        // 256 KiB took a debug build 3-4 s of CPU per unit: the fast phase's costliest test).
        let small = Self.decodingWork(unit, size: 64 << 10)
        let large = Self.decodingWork(unit, size: 256 << 10)
        for (one, four) in [(small.whole, large.whole), (small.streamed, large.streamed)] {
            #expect(one > 0, "\(unit.debugDescription)")
            #expect(four * 2 <= one * 9, "\(unit.debugDescription): \(one) bytes for 64 KiB, \(four) for 256 KiB")
            // A few passes over the text, never one per trigger.
            #expect(four <= 16 * (256 << 10), "\(unit.debugDescription): \(four) bytes for 256 KiB")
        }
    }

    @Test("bare ESC [ that make no control sequence: nothing to undo, and no endless decoding (was SIGSEGV)")
    func bareEscapes() {
        #expect(scan("\u{1b}[\u{1b}[\u{1b}[x\n").isEmpty)
    }

    @Test("terminal colour codes on every line of a key")
    func controlSequences() {
        let coloured = Self.pem.split(separator: "\n").map { "\u{1b}[32m+\($0)\u{1b}[m" }.joined(separator: "\n")
        #expect(scan(coloured + "\n").map(\.pattern) == [.privateKey])
        let grep = "x: ghp_R7b2K9xQ4m\u{1b}[01;31m\u{1b}[KN8vL3cT6yH1pZ5wJ0sD24BzMYC\u{1b}[m\u{1b}[K\n"
        let found = scan(grep)
        #expect(found.map(\.pattern) == [.gitHubToken])
        #expect(found.first.map { ($0.offset, $0.column) }! == (3, 4))
    }

    @Test("a YAML block scalar's value on the line after its key")
    func yamlBlockScalar() {
        #expect(scan("db:\n  password: |-\n    Tr0ub4dor-and-3\n").map(\.pattern) == [.passwordAssignment])
        #expect(scan("db:\n  password: >\n    ${DB_PASSWORD}\n").isEmpty)
        #expect(scan("motd: |\n  Welcome, please change your password: soon\n").isEmpty)
    }

    @Test("a token hard-wrapped at a fixed width is joined; a short line is not taken for a wrap")
    func hardWrap() throws {
        let line = String(repeating: "word ", count: 12) + "key "
        let text = line + Self.token
        let wrapped = String(text.prefix(80)) + "\n" + String(text.dropFirst(80)) + " end\n"
        let found = scan(wrapped)
        #expect(found.map(\.pattern) == [.gitHubToken])
        #expect(try #require(found.first).offset == line.utf8.count)
        let short = "key " + String(Self.token.prefix(20)) + "\n" + String(Self.token.dropFirst(20)) + "\n"
        #expect(scan(short).isEmpty)
    }

    @Test(
        "formats with rules of their own",
        arguments: [
            ("[smtp.example.net]:587 mailer@example.net:Hq8-vLp2Zr7x\n", SecretPattern.passwordAssignment),
            ("ldap_default_authtok = Hq8-vLp2Zr7x\n", .passwordAssignment),
            ("bindpw Hq8-vLp2Zr7x\n", .passwordAssignment),
            ("define( 'DB_PASSWORD', 'Hq8-vLp2Zr7x' );\n", .passwordAssignment),
            (
                "registry=https://npm.example.net/\n_auth=" + Data("ci:Hq8-vLp2Zr7x".utf8).base64EncodedString() + "\n",
                .npmAuth
            ),
            ("Unseal Key 2: 3Jq4Wm9xYp2Lr7Tz8Vb1Nc6Hd5Gf0Ks3Qa9Ew4Ru7Io2\n", .vaultUnsealKey),
            ("Authorization: SSWS 00Qm4Kx8Zp2Wv7Lr9Tn3Bc6Yh1Jd5Gs0Fa8Ue4Oi2X\n", .oktaToken),
            ("Authorization: lin_api_Qm4Kx8Zp2Wv7Lr9Tn3Bc6Yh1Jd5Gs0Fa8Ue4Oi2P\n", .linearAPIKey),
            ("const n = new Client({ auth: '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' })\n", .notionToken),
        ])
    func formats(text: String, expected: SecretPattern) {
        #expect(scan(text).map(\.pattern) == [expected], "\(text)")
    }

    @Test(
        "clean look-alikes stay quiet",
        arguments: [
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
            "aws_secret_access_key = je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY\n",
            "[smtp.example.net]:587 username:password\n",
            "bindpw ${LDAP_BINDPW}\n",
            "_auth=${NPM_AUTH}\n",
            "printf(\"%2d:%02d\\n\", h, m);\n",
            "{\"next\":\"https:\\/\\/api.example.net\\/v1\\/items?page=2\"}\n",
            "metadata:\n  name: web\ndata:\n  ca.crt: "
                + Data("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".utf8).base64EncodedString()
                + "\n",
            "\u{1b}[32mINFO\u{1b}[0m listening on :8080\n\u{1b}[33mWARN\u{1b}[0m slow\n",
        ])
    func quiet(text: String) {
        #expect(scan(text).isEmpty, "\(text)")
    }
}
