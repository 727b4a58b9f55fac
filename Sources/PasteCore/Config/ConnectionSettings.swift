/// The config keys about how uploads connect, as written in `[paste]` or a service section:
/// whom to trust, which client certificate to show, which proxy to go through.
///
/// Values stay raw (with where they were written) until `ConnectionPolicy.resolve` checks the
/// files they name and merges the levels: service, then `[paste]`, then the environment.
public struct ConnectionSettings: Sendable, Equatable {
    /// `ca-file`: a PEM file of CA certificates trusted instead of the system's.
    public var caFile: ConfigValue?
    /// `ca-path`: a folder of hashed CA certificates (`openssl rehash`) trusted instead of the
    /// system's.
    public var caPath: ConfigValue?
    /// `pinned-pubkey` (services only): `sha256//BASE64[;sha256//…]`, or a public key file.
    public var pinnedPublicKey: ConfigValue?
    /// `client-cert` (services only): a PEM client certificate, shown when the server asks.
    public var clientCertificate: ConfigValue?
    /// `client-key` (services only): the PEM private key of `client-cert`.
    public var clientKey: ConfigValue?
    /// `proxy`: a proxy URL, or "" for none (the environment's proxies ignored).
    public var proxy: ConfigValue?
    /// `no-proxy`: hosts reached without the proxy.
    public var noProxy: ConfigValue?
    /// `insecure` (services only): skip TLS verification for this service, with a warning.
    public var isInsecure: Bool?

    public init() {}

    /// Whether any key of the trust group (`ca-file`, `ca-path`) is set.
    var namesTrust: Bool { caFile != nil || caPath != nil }

    /// Applies one of this group's keys, checking its form (files are checked when resolved).
    mutating func apply(_ entry: ConfigFile.Entry, path: String) throws(ConfigError) {
        var value = ConfigValue(entry.value, origin: (path, entry.line))
        value.key = entry.key
        func bad(_ expected: String) -> ConfigError {
            .badValue(
                path: path, line: entry.line, key: entry.key, value: Proxy.redactingCredentials(entry.value),
                expected: expected)
        }
        func filePath() throws(ConfigError) -> ConfigValue {
            guard entry.value.hasPrefix("/") || entry.value.hasPrefix("~/") else {
                throw bad("an absolute path or one starting with ~/")
            }
            return value
        }
        switch entry.key {
        case "ca-file": caFile = try filePath()
        case "ca-path": caPath = try filePath()
        case "client-cert": clientCertificate = try filePath()
        case "client-key": clientKey = try filePath()
        case "pinned-pubkey":
            if entry.value.hasPrefix("sha256//") {
                let pins = entry.value.split(separator: ";", omittingEmptySubsequences: false)
                guard pins.allSatisfy({ Self.isPin($0) }) else {
                    throw bad("sha256// and 44 characters of base64 (';' between several), or a key file")
                }
                pinnedPublicKey = value
            } else {
                pinnedPublicKey = try filePath()
            }
        case "proxy":
            guard entry.value.isEmpty || value.hasReference || Proxy(parsing: entry.value) != nil else {
                throw bad(Proxy.expectedForm)
            }
            proxy = value
        case "no-proxy": noProxy = value
        case "insecure":
            guard let flag = Bool(configText: entry.value) else { throw bad("true or false") }
            isInsecure = flag
        default:
            preconditionFailure("'\(entry.key)' is not a connection key")
        }
    }

    /// `sha256//` and the base64 of a SHA-256 digest (44 characters, `=` padded).
    static func isPin(_ text: Substring) -> Bool {
        guard text.hasPrefix("sha256//") else { return false }
        let digest = text.dropFirst(8)
        return digest.count == 44 && digest.hasSuffix("=")
            && digest.dropLast().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "/") }
    }
}
