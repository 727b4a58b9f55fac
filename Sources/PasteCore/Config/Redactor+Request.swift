import FoundationEssentials

// MARK: - Registering what a request carries

extension Redactor {
    /// Registers the credentials in a URL: its user information (the user, the password, both
    /// as written and percent-decoded, and `user:password` in base64, as an `Authorization:
    /// Basic` header carries it) and the value of every query parameter named like a
    /// credential (`Redaction.isSensitiveQuery`: `api_key`, `access_token`, `auth`, …).
    public func register(url: String) {
        guard let schemeEnd = url.firstRange(of: "://") else { return }
        let afterScheme = url[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            let user: Substring
            let password: Substring?
            if let colon = userInfo.firstIndex(of: ":") {
                user = userInfo[..<colon]
                password = userInfo[userInfo.index(after: colon)...]
            } else {
                user = userInfo
                password = nil
            }
            register(credentials: String(user), password: password.map(String.init))
        }
        guard let question = url.firstIndex(of: "?") else { return }
        var query = url[url.index(after: question)...]
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        for pair in query.split(whereSeparator: { $0 == "&" || $0 == ";" }) {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = Self.percentDecoded(String(pair[..<equals]))
            guard Redaction.isSensitiveQuery(name) else { continue }
            let value = String(pair[pair.index(after: equals)...])
            // A `${env:…}` reference is no secret; its value is registered when it is resolved.
            guard !value.contains("${") else { continue }
            register(value)
            register(Self.percentDecoded(value.replacing("+", with: " ")))
        }
    }

    /// Registers a user and password (URL user information, a proxy's): each as written and
    /// percent-decoded, and `user:password` in base64 (an `Authorization: Basic` value).
    public func register(credentials user: String, password: String?) {
        // `${env:…}` references are no secrets; their values are registered when resolved.
        let user = user.contains("${") ? "" : user
        let password = password?.contains("${") == true ? nil : password
        let decodedUser = Self.percentDecoded(user)
        let decodedPassword = password.map(Self.percentDecoded)
        for value in [user, decodedUser, password, decodedPassword].compactMap({ $0 }) { register(value) }
        let pair = decodedUser + ":" + (decodedPassword ?? "")
        if !user.isEmpty || !(password ?? "").isEmpty {
            register(Data(pair.utf8).base64EncodedString())
        }
    }

    /// Registers a header line's value (`Name: value`), unless the header is one that never
    /// carries a credential (`Redaction.isPublicHeader`: `Content-Type`, `Accept`, …): the whole
    /// value, and the credential after a scheme word (`Bearer xyz`: `xyz`; `Basic` also
    /// decoded, and its password).
    public func register(header line: String) {
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon]).trimmingSpaces()
        guard !Redaction.isPublicHeader(name) else { return }
        let value = line[line.index(after: colon)...].trimmingSpaces()
        register(value)
        guard let space = value.firstIndex(of: " "), value[..<space].allSatisfy(\.isLetter) else { return }
        let credential = value[value.index(after: space)...].trimmingSpaces()
        register(credential)
        if value[..<space].lowercased() == "basic", let decoded = Data(base64Encoded: credential),
            let pair = String(bytes: decoded, encoding: .utf8)
        {
            register(pair)
            if let colon = pair.firstIndex(of: ":") { register(String(pair[pair.index(after: colon)...])) }
        }
    }

    /// Registers a proxy's user and password.
    public func register(proxy: Proxy) {
        guard proxy.user != nil || proxy.password != nil else { return }
        register(credentials: proxy.user ?? "", password: proxy.password)
    }

    /// Registers the credentials of every proxy a policy names.
    public func register(_ policy: ConnectionPolicy) {
        for proxy in [policy.httpProxy, policy.httpsProxy, policy.tcpProxy].compactMap({ $0 }) {
            register(proxy: proxy)
        }
    }

    /// Registers what a built request carries that must never be shown: its URL's credentials,
    /// its headers' values, the values of fields named like credentials, and its proxies'.
    /// (Values from `${env:…}`, `${file:…}` and `${cmd:…}` were registered when they were
    /// resolved.)
    public func register(_ request: UploadRequest) {
        register(url: request.url)
        for header in request.headers { register(header: header) }
        switch request.body {
        case .multipart(let fields):
            for field in fields where Redaction.isSensitiveField(field.name) {
                if case .text(let value) = field.value { register(value) }
            }
        case .form(let pairs):
            for pair in pairs where Redaction.isSensitiveField(pair.name) { register(pair.value) }
        case .raw, .rendered, .embedded:
            break
        }
        register(request.connection)
    }

    /// The text with `%XX` sequences decoded (invalid UTF-8 repaired); the text itself when it
    /// holds none.
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let value = UInt8(String(decoding: utf8[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
