import Foundation
import Testing
import TestSupport

@testable import PasteCore

/// Trust, client certificates and proxies: the config keys, their precedence (service >
/// [paste] > environment > system), the files they name, and how a proxy is chosen per URL.
@Suite("Connection policy", .tags(.config), .temporaryHome)
struct ConnectionPolicyTests: ScopedSuite {
    let caFile: String
    let otherCA: String
    let caFolder: String

    init() throws {
        let home = TemporaryHome.current
        caFile = try home.write("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n", to: "ca.pem")
        otherCA = try home.write("-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n", to: "other.pem")
        caFolder = home.root.path + "/certs"
        try FileManager.default.createDirectory(atPath: caFolder, withIntermediateDirectories: true)
    }

    /// The policy for service `s` of a config text, in an environment.
    func policy(_ text: String, environment: [String: String] = [:]) throws -> ConnectionPolicy {
        let configuration = try Configuration(file: ConfigFile(parsing: text, path: "/cfg"))
        let profile = try configuration.service(named: "s")
        return try ConnectionPolicy.resolve(
            service: profile.connection, paste: configuration.settings.connection,
            context: Context(environment: environment.merging(["HOME": home.root.path]) { a, _ in a }))
    }

    /// The error a config text (or environment) resolves to.
    func failure(_ text: String, environment: [String: String] = [:]) -> ConfigError? {
        do {
            _ = try policy(text, environment: environment)
            return nil
        } catch let error as ConfigError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    static let service = "[service \"s\"]\nurl = https://paste.example/new\n"

    // MARK: - Trust

    @Test("nothing configured and no variables: the system store, looked up under the system root")
    func systemByDefault() throws {
        let root = home.root.path + "/system"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let environment = ["PASTE_TEST_SYSTEM_ROOT": root]
        #expect(try policy(Self.service, environment: environment).trust == .system(nil))
        #expect(try policy(Self.service, environment: environment).trustSource == .system)
        _ = try home.write("-----BEGIN CERTIFICATE-----\n", to: "system/etc/ssl/cert.pem")
        #expect(
            try policy(Self.service, environment: environment).trust
                == .system(SystemTrustStore(path: root + "/etc/ssl/cert.pem", kind: .bundle, origin: "Alpine layout")))
        // A variable or a key that names CAs: no lookup.
        #expect(
            try policy(Self.service, environment: environment.merging(["SSL_CERT_FILE": caFile]) { a, _ in a }).trust
                == .custom(file: caFile, folder: nil))
    }

    @Test("precedence: the service's ca-file, then [paste]'s, then CURL_CA_BUNDLE, then SSL_CERT_FILE")
    func trustPrecedence() throws {
        let environment = ["SSL_CERT_FILE": otherCA, "CURL_CA_BUNDLE": otherCA, "SSL_CERT_DIR": caFolder]
        let both = "[paste]\nca-file = \(otherCA)\n" + Self.service + "ca-file = \(caFile)\n"
        #expect(try policy(both, environment: environment).trust == .custom(file: caFile, folder: nil))
        let paste = "[paste]\nca-path = \(caFolder)\n" + Self.service
        #expect(try policy(paste, environment: environment).trust == .custom(file: nil, folder: caFolder))
        #expect(
            try policy(Self.service, environment: ["CURL_CA_BUNDLE": caFile, "SSL_CERT_FILE": otherCA]).trust
                == .custom(file: caFile, folder: nil))
        #expect(
            try policy(Self.service, environment: ["SSL_CERT_FILE": caFile, "SSL_CERT_DIR": caFolder]).trust
                == .custom(file: caFile, folder: caFolder))
        #expect(
            try policy(Self.service, environment: ["SSL_CERT_DIR": caFolder]).trust
                == .custom(file: nil, folder: caFolder))
    }

    @Test("~/ in a path is the home folder")
    func tildeExpands() throws {
        #expect(try policy(Self.service + "ca-file = ~/ca.pem\n").trust == .custom(file: caFile, folder: nil))
    }

    @Test("a missing or unreadable CA file is a config error naming the file, the key and the line")
    func unusableCAFile() throws {
        let missing = failure(Self.service + "ca-file = /nonexistent/ca.pem\n")
        #expect(missing?.message == "/cfg:3: cannot use '/nonexistent/ca.pem' for 'ca-file': no such file or directory")
        #expect(missing?.exitStatus == .config)
        let folderAsFile = failure(Self.service + "ca-file = \(caFolder)\n")
        #expect(folderAsFile?.message == "/cfg:3: cannot use '\(caFolder)' for 'ca-file': is a directory")
        let fileAsFolder = failure("[paste]\nca-path = \(caFile)\n" + Self.service)
        #expect(fileAsFolder?.message == "/cfg:2: cannot use '\(caFile)' for 'ca-path': not a folder")
        let variable = failure(Self.service, environment: ["SSL_CERT_FILE": "/nonexistent/bundle.crt"])
        #expect(
            variable?.message == "cannot use '/nonexistent/bundle.crt' from SSL_CERT_FILE: no such file or directory")
        if getuid() != 0 {
            let unreadable = try home.write("x", to: "locked.pem", mode: 0o000)
            #expect(failure(Self.service + "ca-file = \(unreadable)\n")?.message.hasSuffix("permission denied") == true)
        }
    }

    @Test("a relative path is refused at its line", arguments: ["ca-file", "ca-path", "client-cert", "client-key"])
    func relativePath(key: String) {
        #expect(
            failure(Self.service + "\(key) = certs/x.pem\n")?.message
                == "/cfg:3: bad value 'certs/x.pem' for '\(key)': expected an absolute path or one starting with ~/")
    }

    // MARK: - Client certificates and pins

    @Test("client-cert and client-key resolve; a key readable by others is refused like a secret in a config")
    func clientKeyPermissions() throws {
        let certificate = try home.write("-----BEGIN CERTIFICATE-----\n", to: "client.pem", mode: 0o644)
        let key = try home.write("-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n", to: "client.key")
        let resolved = try policy(Self.service + "client-cert = \(certificate)\nclient-key = \(key)\n")
        #expect(resolved.clientCertificate == certificate)
        #expect(resolved.clientKey == key)
        chmod(key, 0o640)
        let refused = failure(Self.service + "client-cert = \(certificate)\nclient-key = \(key)\n")
        #expect(refused?.message == "/cfg:4: the private key '\(key)' ('client-key') is readable by others (mode 640)")
        #expect(refused?.hint == "run 'chmod 600 \(key)'")
        #expect(refused?.exitStatus == .config)
        // A certificate file that holds its own key is a key file too.
        let combined = try home.write("-----BEGIN EC PRIVATE KEY-----\n", to: "both.pem", mode: 0o604)
        #expect(failure(Self.service + "client-cert = \(combined)\n")?.message.contains("('client-cert')") == true)
        #expect(
            failure(Self.service + "client-key = \(key)\n")?.message.contains("expected a 'client-cert' beside it")
                == true)
    }

    @Test("pinned-pubkey takes sha256// pins or a key file; anything else is refused")
    func pins() throws {
        let pin = "sha256//" + String(repeating: "A", count: 43) + "="
        #expect(try policy(Self.service + "pinned-pubkey = \(pin);\(pin)\n").pinnedPublicKey == "\(pin);\(pin)")
        #expect(try policy(Self.service + "pinned-pubkey = \(caFile)\n").pinnedPublicKey == caFile)
        #expect(failure(Self.service + "pinned-pubkey = sha256//short\n")?.message.contains("44 characters") == true)
    }

    @Test(
        "the service-only keys are unknown in [paste]",
        arguments: ["client-cert", "client-key", "pinned-pubkey", "insecure"])
    func serviceOnlyKeys(key: String) {
        #expect(
            failure("[paste]\n\(key) = /x\n" + Self.service)?.message
                == "/cfg:2: unknown key '\(key)' in section [paste]")
    }

    @Test("insecure = true is the service's own")
    func insecure() throws {
        #expect(try policy(Self.service + "insecure = true\n").isInsecure)
        #expect(try !policy(Self.service).isInsecure)
    }

    // MARK: - Proxies

    @Test("a configured proxy serves http and https; the environment's are then ignored")
    func configuredProxy() throws {
        let environment = ["http_proxy": "http://env:1", "https_proxy": "http://env:2"]
        let resolved = try policy(Self.service + "proxy = socks5h://127.0.0.1:9050\n", environment: environment)
        #expect(resolved.proxy(for: "http://a.example/")?.url == "socks5h://127.0.0.1:9050")
        #expect(resolved.proxy(for: "https://a.example/")?.authority == "127.0.0.1:9050")
        #expect(resolved.proxy(for: "tcp://termbin.example:9999")?.authority == "127.0.0.1:9050")
        let paste = try policy("[paste]\nproxy = http://p:3128\n" + Self.service, environment: environment)
        #expect(paste.proxy(for: "https://a.example/")?.url == "http://p:3128")
        let none = try policy(
            "[paste]\nproxy = http://p:3128\n" + Self.service + "proxy = \"\"\n", environment: environment)
        #expect(none.proxy(for: "https://a.example/") == nil)
    }

    @Test("the environment's proxies as curl reads them: no HTTP_PROXY, HTTPS_PROXY and all_proxy as fallbacks")
    func environmentProxies() throws {
        let upper = try policy(Self.service, environment: ["HTTP_PROXY": "http://u:1", "HTTPS_PROXY": "http://u:2"])
        #expect(upper.proxy(for: "http://a.example/") == nil)
        #expect(upper.proxy(for: "https://a.example/")?.authority == "u:2")
        let all = try policy(Self.service, environment: ["ALL_PROXY": "socks5://s:1080", "http_proxy": "h:8080"])
        #expect(all.proxy(for: "http://a.example/")?.url == "http://h:8080")
        #expect(all.proxy(for: "https://a.example/")?.url == "socks5://s:1080")
        #expect(all.proxy(for: "tcp://termbin.example:9999")?.url == "socks5://s:1080")
        #expect(upper.proxy(for: "tcp://termbin.example:9999") == nil, "only all_proxy serves tcp://")
        let lower = try policy(Self.service, environment: ["https_proxy": "http://l:1", "HTTPS_PROXY": "http://u:1"])
        #expect(lower.proxy(for: "https://a.example/")?.host == "l")
    }

    @Test("no-proxy and no_proxy exempt hosts, as curl matches them")
    func exemptions() throws {
        let resolved = try policy(
            Self.service + "proxy = http://p:3128\nno-proxy = example.com, .internal,10.0.0.0/8 ::1\n",
            environment: ["no_proxy": "*"])
        for url in [
            "https://example.com/", "http://www.example.com:8080/x", "https://a.b.internal/", "http://10.2.3.4/",
            "http://[::1]:80/", "https://EXAMPLE.COM./",
        ] {
            #expect(resolved.proxy(for: url) == nil, "\(url) should go direct")
        }
        for url in ["https://notexample.com/", "http://11.0.0.1/", "https://internal.example.org/", "http://[::2]/"] {
            #expect(resolved.proxy(for: url) != nil, "\(url) should go through the proxy")
        }
        let everything = try policy(Self.service, environment: ["https_proxy": "http://p:1", "NO_PROXY": "*"])
        #expect(everything.proxy(for: "https://a.example/") == nil)
    }

    @Test("TLS is spoken to an https URL, or to anything through an https:// proxy; not straight to http or tcp")
    func speaksTLS() throws {
        let direct = try policy(Self.service)
        #expect(direct.speaksTLS(to: "https://paste.example/new"))
        #expect(direct.speaksTLS(to: "HTTPS://paste.example/new"))
        #expect(!direct.speaksTLS(to: "http://paste.example/new"))
        #expect(!direct.speaksTLS(to: "tcp://termbin.example:9999"))
        let tlsProxy = try policy(
            Self.service,
            environment: ["http_proxy": "https://p:8443", "all_proxy": "https://p:8443", "no_proxy": "near.example"])
        #expect(tlsProxy.speaksTLS(to: "http://paste.example/new"))
        #expect(tlsProxy.speaksTLS(to: "tcp://termbin.example:9999"))
        // Exempt from the proxy: straight to the server, no TLS.
        #expect(!tlsProxy.speaksTLS(to: "http://near.example/new"))
        let plainProxy = try policy(Self.service, environment: ["http_proxy": "http://p:3128"])
        #expect(!plainProxy.speaksTLS(to: "http://paste.example/new"))
    }

    @Test("proxy URLs: schemes, default ports, credentials kept out of what is shown")
    func proxyURLs() throws {
        let proxy = try #require(Proxy(parsing: "http://user:p%40ss@proxy.example:3128/"))
        #expect(proxy.authority == "proxy.example:3128")
        #expect(proxy.url == "http://user:p%40ss@proxy.example:3128")
        #expect(proxy.secrets.contains("p@ss"))
        #expect(Proxy(parsing: "socks5://[::1]")?.authority == "[::1]:1080")
        #expect(Proxy(parsing: "https://p")?.port == 443)
        for bad in ["ftp://p:21", "socks4://p:1080", "http://", "http://p:0", "http://p:x", "http://p/path"] {
            #expect(Proxy(parsing: bad) == nil, "\(bad)")
        }
        #expect(Proxy.redactingCredentials("http://bob:secret@p:1") == "http://[redacted]@p:1")
    }

    @Test("a proxy URL with an unknown scheme is a config error; its credentials are not repeated")
    func badProxy() throws {
        let configured = failure(Self.service + "proxy = ftp://bob:hunter22@p:21\n")
        #expect(
            configured?.message
                == "/cfg:3: bad value 'ftp://[redacted]@p:21' for 'proxy': expected \(Proxy.expectedForm)")
        #expect(configured?.exitStatus == .config)
        let variable = failure(Self.service, environment: ["https_proxy": "gopher://bob:hunter22@p"])
        #expect(
            variable?.message
                == "bad value 'gopher://[redacted]@p' in the environment variable https_proxy: expected \(Proxy.expectedForm)"
        )
        #expect(variable?.exitStatus == .config)
    }

    @Test("a proxy password from ${env:…} is expanded; a literal one needs a private config file")
    func proxyCredentials() throws {
        let resolved = try policy(
            Self.service + "proxy = http://bob:${env:PROXY_PASSWORD}@p:3128\n",
            environment: ["PROXY_PASSWORD": "s3cret"])
        #expect(resolved.proxy(for: "https://x/")?.password == "s3cret")
        let file = try home.write(
            "[paste]\nproxy = http://bob:s3cret@p:3128\n" + Self.service, to: "readable.conf", mode: 0o644)
        #expect(throws: ConfigError.secretReadableByOthers(path: file, line: 2, key: "proxy", mode: 0o100644)) {
            try Configuration.load(explicitPath: file, context: Context(environment: [:]))
        }
        chmod(file, 0o600)
        #expect(
            try Configuration.load(explicitPath: file, context: Context(environment: [:])).settings.connection.proxy
                != nil)
    }
}
