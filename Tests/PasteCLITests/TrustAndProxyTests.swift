import Foundation
import Testing
import TestSupport

/// Trust and transport end to end, with real TLS: a throw-away CA (openssl), paste-mock behind a
/// TLS-terminating forwarder (with and without a required client certificate), an HTTP forward
/// proxy and a SOCKS5 proxy (Python standard library, Tests/PasteCLITests/Fixtures). Every
/// server listens on 127.0.0.1 on a port the OS picks and is stopped by the test; the CAs are
/// made once for the suite (`.suiteCertificates`).
@Suite("Trust, client certificates and proxies", .temporaryHome, .suiteCertificates)
struct TrustAndProxyTests: ScopedSuite {
    /// A paste-mock reached through TLS, signed by a private CA.
    struct TLSService {
        let certificates: TestCertificates
        let mock: MockServer
        let tls: FixtureServer

        /// With the suite's main CA unless given `certificates`.
        init(requiringClientCertificate: Bool = false, certificates: TestCertificates? = nil) throws {
            self.certificates = certificates ?? SuiteCertificates.current.main
            mock = try MockServer(arguments: ["--url-scheme", "https"])
            tls = try FixtureServer.tlsForwarder(
                to: mock.port, certificates: self.certificates,
                requiringClientCertificate: requiringClientCertificate)
        }

        /// The pastie endpoint through TLS, under a host name the certificate carries.
        func url(host: String = "127.0.0.1") -> String { "https://\(host):\(tls.port)/pastes/create" }

        /// A `[service "s"]` section for the pastie endpoint, with extra lines.
        func section(_ lines: String = "") -> String {
            """
            [service "s"]
            url = \(url())
            content-field = paste[body]
            field = paste[authorization]=burger
            \(lines)

            """
        }
    }

    /// A runner whose environment names no CA and no proxy, whatever the machine's does, and
    /// whose system store is looked up in an empty private root (`PASTE_TEST_SYSTEM_ROOT`):
    /// the machine's own CAs are never read.
    func runner() throws -> PasteRunner {
        var paste = paste
        for name in [
            "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR", "NIX_SSL_CERT_FILE", "http_proxy", "https_proxy",
            "HTTPS_PROXY", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
        ] {
            paste.extraEnvironment[name] = .some(nil)
        }
        paste.extraEnvironment["PASTE_TEST_SYSTEM_ROOT"] = try systemRoot("empty")
        return paste
    }

    /// A fresh private system root in the temporary home, holding `files` (path under the root:
    /// the file whose bytes go there).
    func systemRoot(_ name: String, _ files: [String: String] = [:]) throws -> String {
        let root = home.root.appendingPathComponent("system-\(name)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, source) in files {
            let target = root.appendingPathComponent(String(path.dropFirst()))
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source, toPath: target.path)
        }
        return root.path
    }

    /// Writes the config: `[paste]` with no retries (failures are reported at once), then `rest`.
    func configure(_ paste: PasteRunner, _ rest: String, paste section: String = "") throws {
        try paste.writeConfig("[paste]\nretries = 0\n\(section)\n" + rest)
    }

    // MARK: - Trust

    enum TrustSource: String, CaseIterable, CustomTestStringConvertible {
        case serviceCAFile, pasteCAFile, caPath, sslCertFile, curlCABundle, sslCertDir
        var testDescription: String { rawValue }
    }

    @Test(
        "a private CA is trusted through ca-file, ca-path, SSL_CERT_FILE, CURL_CA_BUNDLE or SSL_CERT_DIR",
        arguments: TrustSource.allCases)
    func privateCATrusted(source: TrustSource) throws {
        let service = try TLSService()
        var paste = try runner()
        let certificates = service.certificates
        switch source {
        case .serviceCAFile: try configure(paste, service.section("ca-file = \(certificates.caFile)"))
        case .pasteCAFile: try configure(paste, service.section(), paste: "ca-file = \(certificates.caFile)")
        case .caPath: try configure(paste, service.section("ca-path = \(certificates.caFolder)"))
        case .sslCertFile:
            try configure(paste, service.section())
            paste.extraEnvironment["SSL_CERT_FILE"] = certificates.caFile
        case .curlCABundle:
            try configure(paste, service.section())
            paste.extraEnvironment["CURL_CA_BUNDLE"] = certificates.caFile
        case .sslCertDir:
            try configure(paste, service.section())
            paste.extraEnvironment["SSL_CERT_DIR"] = certificates.caFolder
        }
        let result = try paste.run(["-S", "s", "--no-copy"], stdin: "over TLS\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let id = try #require(pasteID(result.out))
        #expect(result.out == "https://127.0.0.1:\(service.tls.port)/pastes/\(id)\n")
        #expect(try service.mock.rawPaste(id: id) == Data("over TLS\n".utf8))
        #expect(result.err == "")
    }

    @Test("an untrusted server: exit 69, the TLS line, then the system bundle used and how to trust a private CA")
    func untrusted() throws {
        let service = try TLSService()
        var paste = try runner()
        // The system's bundle (Debian's place in a private root) holds another CA only.
        let bundle = "/etc/ssl/certs/ca-certificates.crt"
        let systemCA = SuiteCertificates.current.other
        let root = try systemRoot("debian-other", [bundle: systemCA.caFile])
        paste.extraEnvironment["PASTE_TEST_SYSTEM_ROOT"] = root
        try configure(paste, service.section())
        let result = try paste.run(["-S", "s", "--no-copy"], stdin: "untrusted\n")
        #expect(result.status == 69)
        let lines = result.err.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.err)")
        #expect(
            lines.first
                == "paste: TLS failure with 127.0.0.1:\(service.tls.port): SSL certificate problem: unable to get local issuer certificate"
        )
        let hint: String =
            "paste: trusted: the system bundle '\(root)\(bundle)' (Debian/Ubuntu/Arch/Gentoo layout; "
            + "no ca-file, CURL_CA_BUNDLE, SSL_CERT_FILE or SSL_CERT_DIR is set); "
            + "if the server's certificate comes from a private CA, trust it with 'ca-file = /path/to/ca.pem' "
            + "in the service's section (paste-config(5)) or with SSL_CERT_FILE"
        #expect(lines.dropFirst().first == hint)
        #expect(lines.last == keptLine(id: try #require(try paste.outboxIDs().first), isHeld: false))
        #expect(try service.mock.pastes().isEmpty)
        // The service's own (wrong) CA wins over a right one in the environment.
        let other = SuiteCertificates.current.other
        try configure(paste, service.section("ca-file = \(other.caFile)"))
        paste.extraEnvironment["SSL_CERT_FILE"] = service.certificates.caFile
        let shadowed = try paste.run(["-S", "s", "--no-copy", "--new"], stdin: "shadowed\n")
        #expect(shadowed.status == 69, "\(shadowed.err)")
        #expect(shadowed.err.hasPrefix("paste: TLS failure with 127.0.0.1:\(service.tls.port): "))
    }

    /// Where each family keeps its system bundle (or, last, a hashed folder), as laid out in a
    /// private root for the test.
    enum SystemLayout: String, CaseIterable, CustomTestStringConvertible {
        case debian, fedora, fedoraExtracted, openSUSE, alpine, nixVariable, hashedFolder
        var testDescription: String { rawValue }

        /// The bundle's place under the root (the folder's, for `hashedFolder`).
        var path: String {
            switch self {
            case .debian: "/etc/ssl/certs/ca-certificates.crt"
            case .fedora: "/etc/pki/tls/certs/ca-bundle.crt"
            case .fedoraExtracted: "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem"
            case .openSUSE: "/etc/ssl/ca-bundle.pem"
            case .alpine: "/etc/ssl/cert.pem"
            case .nixVariable: "/nix/store/0abc-nss-cacert-3.101/etc/ssl/certs/ca-bundle.crt"
            case .hashedFolder: "/etc/ssl/certs"
            }
        }

        /// What `-v` says after the path.
        var why: String {
            switch self {
            case .debian: "the system bundle, Debian/Ubuntu/Arch/Gentoo layout"
            case .fedora, .fedoraExtracted: "the system bundle, Fedora/RHEL/CentOS layout"
            case .openSUSE: "the system bundle, openSUSE/SLES layout"
            case .alpine: "the system bundle, Alpine layout"
            case .nixVariable: "the system bundle, from NIX_SSL_CERT_FILE"
            case .hashedFolder: "the system's hashed certificate folder, no bundle found"
            }
        }
    }

    @Test(
        "with no CA named, the system's own store is found where each family keeps it, and -v names it",
        arguments: SystemLayout.allCases)
    func systemStoreOfEachFamily(_ layout: SystemLayout) throws {
        let service = try TLSService()
        var paste = try runner()
        let certificates = service.certificates
        let root: String
        switch layout {
        case .hashedFolder:
            // The CA under its hash name only, as `openssl rehash` names it.
            let hashName = try #require(
                try FileManager.default.contentsOfDirectory(atPath: certificates.caFolder).first { $0.hasSuffix(".0") })
            root = try systemRoot(layout.rawValue, [layout.path + "/" + hashName: certificates.caFile])
        case .nixVariable:
            // Only the variable says where: the root holds nothing else.
            root = try systemRoot(layout.rawValue, [layout.path: certificates.caFile])
            paste.extraEnvironment["NIX_SSL_CERT_FILE"] = root + layout.path
        default:
            root = try systemRoot(layout.rawValue, [layout.path: certificates.caFile])
        }
        paste.extraEnvironment["PASTE_TEST_SYSTEM_ROOT"] = root
        try configure(paste, service.section())
        let result = try paste.run(["-S", "s", "--no-copy", "-v"], stdin: "trusted by \(layout)\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let id = try #require(pasteID(result.out))
        #expect(result.out == "https://127.0.0.1:\(service.tls.port)/pastes/\(id)\n")
        #expect(try service.mock.rawPaste(id: id) == Data("trusted by \(layout)\n".utf8))
        let line = "paste: trust: \(root)\(layout.path) (\(layout.why))"
        #expect(result.err.split(separator: "\n").contains(Substring(line)), "\(result.err)")
    }

    @Test("no store in any of the places: exit 69, the TLS line, then that nothing was trusted; -v says so first")
    func noSystemStore() throws {
        let service = try TLSService()
        let paste = try runner()
        try configure(paste, service.section())
        let result = try paste.run(["-S", "s", "--no-copy"], stdin: "nothing trusted\n")
        #expect(result.status == 69, "\(result.err)")
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            result.err
                == "paste: TLS failure with 127.0.0.1:\(service.tls.port): SSL certificate problem: unable to get local issuer certificate\n"
                + "paste: trusted: nothing: no system CA bundle or hashed certificate folder was found in the "
                + "places paste(1) lists (no ca-file, CURL_CA_BUNDLE, SSL_CERT_FILE or SSL_CERT_DIR is set); "
                + "install the system's CA certificates (ca-certificates), or trust the server's CA with "
                + "'ca-file = /path/to/ca.pem' in the service's section (paste-config(5)) or with SSL_CERT_FILE\n"
                + keptLine(id: id, isHeld: false) + "\n")
        #expect(try service.mock.pastes().isEmpty)
        let verbose = try paste.run(["-S", "s", "--no-copy", "--new", "-v"], stdin: "nothing trusted\n")
        #expect(verbose.status == 69)
        #expect(
            verbose.err.split(separator: "\n").contains(
                "paste: trust: nothing (no system CA bundle or hashed certificate folder found; "
                    + "no ca-file, CURL_CA_BUNDLE, SSL_CERT_FILE or SSL_CERT_DIR is set)"),
            "\(verbose.err)")
    }

    enum WrongTrust: String, CaseIterable, CustomTestStringConvertible {
        case caFile, curlCABundleOverSSLCertFile, sslCertFile, sslCertDir
        var testDescription: String { rawValue }
    }

    @Test(
        "the TLS hint names the trust in force: ca-file, CURL_CA_BUNDLE (over SSL_CERT_FILE), SSL_CERT_FILE, SSL_CERT_DIR",
        arguments: WrongTrust.allCases)
    func hintNamesTrustInForce(_ wrong: WrongTrust) throws {
        let service = try TLSService()
        var paste = try runner()
        let other = SuiteCertificates.current.other
        let hint: String
        switch wrong {
        case .caFile:
            try configure(paste, service.section("ca-file = \(other.caFile)"))
            hint =
                "trusted: only ca-file '\(other.caFile)' (\(paste.configPath):8), not the system store; "
                + "add the server's CA to it, or point ca-file at the one that holds it"
        case .curlCABundleOverSSLCertFile:
            // The right CA in SSL_CERT_FILE does not help: curl's CURL_CA_BUNDLE wins.
            try configure(paste, service.section())
            paste.extraEnvironment["CURL_CA_BUNDLE"] = other.caFile
            paste.extraEnvironment["SSL_CERT_FILE"] = service.certificates.caFile
            hint =
                "trusted: only CURL_CA_BUNDLE '\(other.caFile)', which overrides SSL_CERT_FILE, not the system store; "
                + "add the server's CA there, or set 'ca-file = /path/to/ca.pem' in the service's section "
                + "(paste-config(5)), which replaces it"
        case .sslCertFile:
            try configure(paste, service.section())
            paste.extraEnvironment["SSL_CERT_FILE"] = other.caFile
            hint =
                "trusted: only SSL_CERT_FILE '\(other.caFile)', not the system store; "
                + "add the server's CA there, or set 'ca-file = /path/to/ca.pem' in the service's section "
                + "(paste-config(5)), which replaces it"
        case .sslCertDir:
            try configure(paste, service.section())
            paste.extraEnvironment["SSL_CERT_DIR"] = other.caFolder
            hint =
                "trusted: only SSL_CERT_DIR '\(other.caFolder)', not the system store; "
                + "add the server's CA there, or set 'ca-file = /path/to/ca.pem' in the service's section "
                + "(paste-config(5)), which replaces it"
        }
        let result = try paste.run(["-S", "s", "--no-copy"], stdin: "wrong trust\n")
        #expect(result.status == 69, "\(result.err)")
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            result.err
                == "paste: TLS failure with 127.0.0.1:\(service.tls.port): SSL certificate problem: unable to get local issuer certificate\n"
                + "paste: \(hint)\n" + keptLine(id: id, isHeld: false) + "\n")
    }

    @Test("-v names the proxy a request goes through and what chose it: the proxy key or the variable")
    func verboseNamesProxy() throws {
        let mock = try MockServer()
        let socks = try FixtureServer.socks5Proxy(names: ["paste.test": "127.0.0.1"])
        var paste = try runner()
        let url = "http://paste.test:\(mock.port)/pastes/create"
        try configure(paste, "", paste: "proxy = socks5h://127.0.0.1:\(socks.port)")
        let configured = try paste.run(["--url", url, "--no-copy", "-v"], stdin: "via key\n")
        #expect(configured.status == 0, "stderr: \(configured.err)")
        let line = "paste: * paste: through proxy socks5h://127.0.0.1:\(socks.port)"
        #expect(
            configured.err.split(separator: "\n").contains(
                Substring("\(line) (from proxy in \(paste.configPath):3) to paste.test")),
            "\(configured.err)")

        try configure(paste, "")
        paste.extraEnvironment["http_proxy"] = "socks5h://127.0.0.1:\(socks.port)"
        let environment = try paste.run(["--url", url, "--no-copy", "-v", "--new"], stdin: "via variable\n")
        #expect(environment.status == 0, "stderr: \(environment.err)")
        #expect(
            environment.err.split(separator: "\n").contains(Substring("\(line) (from http_proxy) to paste.test")),
            "\(environment.err)")

        paste.extraEnvironment["http_proxy"] = .some(nil)
        let direct = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy", "-v"], stdin: "direct\n")
        #expect(direct.status == 0)
        #expect(!direct.err.contains("through proxy"))
    }

    @Test("insecure = true in a service goes through an untrusted server and warns on every run")
    func insecureService() throws {
        let service = try TLSService()
        let paste = try runner()
        try configure(paste, service.section("insecure = true"))
        for round in 0..<2 {
            let result = try paste.run(["-S", "s", "--no-copy", "--new", "-q"], stdin: "lab \(round)\n")
            #expect(result.status == 0, "stderr: \(result.err)")
            #expect(
                result.err
                    == "paste: warning: service 's' sets insecure = true: TLS certificates and host names are not verified\n"
            )
        }
        #expect(try service.mock.pastes().count == 2)
    }

    @Test("the mTLS service takes the paste only with the client certificate")
    func clientCertificate() throws {
        // A CA of its own: the test changes its client key's mode.
        let service = try TLSService(requiringClientCertificate: true, certificates: TestCertificates())
        let paste = try runner()
        let certificates = service.certificates
        try configure(paste, service.section("ca-file = \(certificates.caFile)"))
        let without = try paste.run(["-S", "s", "--no-copy"], stdin: "mutual\n")
        #expect(without.status == 69, "\(without.err)")
        #expect(without.err.hasPrefix("paste: TLS failure with 127.0.0.1:\(service.tls.port): "), "\(without.err)")
        #expect(
            without.err.contains(
                "paste: the server asks for a client certificate: set 'client-cert' and 'client-key' in the service's section\n"
            ))
        #expect(try service.mock.pastes().isEmpty)
        // The refused text waits in the outbox, and the good paste below would start the
        // background flush that sends it (the outbox heals by itself), racing the count at the
        // end: this test is about the certificate, so the entry goes.
        #expect(try paste.run(["--outbox", "drop", "--all"]).status == 0)

        try configure(
            paste,
            service.section(
                "ca-file = \(certificates.caFile)\nclient-cert = \(certificates.clientCertificate)\nclient-key = \(certificates.clientKey)"
            ))
        let with = try paste.run(["-S", "s", "--no-copy", "--new"], stdin: "mutual\n")
        #expect(with.status == 0, "stderr: \(with.err)")
        let id = try #require(pasteID(with.out))
        #expect(try service.mock.rawPaste(id: id) == Data("mutual\n".utf8))
        try service.tls.waitForLog("the forwarder logs the client") {
            $0.contains("client=commonName=paste test client")
        }

        // A key others may read is refused before anything is sent, naming the file and the key.
        chmod(certificates.clientKey, 0o644)
        let exposed = try paste.run(["-S", "s", "--no-copy", "--new"], stdin: "exposed\n")
        #expect(exposed.status == 78)
        #expect(
            exposed.err.hasSuffix(
                "the private key '\(certificates.clientKey)' ('client-key') is readable by others (mode 644)\npaste: run 'chmod 600 \(certificates.clientKey)'\n"
            ), "\(exposed.err)")
        #expect(try service.mock.pastes().count == 1)
    }

    @Test("pinned-pubkey: the server's key goes through, another pin is a TLS failure")
    func pinnedKey() throws {
        let service = try TLSService()
        let paste = try runner()
        let certificates = service.certificates
        try configure(
            paste, service.section("ca-file = \(certificates.caFile)\npinned-pubkey = \(certificates.serverPin)"))
        let pinned = try paste.run(["-S", "s", "--no-copy"], stdin: "pinned\n")
        #expect(pinned.status == 0, "stderr: \(pinned.err)")
        let wrong = "sha256//" + String(repeating: "A", count: 43) + "="
        try configure(paste, service.section("ca-file = \(certificates.caFile)\npinned-pubkey = \(wrong)"))
        let refused = try paste.run(["-S", "s", "--no-copy", "--new"], stdin: "pinned\n")
        #expect(refused.status == 69)
        #expect(refused.err.hasPrefix("paste: TLS failure with 127.0.0.1:\(service.tls.port): "), "\(refused.err)")
        #expect(try service.mock.pastes().count == 1)
    }

    @Test("a missing CA file or an unknown proxy scheme is exit 78, naming the file and the key", .mock)
    func badInput() throws {
        let paste = try runner()
        try configure(paste, "", paste: "ca-file = /nonexistent/ca.pem")
        let missing = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy"], stdin: "x\n")
        #expect(missing.status == 78)
        let config = paste.home.configHome.path + "/paste/config"
        #expect(
            missing.err
                == "paste: \(config):3: cannot use '/nonexistent/ca.pem' for 'ca-file': no such file or directory\n")
        try configure(paste, "", paste: "proxy = ftp://127.0.0.1:21")
        let scheme = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy"], stdin: "x\n")
        #expect(scheme.status == 78)
        #expect(scheme.err.hasPrefix("paste: \(config):3: bad value 'ftp://127.0.0.1:21' for 'proxy': expected "))
        #expect(try mock.requests().isEmpty)
    }

    // MARK: - Proxies

    @Test("a proxy from the config carries an https upload (CONNECT) and an http one (absolute form)")
    func configuredProxy() throws {
        let service = try TLSService()
        let plain = try MockServer()
        let proxy = try FixtureServer.forwardProxy()
        let paste = try runner()
        try configure(
            paste, service.section("ca-file = \(service.certificates.caFile)"), paste: "proxy = \(proxy.url)")
        let tunnelled = try paste.run(["-S", "s", "--no-copy"], stdin: "through the tunnel\n")
        #expect(tunnelled.status == 0, "stderr: \(tunnelled.err)")
        #expect(try service.mock.rawPaste(id: #require(pasteID(tunnelled.out))) == Data("through the tunnel\n".utf8))
        #expect(proxy.log.contains("CONNECT 127.0.0.1:\(service.tls.port)"), "\(proxy.log)")

        let relayed = try paste.run(["--url", plain.url("/pastes/create"), "--no-copy"], stdin: "relayed\n")
        #expect(relayed.status == 0, "stderr: \(relayed.err)")
        #expect(try plain.rawPaste(id: #require(pasteID(relayed.out))) == Data("relayed\n".utf8))
        #expect(proxy.log.contains("POST \(plain.url("/pastes/create"))"), "\(proxy.log)")
        // no-proxy sends it past the proxy.
        try configure(paste, "", paste: "proxy = \(proxy.url)\nno-proxy = localhost, 127.0.0.1")
        let direct = try paste.run(["--url", plain.url("/pastes/create"), "--no-copy", "--new"], stdin: "direct\n")
        #expect(direct.status == 0, "stderr: \(direct.err)")
        #expect(proxy.log.filter { $0.hasPrefix("POST ") }.count == 1, "\(proxy.log)")
    }

    @Test("an https:// proxy is verified with the configured CA, and carries the upload", .mock)
    func httpsProxy() throws {
        let certificates = SuiteCertificates.current.main
        let proxy = try FixtureServer.forwardProxy(certificates: certificates)
        let paste = try runner()
        try configure(paste, "", paste: "proxy = https://127.0.0.1:\(proxy.port)\nca-file = \(certificates.caFile)")
        let result = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy"], stdin: "via TLS proxy\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.rawPaste(id: #require(pasteID(result.out))) == Data("via TLS proxy\n".utf8))
        #expect(proxy.log.contains("POST \(mock.url("/pastes/create"))"), "\(proxy.log)")
        // Without the CA the proxy itself is not trusted.
        try configure(paste, "", paste: "proxy = https://127.0.0.1:\(proxy.port)")
        let untrusted = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy", "--new"], stdin: "x\n")
        #expect(untrusted.status == 69)
        #expect(
            untrusted.err
                == "paste: TLS failure with proxy 127.0.0.1:\(proxy.port): SSL certificate problem: unable to get local issuer certificate\n"
                + "paste: trusted: nothing: no system CA bundle or hashed certificate folder was found in the "
                + "places paste(1) lists (no ca-file, CURL_CA_BUNDLE, SSL_CERT_FILE or SSL_CERT_DIR is set); "
                + "install the system's CA certificates (ca-certificates), or trust the proxy's CA with "
                + "'ca-file = /path/to/ca.pem' in [paste] (paste-config(5)) or with SSL_CERT_FILE\n"
                + keptLine(id: try #require(try paste.outboxIDs().last), isHeld: false) + "\n", "\(untrusted.err)")
        #expect(try mock.pastes().count == 1)
    }

    @Test("proxy credentials work and never show: not in -v, -n, errors, the outbox or history", .mock)
    func proxyCredentials() throws {
        let proxy = try FixtureServer.forwardProxy(credentials: "proxyuser:hunter2-proxy")
        var paste = try runner()
        paste.extraEnvironment["PROXY_PASSWORD"] = "hunter2-proxy"
        let secrets = ["hunter2-proxy", "proxyuser"]
        try configure(paste, "", paste: "proxy = http://proxyuser:${env:PROXY_PASSWORD}@127.0.0.1:\(proxy.port)")
        let sent = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy", "-v"], stdin: "authorised\n")
        #expect(sent.status == 0, "stderr: \(sent.err)")
        #expect(sent.err.contains("paste: > Proxy-Authorization: [redacted]"), "\(sent.err)")
        #expect(proxy.log.contains("auth ok"))
        let dry = try paste.run(["--url", mock.url("/pastes/create"), "-n", "-v"], stdin: "dry\n")
        #expect(dry.status == 0)
        // The proxy refuses a wrong password: named as the proxy's answer, kept in the outbox.
        paste.extraEnvironment["PROXY_PASSWORD"] = "wrong-password"
        let refused = try paste.run(
            ["--url", mock.url("/pastes/create"), "--no-copy", "-v", "--new"], stdin: "refused\n")
        #expect(refused.status == 69)
        #expect(
            refused.err.contains(
                "paste: proxy 127.0.0.1:\(proxy.port) answered 407: proxy authentication required\n"), "\(refused.err)")
        let outbox = try paste.outboxContents()
        #expect(outbox == [Data("refused\n".utf8)])
        let stateFiles = try FileManager.default.subpathsOfDirectory(atPath: paste.home.stateHome.path)
            .map { paste.home.stateHome.appendingPathComponent($0) }
            .compactMap { try? String(contentsOf: $0, encoding: .utf8) }
        #expect(stateFiles.count >= 3, "history, an outbox entry and its metadata")
        for secret in secrets + ["wrong-password"] {
            for text in [sent.out, sent.err, dry.out, dry.err, refused.out, refused.err] + stateFiles {
                #expect(!text.contains(secret), "'\(secret)' leaked: \(text)")
            }
        }
    }

    @Test("a dead proxy is named as the proxy")
    func deadProxy() throws {
        let port = try ServerProcess.freePort()
        let paste = try runner()
        try configure(paste, "", paste: "proxy = http://127.0.0.1:\(port)")
        let result = try paste.run(["--url", "http://paste.example/pastes/create", "--no-copy"], stdin: "x\n")
        #expect(result.status == 75)
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            result.err
                == "paste: cannot connect to proxy 127.0.0.1:\(port): connection refused\n"
                + keptLine(id: id, isHeld: false) + "\n")
        try configure(paste, "", paste: "proxy = http://proxy.invalid:3128")
        let unknown = try paste.run(
            ["--url", "http://paste.example/pastes/create", "--no-copy", "--new"], stdin: "y\n")
        #expect(unknown.status == 75)
        #expect(
            unknown.err.hasPrefix(
                "paste: cannot connect to proxy proxy.invalid:3128: cannot resolve 'proxy.invalid'\n"),
            "\(unknown.err)")
    }

    @Test("socks5h: the proxy resolves a name only it knows; socks5 (resolved here) cannot", .mock)
    func socks5h() throws {
        let socks = try FixtureServer.socks5Proxy(names: ["paste.test": "127.0.0.1"])
        let paste = try runner()
        try configure(paste, "", paste: "proxy = socks5h://127.0.0.1:\(socks.port)")
        let url = "http://paste.test:\(mock.port)/pastes/create"
        let result = try paste.run(["--url", url, "--no-copy"], stdin: "onion-ish\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let id = try #require(pasteID(result.out))
        #expect(result.out == "http://paste.test:\(mock.port)/pastes/\(id)\n")
        #expect(try mock.rawPaste(id: id) == Data("onion-ish\n".utf8))
        #expect(socks.log.contains("CONNECT name paste.test:\(mock.port)"), "\(socks.log)")

        try configure(paste, "", paste: "proxy = socks5://127.0.0.1:\(socks.port)")
        let local = try paste.run(["--url", url, "--no-copy", "--new"], stdin: "onion-ish\n")
        #expect(local.status == 75, "\(local.err)")
        #expect(local.err.hasPrefix("paste: cannot resolve host 'paste.test'\n"), "\(local.err)")
    }

    @Test("a tcp:// service (termbin) goes through the proxy too: SOCKS, or an HTTP proxy's tunnel", .mock(tcp: true))
    func tcpThroughProxy() throws {
        let tcpPort = try #require(mock.tcpPort)
        let socks = try FixtureServer.socks5Proxy(names: ["termbin.test": "127.0.0.1"])
        let http = try FixtureServer.forwardProxy()
        let paste = try runner()
        let service = "[service \"t\"]\nurl = tcp://termbin.test:\(tcpPort)\nformat = tcp\nresult = body\n"
        try configure(paste, service, paste: "proxy = socks5h://127.0.0.1:\(socks.port)")
        let socksed = try paste.run(["-S", "t", "--no-copy"], stdin: "netcat style\n")
        #expect(socksed.status == 0, "stderr: \(socksed.err)")
        #expect(try mock.rawPaste(id: #require(pasteID(socksed.out))) == Data("netcat style\n".utf8))
        #expect(socks.log.contains("CONNECT name termbin.test:\(tcpPort)"), "\(socks.log)")

        let direct = "[service \"t\"]\nurl = tcp://127.0.0.1:\(tcpPort)\nformat = tcp\nresult = body\n"
        try configure(paste, direct, paste: "proxy = \(http.url)")
        let tunnelled = try paste.run(["-S", "t", "--no-copy", "--new"], stdin: "tunnelled\n")
        #expect(tunnelled.status == 0, "stderr: \(tunnelled.err)")
        #expect(try mock.rawPaste(id: #require(pasteID(tunnelled.out))) == Data("tunnelled\n".utf8))
        #expect(http.log.contains("CONNECT 127.0.0.1:\(tcpPort)"), "\(http.log)")
    }

    // MARK: - Redirects

    @Test("a redirect chain to another origin carries no configured header, and no body")
    func credentialsStayHome() throws {
        let home = try MockServer()
        let elsewhere = try MockServer()
        let paste = try runner()
        // A paste on the other origin, for the redirect to land on.
        let landing = try paste.run(["--url", elsewhere.url("/pastes/create"), "--no-copy"], stdin: "landing\n")
        let landingID = try #require(pasteID(landing.out))
        try elsewhere.clearRequests()
        let target = "http://localhost:\(elsewhere.port)/pastes/\(landingID)"
        try home.addFault(.redirectToRoot(location: target), count: 0, path: "/pastes/create")
        try configure(
            paste,
            """
            [service "home"]
            url = \(home.url("/pastes/create"))
            content-field = paste[body]
            header = X-Api-Key: api-key-value
            header = PRIVATE-TOKEN: private-token-value
            header = Authorization: Bearer bearer-value
            header = Cookie: session=cookie-value

            """)
        let result = try paste.run(["-S", "home", "--no-copy", "--new"], stdin: "secret-free\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.out == target + "\n")
        let post = try #require(try home.posts().first)
        #expect(post.header("X-Api-Key") == "api-key-value")
        #expect(post.header("PRIVATE-TOKEN") == "private-token-value")
        let away = try elsewhere.requests()
        #expect(away.map(\.method) == ["GET"])
        for name in ["X-Api-Key", "PRIVATE-TOKEN", "Authorization", "Cookie"] {
            #expect(away.first?.header(name) == nil, "\(name) went to another origin")
        }

        // A 307 would send the text itself there: refused, and the other origin sees nothing.
        try home.clearFaults()
        try home.addFault(
            .redirectToRoot(location: "http://localhost:\(elsewhere.port)/pastes/create", status: 307), count: 0,
            path: "/pastes/create")
        try elsewhere.clearRequests()
        let refused = try paste.run(["-S", "home", "--no-copy", "--new"], stdin: "stay home\n")
        #expect(refused.status == 69)
        let lines = refused.err.split(separator: "\n")
        #expect(
            lines.first
                == "paste: refusing the 307 redirect to 'http://localhost:\(elsewhere.port)/pastes/create': it would send the text to another origin"
        )
        #expect(lines.count == 2, "one line, and where the text waits: \(refused.err)")
        #expect(try elsewhere.requests().isEmpty)
    }

    @Test("accepted, then the page 404s: the URL is the result, once, and nothing waits in the outbox", .mock)
    func acceptedThenNotFound() throws {
        try mock.addFault(.status(404), count: 0, path: "/pastes/", method: "GET")
        let paste = try runner()
        try configure(paste, "")
        let result = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy"], stdin: "accepted\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let id = try #require(pasteID(result.out))
        #expect(result.out == mock.url("/pastes/\(id)") + "\n")
        #expect(result.err == "paste: warning: the paste was made, but its page answered HTTP 404\n")
        #expect(try paste.historyLines().count == 1)
        #expect(try paste.historyLines().first?.contains(mock.url("/pastes/\(id)")) == true)
        #expect(try paste.outboxContents().isEmpty)
        for _ in 0..<2 {
            let retry = try paste.run(["--retry"])
            #expect(retry.status == 0)
            #expect(retry.out == "")
        }
        #expect(try mock.pastes().count == 1)
    }

    // MARK: - Answers that are not HTTP

    @Test("an HTTP/0.9 reply or a 200 KB header line is exit 69 with one line", arguments: ["http09", "header"])
    func notHTTP(mode: String) throws {
        let paste = try runner()
        try configure(paste, "")
        let script = fixtures.appendingPathComponent("odd_server.py").path
        let server = try ServerProcess("/usr/bin/python3", [script, mode])
        let result = try paste.run(["--url", server.baseURL + "/pastes/create", "--no-copy"], stdin: "odd\n")
        #expect(result.status == 69)
        let detail = mode == "http09" ? "not an HTTP/1.x or HTTP/2 answer" : "a header line longer than 100 KiB"
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            result.err
                == "paste: unusable answer from 127.0.0.1:\(server.port): \(detail)\n"
                + keptLine(id: id, isHeld: true) + "\n")
    }
}
