import Foundation
import TestSupport
import Testing

/// PrivateBin end to end: the built `paste` uploads to paste-mock's PrivateBin route, and
/// pbincli 0.3.7 (PyPI, installed by scripts/bootstrap into `.build/venv`), an independent
/// implementation, fetches the paste from the mock and decrypts it with the key in the link:
/// by one pbincli server for the suite (`PbincliServer`), and once by the `pbincli` program.
@Suite("PrivateBin end to end, decrypted by pbincli", .temporaryHome, .mock, .pbincli)
struct PrivateBinEndToEndTests: ScopedSuite {
    /// Points the `privatebin` built-in at the mock's route.
    init() throws {
        try paste.writeConfig("[service \"privatebin\"]\n    url = \(mock.url("/privatebin/"))\n")
    }

    /// `paste -S privatebin --no-copy ARGUMENTS` with `text` piped in.
    func run(_ arguments: [String], stdin text: String) throws -> ProcessResult {
        try paste.run(["-S", "privatebin", "--no-copy"] + arguments, stdin: text)
    }

    /// The one paste the mock holds, as the JSON the client sent.
    func storedPaste() throws -> MockStoredPaste {
        let pastes = try mock.pastes()
        try #require(pastes.count == 1, "the mock holds \(pastes.count) pastes")
        return pastes[0]
    }

    /// `pbincli get -o FOLDER LINK` into a fresh folder: the decrypted text, or the failure.
    ///
    /// By the suite's pbincli server (`PbincliServer`: pbincli's command line, one Python for
    /// the suite), or with `program`, by the `pbincli` program itself, in a home of its own
    /// (pbincli reads ~/.config/pbincli) with no proxy in the way: one test does, so that the
    /// program and its own key derivation agree with the server's.
    static func pbincliGet(
        _ link: String, home: TemporaryHome, program: Bool = false
    ) throws -> Result<Data, PbincliFailure> {
        let folder = home.root.appendingPathComponent("pbincli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let status: Int32
        let output: String
        if program {
            let pbincli = ServerProcess.packageRoot.appendingPathComponent(".build/venv/bin/pbincli").path
            try #require(
                FileManager.default.isExecutableFile(atPath: pbincli), "\(pbincli) is missing: run scripts/bootstrap")
            var environment = home.environment()
            for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
                environment[name] = nil
            }
            environment["NO_PROXY"] = "127.0.0.1,localhost"
            let result = try runProcess(
                pbincli, ["get", "-o", folder.path, link], environment: environment, currentDirectory: folder.path,
                timeout: 120)
            (status, output) = (result.status, result.out + result.err)
        } else {
            (status, output) = try PbincliServer.current.get(link, into: folder.path)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("paste-") }
        guard status == 0, let file = files.first else {
            return .failure(PbincliFailure(status: status, output: output))
        }
        return .success(try Data(contentsOf: folder.appendingPathComponent(file)))
    }

    struct PbincliFailure: Error {
        var status: Int32
        var output: String
    }

    /// A mebibyte of multi-byte lines, numbered so that no two are alike.
    static let mebibyte: String = {
        var text = ""
        var number = 0
        while text.utf8.count < 1 << 20 {
            text += "\(number): ünïcödé — ½ ✓ 𝄞 日本語 and some ASCII so it reads like a log line\n"
            number += 1
        }
        return text
    }()

    @Test(
        "a paste made by paste is decrypted byte-exact by pbincli; the server holds no plaintext",
        arguments: ["hello from paste\n", awkwardText, PrivateBinEndToEndTests.mebibyte])
    func roundTrip(_ text: String) throws {
        let result = try run(["--json"], stdin: text)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let link = try #require(object["url"] as? String)
        let stored = try storedPaste()
        let id = try #require(stored.field("pasteid")?.text)
        // The answer's relative url, resolved against the endpoint, then '#' and the base58 key.
        let prefix = mock.url("/privatebin/?\(id)#")
        #expect(link.hasPrefix(prefix))
        let key = link.dropFirst(prefix.count)
        #expect((43...44).contains(key.count), "base58 of 32 bytes: \(key)")
        #expect(key.allSatisfy { "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".contains($0) })
        #expect(object["deletion"] as? String == stored.token)
        #expect(object["bytes"] as? Int == text.utf8.count)

        // What went over the wire: JSON with PrivateBin's header, no plaintext, no key.
        let sent = try mock.data(stored)
        #expect(sent.range(of: Data(text.utf8)) == nil)
        #expect(sent.range(of: Data(text.utf8.prefix(40))) == nil)
        #expect(sent.range(of: Data(key.utf8)) == nil)
        #expect(stored.field("expire")?.text == "1week")
        #expect(stored.field("formatter")?.text == "plaintext")
        #expect(stored.field("compression")?.text == "zlib")
        let request = try #require(try mock.requests().first)
        #expect(request.header("X-Requested-With") == "JSONHttpRequest")
        #expect(request.header("Content-Type") == "application/json")

        let decrypted = try Self.pbincliGet(link, home: paste.home)
        #expect(try decrypted.get() == Data(text.utf8))
    }

    @Test("-f FILE, -l markdown, -e never: the options land in adata and meta; pbincli decrypts the file")
    func fileAndOptions() throws {
        let path = try paste.home.write(awkwardText, to: "notes.md")
        let result = try paste.run(["-S", "privatebin", "--no-copy", "-f", path, "-l", "markdown", "-e", "never"])
        #expect(result.status == 0, "stderr: \(result.err)")
        let stored = try storedPaste()
        #expect(stored.field("formatter")?.text == "markdown")
        #expect(stored.field("expire")?.text == "never")
        let link = result.out.trimmingCharacters(in: .newlines)
        #expect(try Self.pbincliGet(link, home: paste.home, program: true).get() == Data(awkwardText.utf8))

        try mock.clearRequests()
        let hour = try run(["-e", "1h", "-l", "python"], stdin: "print('hi')\n")
        #expect(hour.status == 0, "stderr: \(hour.err)")
        let sent = try #require(try mock.requests().first?.bodyData)
        let body = String(decoding: sent, as: UTF8.self)
        #expect(body.contains(#""syntaxhighlighting",0,0],"ct":"#))
        #expect(body.hasSuffix(#""meta":{"expire":"1hour"}}"#))
    }

    @Test("paste-config(5)'s recipe: a PrivateBin section of its own, with a Basic auth header from a file")
    func ownSection() throws {
        let credentials = try paste.home.write("dGVhbTpzM2NyZXQ=\n", to: "team-bin.auth")
        try paste.writeConfig(
            """
            [service "team-bin"]
                url = \(mock.url("/privatebin/"))
                format = privatebin
                header = Authorization: Basic ${file:\(credentials)}
            """)
        let result = try paste.run(["-S", "team-bin", "--no-copy", "-p"], stdin: awkwardText)
        #expect(result.status == 0, "stderr: \(result.err)")
        let request = try #require(try mock.requests().first)
        #expect(request.header("Authorization") == "Basic dGVhbTpzM2NyZXQ=")
        #expect(request.header("X-Requested-With") == "JSONHttpRequest")
        let link = result.out.trimmingCharacters(in: .newlines)
        #expect(try Self.pbincliGet(link, home: paste.home).get() == Data(awkwardText.utf8))
        try mock.clearRequests()
        let deleted = try paste.run(["--delete-last"])
        #expect(deleted.status == 0, "stderr: \(deleted.err)")
        #expect(try mock.pastes().isEmpty)
        #expect(try mock.requests().first?.header("Authorization") == "Basic dGVhbTpzM2NyZXQ=")
    }

    @Test("--burn: adata's flag is set, the link says '#-', and the paste is gone once read")
    func burn() throws {
        let result = try run(["--burn", "-e", "5m"], stdin: awkwardText)
        #expect(result.status == 0, "stderr: \(result.err)")
        let link = result.out.trimmingCharacters(in: .newlines)
        let stored = try storedPaste()
        let id = try #require(stored.field("pasteid")?.text)
        #expect(link.hasPrefix(mock.url("/privatebin/?\(id)#-")))
        #expect(stored.field("burnafterreading")?.text == "1")
        #expect(stored.field("expire")?.text == "5min")
        // pbincli reads the key after '#' only; the web client strips the '-' the same way.
        let plainLink = link.replacingOccurrences(of: "#-", with: "#")
        #expect(try Self.pbincliGet(plainLink, home: paste.home).get() == Data(awkwardText.utf8))
        #expect(try mock.pastes().isEmpty)
        #expect(throws: PbincliFailure.self) { try Self.pbincliGet(plainLink, home: paste.home).get() }

        // The same text again within the repeat window is a new paste, not the burnt link.
        let again = try run(["--burn", "-e", "5m"], stdin: awkwardText)
        #expect(again.status == 0, "stderr: \(again.err)")
        #expect(again.out != result.out)
        #expect(try mock.pastes().count == 1)
    }

    @Test("--delete and --delete-last remove the paste with the token kept in history")
    func delete() throws {
        let first = try run([], stdin: "first\n")
        let link = first.out.trimmingCharacters(in: .newlines)
        #expect(first.status == 0, "stderr: \(first.err)")
        let second = try run([], stdin: "second\n")
        #expect(second.status == 0, "stderr: \(second.err)")
        #expect(try mock.pastes().count == 2)
        let history = try paste.historyLines()
        #expect(history.count == 2)
        #expect(history[0].contains("\"delete_token\":\"\(try mock.pastes()[0].token ?? "-")\""))

        try mock.clearRequests()
        let deleted = try paste.run(["--delete", link, "-v"])
        #expect(deleted.status == 0, "stderr: \(deleted.err)")
        // stderr shows the link without its key, in the note and the whole -v trace.
        let shortened = String(link.prefix { $0 != "#" }) + "…"
        #expect(deleted.err.hasSuffix("paste: deleted \(shortened)\n"), "\(deleted.err)")
        #expect(!deleted.err.contains(String(link.split(separator: "#").last ?? "#")), "\(deleted.err)")
        let request = try #require(try mock.requests().first)
        #expect(request.method == "POST")
        #expect(request.path == "/privatebin/")
        #expect(request.header("X-Requested-With") == "JSONHttpRequest")
        // The key never goes to the server, not even to delete.
        let key = String(link.split(separator: "#").last ?? "")
        #expect(request.bodyData.map { $0.range(of: Data(key.utf8)) == nil } == true)
        #expect(try mock.pastes().count == 1)
        #expect(try paste.historyLines().count == 1)
        #expect(throws: PbincliFailure.self) { try Self.pbincliGet(link, home: paste.home).get() }

        let last = try paste.run(["--delete-last"])
        #expect(last.status == 0, "stderr: \(last.err)")
        #expect(try mock.pastes().isEmpty)
        #expect(try paste.historyLines().isEmpty)
    }

    @Test("a deletion the server refuses is exit 69 with its message; the paste stays in history")
    func deleteRefused() throws {
        let made = try run([], stdin: "keep me\n")
        let link = made.out.trimmingCharacters(in: .newlines)
        try mock.addFault(.privateBinError(message: "Wrong deletion token. Document was not deleted."))
        let refused = try paste.run(["--delete", link])
        #expect(refused.status == 69)
        #expect(
            refused.err
                == "paste: privatebin did not delete '\(link.prefix { $0 != "#" })…': "
                + "Wrong deletion token. Document was not deleted.\n")
        #expect(try paste.historyLines().count == 1)
        #expect(try mock.pastes().count == 1)
    }

    @Test("status 1 is exit 69 with the server's message, sanitized; the text waits in the outbox")
    func refused() throws {
        try mock.addFault(.privateBinError(message: "Please wait 10 seconds between each post.\u{1B}[2J"))
        let result = try run([], stdin: awkwardText)
        #expect(result.status == 69)
        #expect(result.out == "")
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            result.err
                == "paste: privatebin refused the paste: Please wait 10 seconds between each post.\n"
                + keptLine(id: id, isHeld: false) + "\n")
        #expect(try paste.outboxContents() == [Data(awkwardText.utf8)])

        // The retry encrypts afresh and succeeds; pbincli reads what it made.
        let retry = try paste.run(["--retry", "--no-copy"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        let link = retry.out.trimmingCharacters(in: .newlines)
        #expect(try Self.pbincliGet(link, home: paste.home).get() == Data(awkwardText.utf8))
        #expect(try paste.outboxContents().isEmpty)
    }

    @Test("refused with 64 and nothing sent: an expiry PrivateBin lacks, a title; --burn elsewhere")
    func usage() throws {
        let expiry = try run(["-e", "2h"], stdin: "x\n")
        #expect(expiry.status == 64)
        #expect(
            expiry.err
                == "paste: service 'privatebin' cannot expire a paste after 2h; it offers 5min, 10min, 1hour, 1day, "
                + "1week, 1month, 1year or never; nothing was uploaded\n"
                + "paste: use -e 5m, 10m, 1h, 1d, 1w, 30d, 365d or never\n")
        let title = try run(["-t", "title"], stdin: "x\n")
        #expect(title.status == 64)
        #expect(title.err.hasPrefix("paste: service 'privatebin' cannot honour a title (-t); nothing was uploaded\n"))
        try paste.writeConfig(
            "[service \"privatebin\"]\n    url = \(mock.url("/privatebin/"))\n"
                + "[service \"0x0\"]\n    url = \(mock.url("/0x0/"))\n")
        let burn = try paste.run(["-S", "0x0", "--burn"], stdin: "x\n")
        #expect(burn.status == 64)
        #expect(
            burn.err.hasPrefix("paste: service '0x0' cannot honour burn after reading (--burn); nothing was uploaded\n")
        )
        let never = try paste.run(["-S", "0x0", "-e", "never"], stdin: "x\n")
        #expect(never.status == 64)
        #expect(try mock.requests().isEmpty)
        #expect(try paste.outboxContents().isEmpty)
    }

    @Test("--dry-run shows the JSON request with the ciphertext left out, and sends nothing")
    func dryRun() throws {
        let result = try run(["-n", "--burn", "-l", "md"], stdin: "secret-free text\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "POST \(mock.url("/privatebin/"))")
        #expect(lines.contains("X-Requested-With: JSONHttpRequest"))
        #expect(lines.contains("Content-Type: application/json"))
        let body = try #require(lines.first { $0.hasPrefix("  {\"v\":2,") })
        #expect(body.contains(#""markdown",0,1],"ct":"encrypted <stdin, 17 bytes>","meta":{"expire":"1week"}}"#))
        #expect(try mock.requests().isEmpty)
    }
}
