import Foundation
import Testing
import TestSupport

/// Redaction by value, end to end (issue 16): a secret paste was given (a token a 403 echoes, a
/// query `api_key` from `${env:…}`, URL user information, a proxy password) appears in none of
/// the bytes paste writes: stdout and stderr (with `-v`, `-n` and `--json`), the outbox's files
/// and the history. Every check greps the actual bytes, in their encoded spellings too.
@Suite("Leaks: secrets redacted by value wherever paste prints or stores", .temporaryHome, .mock)
struct LeakTests: ScopedSuite {
    /// The bytes of every file under the state folder (history, outbox contents and metadata).
    func storedFiles() throws -> [(path: String, bytes: Data)] {
        let state = paste.home.stateHome
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: state.path)) ?? []
        return names.compactMap { name in
            let url = state.appendingPathComponent(name)
            guard let bytes = try? Data(contentsOf: url) else { return nil }
            return (url.path, bytes)
        }
    }

    /// Expects none of `secrets` (nor its percent-encoded or base64 spelling) in any output of
    /// `results` or any stored file.
    func expectNowhere(
        _ secrets: [String], in results: [(String, ProcessResult)], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var places: [(String, Data)] = []
        for (name, result) in results {
            places.append(("\(name) stdout", Data(result.out.utf8)))
            places.append(("\(name) stderr", Data(result.err.utf8)))
        }
        let files = try storedFiles()
        #expect(!files.isEmpty, "nothing stored to check", sourceLocation: sourceLocation)
        places += files.map { ($0.path, $0.bytes) }
        for secret in secrets {
            let spellings = Set([
                secret, secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret,
                Data(secret.utf8).base64EncodedString(),
            ])
            for spelling in spellings {
                for (place, bytes) in places {
                    #expect(
                        bytes.range(of: Data(spelling.utf8)) == nil,
                        "'\(spelling)' leaked into \(place): \(String(decoding: bytes, as: UTF8.self))",
                        sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// The metadata files of the outbox, decoded.
    func outboxMetadata() throws -> [[String: Any]] {
        try storedFiles().filter { $0.path.contains("/outbox/") && $0.path.hasSuffix(".json") }.compactMap {
            try JSONSerialization.jsonObject(with: $0.bytes) as? [String: Any]
        }
    }

    /// Where a service's token comes from.
    enum TokenSource: String, CaseIterable, CustomTestStringConvertible {
        case env, file, cmd
        var testDescription: String { "${\(rawValue):…}" }
    }

    @Test(
        "a token a 403 echoes (whole, and cut inside by the excerpt) shows nowhere: stderr, -v, -n, --json, outbox",
        arguments: TokenSource.allCases)
    func echoedToken(source: TokenSource) throws {
        let token = "tok-3c9f1a7e55d04b2b8e61"
        var paste = paste
        let reference: String
        switch source {
        case .env:
            paste.extraEnvironment["ECHO_TOKEN"] = token
            reference = "${env:ECHO_TOKEN}"
        case .file:
            reference = "${file:\(try paste.home.write(token + "\n", to: "token"))}"
        case .cmd:
            reference = "${cmd:cat \(try paste.home.write(token, to: "token"))}"
        }
        try paste.writeConfig(
            """
            [paste]
            retries = 0
            service = api
            [service "api"]
            url = \(mock.url("/pastes/create"))
            content-field = paste[body]
            field = paste[authorization]=burger
            header = Authorization: Bearer \(reference)

            """)
        // The server echoes the token it refuses, JSON-escaped.
        try mock.addFault(.status(403, body: "{\"error\":\"token \\\"\(token)\\\" refused\"}"))
        let whole = try paste.run(["--no-copy", "-v"], stdin: "first text\n")
        #expect(whole.status == 69, "stderr: \(whole.err)")
        #expect(
            whole.err.contains("paste: api answered HTTP 403: {\"error\":\"token \\\"[redacted]\\\" refused\"}\n"),
            "\(whole.err)")
        #expect(whole.err.contains("paste: > Authorization: [redacted]"), "\(whole.err)")
        // An excerpt of 160 characters that ends 10 characters into the token.
        try mock.addFault(.status(403, body: "denied:" + String(repeating: "-", count: 143) + token + " end"))
        let cut = try paste.run(["--no-copy", "--json", "--new"], stdin: "second text\n")
        #expect(cut.status == 69)
        #expect(cut.err.contains("-[redacted]…"), "\(cut.err)")
        let dry = try paste.run(["-n", "-v"], stdin: "dry text\n")
        #expect(dry.status == 0)
        #expect(dry.out.contains("Authorization: Bearer [redacted]"), "\(dry.out)")
        #expect(try paste.outboxContents().count == 2)
        let errors = try outboxMetadata().compactMap { $0["last_error"] as? String }
        #expect(errors.count == 2 && errors.allSatisfy { $0.contains("[redacted]") }, "\(errors)")
        try expectNowhere(
            [token, String(token.prefix(10))], in: [("403 -v", whole), ("403 --json", cut), ("-n -v", dry)])
    }

    @Test("a query api_key from ${env:}: not in -v, -n, --json, the history, or the outbox after a failure")
    func queryKey() throws {
        let key = "key-77a1c0de9b3f4e21"
        var paste = paste
        paste.extraEnvironment["QUERY_KEY"] = key
        try paste.writeConfig(
            """
            [paste]
            retries = 0
            service = js
            [service "js"]
            url = \(mock.url("/json"))?api_key=${env:QUERY_KEY}&kind=note
            format = multipart
            content-field = content
            result = json:/data/url

            """)
        let sent = try paste.run(["--no-copy", "-v"], stdin: "query key text\n")
        #expect(sent.status == 0, "stderr: \(sent.err)")
        #expect(sent.err.contains("api_key=[redacted]"), "\(sent.err)")
        let json = try paste.run(["--no-copy", "--json", "--new"], stdin: "query key json\n")
        #expect(json.status == 0, "stderr: \(json.err)")
        // The key reached the server: masking is in what paste shows, not in what it sends.
        #expect(try mock.posts().last?.query.contains("api_key=\(key)") == true)
        let dry = try paste.run(["-n"], stdin: "dry\n")
        #expect(dry.out.contains("?api_key=[redacted]&kind=note"), "\(dry.out)")
        try mock.addFault(.status(500, body: "no such key \(key)"))
        let failed = try paste.run(["--no-copy", "-v", "--new"], stdin: "kept text\n")
        #expect(failed.status != 0)
        #expect(try paste.outboxContents() == [Data("kept text\n".utf8)])
        #expect(try paste.historyLines().count == 2)
        try expectNowhere([key], in: [("-v", sent), ("--json", json), ("-n", dry), ("500 -v", failed)])
    }

    @Test("--url userinfo: masked in -n, -v, errors, the outbox and history; --retry holds it rather than send")
    func urlUserInfo() throws {
        let password = "pw-Zx81quartz"
        let url = "http://alice:\(password)@127.0.0.1:\(mock.port)/pastes/create"
        try paste.writeConfig("[paste]\nretries = 0\n")
        let sent = try paste.run(["--url", url, "--no-copy", "-v"], stdin: "userinfo text\n")
        #expect(sent.status == 0, "stderr: \(sent.err)")
        #expect(sent.err.contains("Authorization: [redacted]"), "\(sent.err)")
        // libcurl sent the credentials the URL holds.
        let header = try mock.posts().last?.headers.first { $0.first?.lowercased() == "authorization" }?.last
        #expect(header == "Basic " + Data("alice:\(password)".utf8).base64EncodedString())
        let dry = try paste.run(["--url", url, "-n", "-v"], stdin: "dry\n")
        #expect(dry.out.contains("http://[redacted]:[redacted]@127.0.0.1"), "\(dry.out)")
        try mock.addFault(.status(503, body: "busy, alice:\(password)"))
        let failed = try paste.run(["--url", url, "--no-copy", "--new", "--json"], stdin: "kept text\n")
        #expect(failed.status == 75, "stderr: \(failed.err)")
        let stored = try outboxMetadata().compactMap { $0["service_url"] as? String }
        #expect(stored == ["http://[redacted]:[redacted]@127.0.0.1:\(mock.port)/pastes/create"], "\(stored)")
        // --retry holds it (a refusal before sending: said, and exit 0 as for any held entry);
        // sending it by its id is refused with 78.
        let retry = try paste.run(["--retry", "--no-copy"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(retry.err.contains("held credentials, which the outbox does not keep"), "\(retry.err)")
        #expect(retry.err.contains("1 outbox entry is held"), "\(retry.err)")
        let id = try #require(
            try storedFiles().first { $0.path.contains("/outbox/") && $0.path.hasSuffix(".json") }.map {
                String(URL(fileURLWithPath: $0.path).lastPathComponent.dropLast(".json".count))
            })
        let send = try paste.run(["--outbox", "send", id, "--no-copy"])
        #expect(send.status == 78, "stderr: \(send.err)")
        #expect(try mock.posts().count == 2, "the 503's attempt and the first paste; nothing since")
        #expect(try paste.outboxContents() == [Data("kept text\n".utf8)], "held, not lost")
        let history = try paste.run(["--history"])
        #expect(history.out.contains("127.0.0.1"), "\(history.out)")
        try expectNowhere(
            [password, "alice"],
            in: [
                ("-v", sent), ("-n -v", dry), ("503 --json", failed), ("--retry", retry), ("--outbox send", send),
                ("--history", history),
            ])
    }

    @Test("a --url credential written as ${env:} is stored as written, so --retry sends it; its value shows nowhere")
    func urlReferenceRetried() throws {
        let key = "envkey-0b7d2e64"
        var paste = paste
        paste.extraEnvironment["RETRY_KEY"] = key
        try paste.writeConfig("[paste]\nretries = 0\n")
        let url = mock.url("/pastes/create") + "?api_key=${env:RETRY_KEY}"
        try mock.addFault(.status(503, body: "busy for \(key)"))
        let failed = try paste.run(["--url", url, "--no-copy", "-v"], stdin: "kept for later\n")
        #expect(failed.status == 75, "stderr: \(failed.err)")
        let stored = try outboxMetadata().compactMap { $0["service_url"] as? String }
        #expect(stored == [url])
        let retry = try paste.run(["--retry", "--no-copy", "-v"])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        #expect(try paste.outboxContents().isEmpty)
        #expect(try mock.posts().last?.query == "api_key=\(key)")
        try expectNowhere([key], in: [("503 -v", failed), ("--retry -v", retry)])
    }

    @Test("--list-services masks a URL's literal credentials and keeps ${env:} references as written")
    func listServices() throws {
        try paste.writeConfig(
            """
            [service "lit"]
            url = http://carol:Cl3ar-pass@127.0.0.1:9/x?token=Lit3ral-token&kind=note
            [service "ref"]
            url = http://127.0.0.1:9/y?api_key=${env:SOME_KEY}

            """)
        let listed = try paste.run(["--list-services"])
        #expect(listed.status == 0, "stderr: \(listed.err)")
        #expect(
            listed.out.contains("http://[redacted]:[redacted]@127.0.0.1:9/x?token=[redacted]&kind=note"),
            "\(listed.out)")
        #expect(listed.out.contains("http://127.0.0.1:9/y?api_key=${env:SOME_KEY}"), "\(listed.out)")
        let json = try paste.run(["--list-services", "--json"])
        #expect(json.status == 0)
        for text in [listed.out, listed.err, json.out, json.err] {
            #expect(!text.contains("Cl3ar-pass") && !text.contains("Lit3ral-token") && !text.contains("carol"))
        }
    }

    @Test("a proxy password written literally: not in -v, -n, the proxy's refusal, the outbox or history")
    func literalProxyPassword() throws {
        let proxy = try FixtureServer.forwardProxy(credentials: "proxyuser:Lit3ral-proxy-pw")
        var paste = paste
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy"] {
            paste.extraEnvironment[name] = .some(nil)
        }
        let config = "[paste]\nretries = 0\nproxy = http://proxyuser:PASSWORD@127.0.0.1:\(proxy.port)\n"
        try paste.writeConfig(config.replacingOccurrences(of: "PASSWORD", with: "Lit3ral-proxy-pw"))
        let sent = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy", "-v"], stdin: "via proxy\n")
        #expect(sent.status == 0, "stderr: \(sent.err)")
        #expect(proxy.log.contains("auth ok"))
        let dry = try paste.run(["--url", mock.url("/pastes/create"), "-n", "-v"], stdin: "dry\n")
        #expect(dry.status == 0)
        try paste.writeConfig(config.replacingOccurrences(of: "PASSWORD", with: "Wr0ng-proxy-pw"))
        let refused = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy", "-v", "--new"], stdin: "no\n")
        #expect(refused.status == 69, "stderr: \(refused.err)")
        #expect(try paste.outboxContents() == [Data("no\n".utf8)])
        try expectNowhere(
            ["Lit3ral-proxy-pw", "Wr0ng-proxy-pw", "proxyuser:"],
            in: [("-v", sent), ("-n -v", dry), ("407 -v", refused)])
    }

    // MARK: - Token files, --force, the title

    @Test("a ${file:} token others can read is refused (78, chmod hint, the token never shown); 0600 is used")
    func tokenFileMode() throws {
        let token = "file-token-5e0c2b91"
        let tokenFile = try paste.home.write(token + "\n", to: "token", mode: 0o644)
        try paste.writeConfig(
            pastieConfig(mock, name: "api", isDefault: true, extra: "header = X-Token: ${file:\(tokenFile)}\n"))
        let open = try paste.run(["--no-copy"], stdin: "text\n")
        #expect(open.status == 78, "stderr: \(open.err)")
        #expect(
            open.err.contains("reads a secret from '\(tokenFile)', which others can read (mode 644)"), "\(open.err)")
        #expect(open.err.contains("chmod 600 \(tokenFile)"), "\(open.err)")
        #expect(!open.err.contains(token) && open.out.isEmpty)
        #expect(try mock.requests().isEmpty, "nothing sent")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: tokenFile)
        #expect(try paste.run(["--no-copy"], stdin: "text\n").status == 78, "group-readable is refused too")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenFile)
        let sent = try paste.run(["--no-copy", "-v"], stdin: "text\n")
        #expect(sent.status == 0, "stderr: \(sent.err)")
        let sentToken = try mock.posts().last?.headers.first { $0.first?.lowercased() == "x-token" }?.last
        #expect(sentToken == token)
        try expectNowhere([token], in: [("0644", open), ("0600 -v", sent)])
    }

    @Test("text sent with --force keeps no preview (nor a title holding a secret) in the history")
    func forcedKeepsNoPreview() throws {
        let secretText = "deploy key ghs_3NDW3yJlBItRVwqMGyqAE5bFE2qAQ20w2T04\n"
        let plain = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy"], stdin: "plain words\n")
        #expect(plain.status == 0)
        let forced = try paste.run(
            [
                "--url", mock.url("/pastes/create"), "--no-copy", "--force", "-t",
                "ghs_3NDW3yJlBItRVwqMGyqAE5bFE2qAQ20w2T04",
            ],
            stdin: secretText)
        #expect(forced.status == 0, "stderr: \(forced.err)")
        let records = try paste.historyLines().map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == 2)
        #expect(records.first?["preview"] as? String == "plain words")
        #expect(records.last?["preview"] == nil && records.last?["title"] == nil, "\(records)")
        let history = try storedFiles().filter { $0.path.hasSuffix("/history") }.map(\.bytes)
        #expect(history.count == 1)
        #expect(history.allSatisfy { $0.range(of: Data("ghs_".utf8)) == nil })
    }

    @Test("a title or a config field holding a token is refused (77) naming it, never showing it; nothing sent")
    func titleGuard() throws {
        let token = "ghs_3NDW3yJlBItRVwqMGyqAE5bFE2qAQ20w2T04"
        let titled = try paste.run(
            ["--url", mock.url("/pastes/create"), "--no-copy", "-t", "notes " + token], stdin: "x\n")
        #expect(titled.status == 77, "stderr: \(titled.err)")
        #expect(
            titled.err
                == "paste: refusing to upload: the title looks like it holds a GitHub token; use --force to upload anyway\n",
            "\(titled.err)")
        #expect(!titled.err.contains("ghs_"))
        try paste.writeConfig(pastieConfig(mock, name: "s", isDefault: true, extra: "field = paste[parser]=\(token)\n"))
        let field = try paste.run(["--no-copy"], stdin: "x\n")
        #expect(field.status == 77, "stderr: \(field.err)")
        #expect(field.err.contains("the field 'paste[parser]' of service 's' looks like it holds "), "\(field.err)")
        #expect(!field.err.contains("ghs_"))
        #expect(try mock.requests().isEmpty)
        #expect(try paste.outboxContents().isEmpty)
        let forced = try paste.run(["--no-copy", "--force"], stdin: "x\n")
        #expect(forced.status == 0, "--force lets it go: \(forced.err)")
    }
}
