import Foundation
import Testing
import TestSupport

/// Transport safety end to end: the verbose trace redacts credentials and strips escapes, TLS is
/// verified unless --insecure (which warns), proxies come from the environment, no_proxy too.
@Suite("Transport: redaction, TLS, proxies", .temporaryHome, .mock)
struct TransportTests: ScopedSuite {
    @Test("--verbose shows request and response headers, Authorization and cookies redacted")
    func verboseRedacts() throws {
        var paste = paste
        paste.extraEnvironment["TOKEN"] = "sekrit-token-value-42"
        try paste.writeConfig(
            """
            [service "m"]
            url = \(mock.url("/pastes/create"))
            content-field = paste[body]
            field = paste[authorization]=burger
            header = Authorization: Bearer ${env:TOKEN}
            header = Cookie: session=cookie-secret-99

            """)
        let result = try paste.run(["-S", "m", "-v", "--no-copy"], stdin: "verbose\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let lines = result.err.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("paste: > POST /pastes/create") })
        #expect(lines.contains { $0.hasPrefix("paste: > Authorization: ") })
        #expect(lines.contains { $0.hasPrefix("paste: < HTTP/1.1 302") })
        #expect(lines.contains { $0.hasPrefix("paste: < Location: \(mock.baseURL)/pastes/") })
        // Plain http, straight to the server: no CA is read, so no trust line.
        #expect(!lines.contains { $0.hasPrefix("paste: trust:") }, "\(result.err)")
        #expect(!result.err.contains("sekrit-token-value-42"), "\(result.err)")
        #expect(!result.err.contains("cookie-secret-99"), "\(result.err)")
        // The server still got the real values.
        let post = try #require(try mock.posts().first)
        #expect(post.header("Authorization") == "Bearer sekrit-token-value-42")
        #expect(post.header("Cookie") == "session=cookie-secret-99")
    }

    @Test("--verbose with a server sending escape sequences: no ESC byte reaches stderr")
    func verboseStripsEscapes() throws {
        try mock.addFault(.escapeURL(status: 302), count: 0, path: "/pastes/create")
        try paste.writeConfig("[paste]\nretries = 0\n")
        let result = try paste.run(["--url", mock.url("/pastes/create"), "-v"], stdin: "escapes\n")
        #expect(result.status == 69)
        #expect(!result.err.unicodeScalars.contains("\u{1B}"))
        #expect(!result.err.unicodeScalars.contains("\u{07}"))
        #expect(result.err.contains("paste: refusing redirect to "))
    }

    @Test("TLS is verified: a self-signed server fails (69); --insecure goes through and warns")
    func tlsVerification() throws {
        let folder = paste.home.root.path
        let made = try runProcess(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder + "/key.pem", "-out",
                folder + "/cert.pem",
                "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ], timeout: 60)
        #expect(made.status == 0, "\(made.err)")
        let script = fixtures.appendingPathComponent("tls_server.py").path
        let server = try ServerProcess("/usr/bin/python3", [script, folder + "/cert.pem", folder + "/key.pem"])
        let port = try #require(server.baseURL.split(separator: ":").last.map(String.init))
        let url = "https://127.0.0.1:\(port)/pastes/create"
        try paste.writeConfig("[paste]\nretries = 0\n")

        let verified = try paste.run(["--url", url, "--no-copy"], stdin: "tls\n")
        #expect(verified.status == 69, "stderr: \(verified.err)")
        #expect(verified.err.hasPrefix("paste: TLS failure with 127.0.0.1:\(port): "), "\(verified.err)")

        let insecure = try paste.run(["--url", url, "--no-copy", "--insecure", "--new"], stdin: "tls\n")
        #expect(insecure.status == 0, "stderr: \(insecure.err)")
        #expect(insecure.out == "https://127.0.0.1:\(port)/pastes/1\n")
        #expect(
            insecure.err.hasPrefix("paste: warning: --insecure: TLS certificates and host names are not verified\n"))
    }

    @Test("http_proxy is used (absolute-form targets reach the proxy); no_proxy bypasses it")
    func proxies() throws {
        var paste = paste
        paste.extraEnvironment["http_proxy"] = mock.baseURL
        paste.extraEnvironment["HTTP_PROXY"] = .some(nil)
        paste.extraEnvironment["no_proxy"] = .some(nil)
        paste.extraEnvironment["NO_PROXY"] = .some(nil)
        try paste.writeConfig("[paste]\nretries = 0\n")
        let result = try paste.run(["--url", "http://paste.invalid/pastes/create", "--no-copy"], stdin: "via proxy\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.out.hasPrefix("http://paste.invalid/pastes/"))
        let post = try #require(try mock.posts().first)
        #expect(post.target == "http://paste.invalid/pastes/create")
        #expect(try mock.rawPaste(id: try #require(pasteID(result.out))) == Data("via proxy\n".utf8))

        paste.extraEnvironment["no_proxy"] = "paste.invalid"
        try mock.clearRequests()
        let bypassed = try paste.run(
            ["--url", "http://paste.invalid/pastes/create", "--no-copy", "--new"], stdin: "direct\n")
        #expect(bypassed.status == 75, "stderr: \(bypassed.err)")
        #expect(bypassed.err.hasPrefix("paste: cannot resolve host 'paste.invalid'"), "\(bypassed.err)")
        #expect(try mock.requests().isEmpty)
    }
}
