import SystemInterop

/// How the transfers of one upload connect: which CAs verify servers, which client certificate
/// is shown, whether TLS is verified at all, and which proxy each URL goes through.
///
/// Resolved once per service (`resolve(service:paste:context:)`) from its keys, the `[paste]`
/// keys and the environment; Upload applies it to every request of the upload, redirects
/// included. Files it names were readable when it was resolved.
public struct ConnectionPolicy: Sendable, Equatable {
    /// Which certificate authorities verify servers.
    public enum Trust: Sendable, Equatable {
        /// The system's store where the distribution keeps it (`SystemTrustStore.find`); nil
        /// when none of its places holds one: then no server certificate verifies. libcurl's
        /// own built-in store (Debian's path, where it was built) is never used.
        case system(SystemTrustStore?)
        /// Only these: a PEM file of CAs, a folder of hashed CAs, or both.
        case custom(file: String?, folder: String?)

        /// The PEM file of CAs libcurl is given (`CURLOPT_CAINFO`), nil for none.
        public var file: String? {
            switch self {
            case .system(let store): store?.kind == .bundle ? store?.path : nil
            case .custom(let file, _): file
            }
        }

        /// The folder of hashed CAs libcurl is given (`CURLOPT_CAPATH`), nil for none.
        public var folder: String? {
            switch self {
            case .system(let store): store?.kind == .folder ? store?.path : nil
            case .custom(_, let folder): folder
            }
        }
    }

    /// Where `trust` came from, for the hint of a certificate that is not trusted.
    public enum TrustSource: Sendable, Equatable {
        /// No key or variable named CAs: the system's store, looked up (`SystemTrustStore`).
        case system
        /// `ca-file`/`ca-path` in the config (the first of them set, its file and line).
        case config(key: String, path: String, line: Int)
        /// The environment: the variables used (`CURL_CA_BUNDLE` or `SSL_CERT_FILE`, and
        /// `SSL_CERT_DIR`), and one set but overridden (`SSL_CERT_FILE` under `CURL_CA_BUNDLE`).
        case environment(used: [String], overridden: String?)
    }

    /// Which certificate authorities verify servers (and an https:// proxy).
    public var trust: Trust = .system(nil)
    /// Where `trust` came from.
    public var trustSource: TrustSource = .system
    /// Where the proxies came from: `proxy` in the config (file and line), or the variable
    /// named (`https_proxy`, `all_proxy`, …) for each scheme; for `-v`.
    public var proxySources: [String: String] = [:]
    /// The pins the service's public key must match (`sha256//…`, or a key file); checked on
    /// connections to the service's own origin.
    public var pinnedPublicKey: String?
    /// The client certificate (PEM file), shown only to the service's own origin.
    public var clientCertificate: String?
    /// The client certificate's key (PEM file); nil when the certificate file holds it.
    public var clientKey: String?
    /// Whether TLS certificates and host names go unchecked (`insecure = true`).
    public var isInsecure = false
    /// The proxy for http:// URLs; nil for direct connections.
    public var httpProxy: Proxy?
    /// The proxy for https:// URLs; nil for direct connections.
    public var httpsProxy: Proxy?
    /// The proxy for raw tcp:// services (termbin): `proxy`, or `all_proxy`; a SOCKS proxy, or
    /// an HTTP one that allows CONNECT tunnels.
    public var tcpProxy: Proxy?
    /// Hosts reached directly whatever the proxies say.
    public var noProxy = NoProxyList("")

    /// Direct connections, trusting no CA until `resolve` looks up the system's store.
    public init() {}

    /// The proxy a request to `url` goes through, or nil for a direct connection.
    public func proxy(for url: String) -> Proxy? {
        guard httpProxy != nil || httpsProxy != nil || tcpProxy != nil, let separator = url.firstRange(of: "://")
        else { return nil }
        let proxy: Proxy?
        switch url[..<separator.lowerBound].lowercased() {
        case "https": proxy = httpsProxy
        case "http": proxy = httpProxy
        case "tcp": proxy = tcpProxy
        default: proxy = nil
        }
        guard let proxy else { return nil }
        return noProxy.matches(host: Self.host(of: url)) ? nil : proxy
    }

    /// Whether a transfer to `url` speaks TLS, so that `trust` verifies a certificate: an
    /// https:// URL, or any URL sent through an https:// proxy (`trust` verifies the proxy's
    /// certificate too). Straight to an http:// or tcp:// service no CA is read. `-v` names the
    /// trust (`trustSummary`) only for a service this is true of.
    public func speaksTLS(to url: String) -> Bool {
        if let separator = url.firstRange(of: "://"), url[..<separator.lowerBound].lowercased() == "https" {
            return true
        }
        return proxy(for: url)?.kind == .https
    }

    /// The host of an http(s) URL: no user information, no port, brackets kept for IPv6.
    public static func host(of url: String) -> String {
        var rest = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") { return String(rest[...close]) }
        if let colon = rest.lastIndex(of: ":") { return String(rest[..<colon]) }
        return String(rest)
    }
}

extension ConnectionPolicy {
    /// The environment variables curl reads for the proxy of each scheme, in order (curl's
    /// `detect_proxy`): `http_proxy` only in lower case (httpoxy: a CGI program's `HTTP_PROXY`
    /// comes from a request header), then `all_proxy`.
    static let proxyVariables: [String: [String]] = [
        "http": ["http_proxy", "all_proxy", "ALL_PROXY"],
        "https": ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"],
        "tcp": ["all_proxy", "ALL_PROXY"],
    ]

    /// The environment variables of the trust store: curl's `CURL_CA_BUNDLE` first, then
    /// OpenSSL's `SSL_CERT_FILE`; the folder from `SSL_CERT_DIR`.
    static let caFileVariables = ["CURL_CA_BUNDLE", "SSL_CERT_FILE"]
    static let caFolderVariable = "SSL_CERT_DIR"

    /// Resolves the policy for a service.
    ///
    /// Each group of keys is taken from the first level that sets any of it: the service's
    /// section, then `[paste]`, then the environment, then the built-in default.
    /// - Trust: `ca-file` and `ca-path` together replace the system store; else
    ///   `CURL_CA_BUNDLE` or `SSL_CERT_FILE`, and `SSL_CERT_DIR`; else the system's store where
    ///   the distribution keeps it (`SystemTrustStore.find`, looked up once per run:
    ///   `context.systemTrust`).
    /// - Proxy: `proxy` (for http, https and tcp alike), else `http_proxy`, `https_proxy`,
    ///   `all_proxy` as curl reads them (tcp: `all_proxy` only); `no-proxy`, else
    ///   `no_proxy`/`NO_PROXY`.
    /// - `pinned-pubkey`, `client-cert`, `client-key`, `insecure`: the service's only.
    ///
    /// - Throws: `ConfigError` naming the key (and file and line) or the variable: a file that
    ///   cannot be read, a private key others may read, a proxy URL that is not one.
    public static func resolve(
        service: ConnectionSettings, paste: ConnectionSettings, context: Context
    ) throws(ConfigError) -> ConnectionPolicy {
        var policy = ConnectionPolicy()
        var expansion = ValueExpansion(context: context)
        let files = FileCheck(context: context)

        // Trust.
        if let level = [service, paste].first(where: \.namesTrust) {
            policy.trust = .custom(
                file: try level.caFile.map { value throws(ConfigError) in try files.file(value, key: "ca-file") },
                folder: try level.caPath.map { value throws(ConfigError) in try files.folder(value, key: "ca-path") })
            let (key, value) = level.caFile.map { ("ca-file", $0) } ?? ("ca-path", level.caPath!)
            policy.trustSource = .config(key: key, path: value.origin?.path ?? "", line: value.origin?.line ?? 0)
        } else {
            let fileVariable = caFileVariables.first { context.nonEmpty($0) != nil }
            let file = try fileVariable.map { name throws(ConfigError) in
                try files.file(ConfigValue(context.nonEmpty(name)!), key: name)
            }
            let folder = try context.nonEmpty(caFolderVariable).map { path throws(ConfigError) in
                try files.folder(ConfigValue(path), key: caFolderVariable)
            }
            if file != nil || folder != nil {
                policy.trust = .custom(file: file, folder: folder)
                let used = [fileVariable, folder == nil ? nil : caFolderVariable].compactMap { $0 }
                // curl's CURL_CA_BUNDLE wins over OpenSSL's SSL_CERT_FILE when both are set.
                let overridden = caFileVariables.dropFirst().first {
                    $0 != fileVariable && fileVariable == caFileVariables[0] && context.nonEmpty($0) != nil
                }
                policy.trustSource = .environment(used: used, overridden: overridden)
            } else {
                policy.trust = .system(context.systemTrust.store(context: context))
            }
        }

        // The service's own identity checks.
        if let pin = service.pinnedPublicKey {
            policy.pinnedPublicKey =
                pin.raw.hasPrefix("sha256//") ? pin.raw : try files.file(pin, key: "pinned-pubkey")
        }
        if let key = service.clientKey {
            guard service.clientCertificate != nil else {
                throw .badValue(
                    path: key.origin?.path ?? "", line: key.origin?.line ?? 0, key: "client-key", value: key.raw,
                    expected: "a 'client-cert' beside it")
            }
            policy.clientKey = try files.file(key, key: "client-key", isPrivateKey: true)
        }
        if let certificate = service.clientCertificate {
            // Without a separate key, the certificate file holds the key: guard it like one.
            policy.clientCertificate = try files.file(
                certificate, key: "client-cert", isPrivateKey: service.clientKey == nil)
        }
        policy.isInsecure = service.isInsecure ?? false

        // Proxies.
        if let configured = service.proxy ?? paste.proxy {
            let text = try expansion.expand(configured)
            if !text.isEmpty {
                guard let proxy = Proxy(parsing: text) else {
                    throw .badValue(
                        path: configured.origin?.path ?? "", line: configured.origin?.line ?? 0, key: "proxy",
                        value: Proxy.redactingCredentials(text), expected: Proxy.expectedForm)
                }
                policy.httpProxy = proxy
                policy.httpsProxy = proxy
                policy.tcpProxy = proxy
                let origin = configured.origin.map { "proxy in \($0.path):\($0.line)" } ?? "proxy"
                policy.proxySources = ["http": origin, "https": origin, "tcp": origin]
            }
        } else {
            policy.httpProxy = try environmentProxy(for: "http", context: context)
            policy.httpsProxy = try environmentProxy(for: "https", context: context)
            policy.tcpProxy = try environmentProxy(for: "tcp", context: context)
            for scheme in ["http", "https", "tcp"] {
                policy.proxySources[scheme] = proxyVariables[scheme]?.first { context.nonEmpty($0) != nil }
            }
        }
        if let exceptions = service.noProxy ?? paste.noProxy {
            policy.noProxy = NoProxyList(try expansion.expand(exceptions))
        } else if let exceptions = context.nonEmpty("no_proxy") ?? context.nonEmpty("NO_PROXY") {
            policy.noProxy = NoProxyList(exceptions)
        }
        return policy
    }

    /// The proxy the environment names for a scheme, or nil.
    static func environmentProxy(for scheme: String, context: Context) throws(ConfigError) -> Proxy? {
        guard let name = proxyVariables[scheme]?.first(where: { context.nonEmpty($0) != nil }),
            let text = context.nonEmpty(name)
        else { return nil }
        guard let proxy = Proxy(parsing: text) else {
            throw .badEnvironment(name: name, value: Proxy.redactingCredentials(text), expected: Proxy.expectedForm)
        }
        return proxy
    }
}

/// Checks, once per run, that the files a connection setting names can be used.
///
/// A CA file is only opened and read one byte into (a system bundle is 200 KB, and reading it
/// whole at every hotkey press would cost more than the rest of this); a private key is read
/// whole, to see its permissions and that it is one.
struct FileCheck {
    var context: Context

    /// The largest key file read.
    static let keyLimit = 1 << 20

    /// The path of a readable regular file (`~/` expanded).
    ///
    /// - Parameter isPrivateKey: refuse the file when it holds a private key that group or others
    ///   may read or write, as paste refuses a config file holding a secret.
    func file(_ value: ConfigValue, key: String, isPrivateKey: Bool = false) throws(ConfigError) -> String {
        let path = expanded(value.raw)
        guard isPrivateKey else {
            if let error = Self.probe(path) {
                throw unusable(value, key: key, file: path, reason: FileSystem.reason(readingFile: error))
            }
            return path
        }
        let contents: FileSystem.Contents
        do {
            contents = try FileSystem.readFile(path, limit: Self.keyLimit)
        } catch {
            throw unusable(value, key: key, file: path, reason: FileSystem.reason(readingFile: error))
        }
        let mode = contents.status.mode
        if mode & 0o077 != 0, Self.containsPrivateKey(contents.bytes) {
            throw .keyReadableByOthers(
                path: value.origin?.path ?? "", line: value.origin?.line ?? 0, key: key, file: path, mode: mode)
        }
        return path
    }

    /// The path of a readable folder (`~/` expanded).
    func folder(_ value: ConfigValue, key: String) throws(ConfigError) -> String {
        let path = expanded(value.raw)
        switch Self.probe(path) {
        case .isDirectory?: return path
        case let error?: throw unusable(value, key: key, file: path, reason: FileSystem.reason(readingFile: error))
        case nil: throw unusable(value, key: key, file: path, reason: "not a folder")
        }
    }

    /// Opens `path` and reads one byte: nil when that works (or the file is empty), else why not
    /// (`EISDIR` for a folder).
    static func probe(_ path: String) -> Errno? {
        do {
            _ = try FileDescriptor.open(path, .readOnly).read(upTo: 1)
            return nil
        } catch {
            return error
        }
    }

    private func expanded(_ path: String) -> String {
        path.hasPrefix("~/") ? context.home + path.dropFirst() : path
    }

    private func unusable(_ value: ConfigValue, key: String, file: String, reason: String) -> ConfigError {
        .unusableFile(path: value.origin?.path, line: value.origin?.line, key: key, file: file, reason: reason)
    }

    /// Whether PEM text holds a private key (`-----BEGIN … PRIVATE KEY-----`).
    static func containsPrivateKey(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).contains("PRIVATE KEY-----")
    }
}
