/// A proxy uploads go through: `http://`, `https://`, `socks5://` or `socks5h://`, with an
/// optional user and password.
///
/// Written as curl reads it (`CURLOPT_PROXY`, `http_proxy`): `[scheme://][user[:password]@]host[:port][/]`.
/// Without a scheme it is an HTTP proxy; without a port, curl's defaults apply (1080, or 443
/// for an https:// proxy). The credentials are kept apart from everything shown: messages
/// name the proxy by `authority` only.
public struct Proxy: Sendable, Equatable {
    /// How paste talks to the proxy.
    public enum Kind: String, Sendable, CaseIterable {
        /// Plain HTTP: CONNECT tunnels for https:// uploads, absolute-form requests for http://.
        case http
        /// As `http`, with TLS to the proxy itself.
        case https
        /// SOCKS5; paste resolves the server's name itself.
        case socks5
        /// SOCKS5; the proxy resolves the server's name (needed for .onion services).
        case socks5h
    }

    /// How paste talks to the proxy.
    public var kind: Kind
    /// The host, as written (an IPv6 address keeps its brackets).
    public var host: String
    /// The port, explicit or curl's default for the kind.
    public var port: Int
    /// The user, as written (percent-encoded), if any.
    public var user: String?
    /// The password, as written (percent-encoded), if any.
    public var password: String?

    /// curl's default port for a proxy given without one (`CURL_DEFAULT_PROXY_PORT`, and 443
    /// for an https:// proxy).
    static func defaultPort(_ kind: Kind) -> Int { kind == .https ? 443 : 1080 }

    /// What a proxy URL should look like, for messages.
    public static let expectedForm =
        "a proxy URL such as http://HOST:PORT (schemes http, https, socks5, socks5h), or \"\" for none"

    /// Parses a proxy URL; nil when the text is not one (an unknown scheme, no host, a bad port,
    /// a path).
    public init?(parsing text: String) {
        var rest = Substring(text.trimmingSpaces())
        if let separator = rest.firstRange(of: "://") {
            guard let kind = Kind(rawValue: rest[..<separator.lowerBound].lowercased()) else { return nil }
            self.kind = kind
            rest = rest[separator.upperBound...]
        } else {
            kind = .http
        }
        if rest.hasSuffix("/") { rest.removeLast() }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("#") else { return nil }
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                user = String(userInfo[..<colon])
                password = String(userInfo[userInfo.index(after: colon)...])
            } else {
                user = String(userInfo)
            }
            rest = rest[rest.index(after: at)...]
        }
        let portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = String(rest[...close])
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
        } else {
            host = String(rest)
            portText = nil
        }
        let allowed: (Character) -> Bool = { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" }
        guard !host.isEmpty, host.hasPrefix("[") || host.allSatisfy(allowed) else { return nil }
        if let portText {
            guard let number = Int(portText), (1...65_535).contains(number) else { return nil }
            port = number
        } else {
            port = Self.defaultPort(kind)
        }
    }

    /// `host:port`: how messages name the proxy (never with its credentials).
    public var authority: String { "\(host):\(port)" }

    /// The whole URL for libcurl (`CURLOPT_PROXY`), credentials included, port explicit so that
    /// libcurl connects exactly where `authority` says.
    public var url: String {
        let credentials = user.map { user in password.map { "\(user):\($0)@" } ?? "\(user)@" } ?? ""
        return "\(kind.rawValue)://\(credentials)\(host):\(port)"
    }

    /// The credentials as they may appear in libcurl's trace: as written, and percent-decoded.
    public var secrets: [String] {
        let values = [user, password].compactMap { $0 }.filter { !$0.isEmpty }
        return values + values.map(Self.percentDecoded).filter { !values.contains($0) }
    }

    /// Whether the text names a password in a proxy URL (`scheme://user:password@host`).
    public static func hasPassword(_ text: String) -> Bool {
        guard let proxy = Proxy(parsing: text) else { return false }
        return !(proxy.password ?? "").isEmpty
    }

    /// The text with the user information of any URL in it masked (`http://[redacted]@host:3128`),
    /// for messages that quote a value.
    public static func redactingCredentials(_ text: String) -> String {
        guard let separator = text.firstRange(of: "://") else {
            guard let at = text.lastIndex(of: "@") else { return text }
            return Redaction.mask + text[at...]
        }
        let rest = text[separator.upperBound...]
        guard let at = rest.lastIndex(of: "@") else { return text }
        return String(text[..<separator.upperBound]) + Redaction.mask + rest[at...]
    }

    private static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index != utf8.endIndex {
            let byte = utf8[index]
            let second = utf8.index(after: index)
            if byte == UInt8(ascii: "%"), second != utf8.endIndex, utf8.index(after: second) != utf8.endIndex,
                let value = UInt8(String(decoding: utf8[second...utf8.index(after: second)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index = utf8.index(second, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = second
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The hosts reached without a proxy: `no-proxy` or `no_proxy`, matched as curl matches it.
///
/// A comma- or space-separated list. `*` alone means every host. A name matches itself and its
/// subdomains (`example.com` matches `www.example.com`, not `notexample.com`; a leading dot is
/// ignored). An IPv4 address matches itself, or a range with a prefix length (`10.0.0.0/8`);
/// an IPv6 address matches when written the same. Case does not matter.
public struct NoProxyList: Sendable, Equatable {
    /// The entries, as written.
    public var entries: [String]

    /// Splits the list.
    public init(_ text: String) {
        entries = text.split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
    }

    /// Whether `host` (a name, an IPv4 address, or an IPv6 address with or without brackets)
    /// is reached directly.
    public func matches(host: String) -> Bool {
        if entries == ["*"] { return true }
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        let address = Self.ipv4(name)
        for entry in entries {
            var token = entry.lowercased()
            if let address {
                let parts = token.split(separator: "/", maxSplits: 1)
                guard let network = Self.ipv4(String(parts[0])) else { continue }
                let bits = parts.count == 2 ? Int(parts[1]) ?? -1 : 32
                guard (0...32).contains(bits) else { continue }
                let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
                if address & mask == network & mask { return true }
                continue
            }
            if name.contains(":") {
                if token.hasPrefix("["), token.hasSuffix("]") { token = String(token.dropFirst().dropLast()) }
                if token == name { return true }
                continue
            }
            if token.hasSuffix(".") { token.removeLast() }
            if token.hasPrefix(".") { token.removeFirst() }
            guard !token.isEmpty else { continue }
            if name == token || name.hasSuffix("." + token) { return true }
        }
        return false
    }

    /// A dotted-quad IPv4 address as a number, or nil.
    static func ipv4(_ text: String) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let byte = UInt8(part) else {
                return nil
            }
            value = value << 8 | UInt32(byte)
        }
        return value
    }
}
