import PasteCore

/// Whether a name (a key, a header, an environment variable, a cookie) says its value is a
/// secret: the vocabulary of the structural layer (issue 42).
///
/// A name is cut into words at separators and camel-case humps (`X-Auth-Key` → `x auth key`,
/// `secretKeyBase` → `secret key base`). It bears a secret when a word is one of
/// `secretWords` (`password`, `token`, `credentials`…), or when it is `key` after one of
/// `keyQualifiers` (`api key`, `routing key`, `account key`, `application key`). Words that make
/// it harmless win: a name whose last word is `id`, `name`, `url`, `type`… (`key_id`,
/// `token_url`) or that holds `checksum`, `hash`, `digest`, `fingerprint`, `public`, `example`
/// anywhere (Helm's `checksum/secret`, `public_key`) is not looked at.
enum SecretName {
    /// What a name says about its value.
    enum Verdict: Equatable {
        /// Not a secret-bearing name, or one made harmless.
        case none
        /// A secret-bearing name: its value is judged by its own shape.
        case secret
        /// `Authorization` (and `Proxy-Authorization`): the value is a scheme and a credential.
        case authorization
        /// `Cookie` or `Set-Cookie`: the value is cookie pairs.
        case cookie
    }

    /// Words that make a name secret-bearing wherever they stand in it.
    static let secretWords: Set<String> = [
        "password", "passwd", "pwd", "passphrase", "pass", "secret", "secrets", "token", "tokens", "credential",
        "credentials", "creds", "apikey", "authkey", "authtoken", "privatekey", "clientsecret", "bindpw", "authtok",
        "passcode", "pat", "psk",
        // An HMAC's key (`ReportingHMAC`), a header's shared secret (`X-Upstream-Auth`): judged by
        // the value's shape, as every word here (`auth_method: oauth2` is no secret).
        "hmac", "auth",
    ]

    /// Words that make `key` after them a secret (`api key`, `routing key`).
    static let keyQualifiers: Set<String> = [
        "api", "app", "application", "access", "account", "auth", "routing", "signing", "master", "encryption",
        "private", "secret", "session", "license", "licence", "shared", "client", "integration", "service", "webhook",
        "admin", "ingest", "storage", "subscription", "primary", "secondary", "hmac", "jwt", "x", "write", "deploy",
        "consumer", "partner", "merchant", "encrypt", "gossip", "wlan", "wifi", "wpa", "wireless", "network",
        // GitHub Packages' `gpr.key` beside `gpr.user` in Gradle's properties.
        "gpr",
    ]

    /// Words that make a name harmless wherever they stand in it. Anti-forgery tokens (`csrf`,
    /// Rails' `authenticity_token`, ASP.NET's `__RequestVerificationToken`) are among them: a
    /// form's or a header's token, which proves nothing without the session it belongs to.
    static let harmlessAnywhere: Set<String> = [
        "checksum", "checksums", "hash", "hashed", "digest", "fingerprint", "public", "publishable", "pub", "example",
        "examples", "sample", "placeholder", "dummy", "fake", "mock", "sha", "sha1", "sha256", "sha512", "md5",
        "integrity", "csrf", "xsrf", "csrftoken", "xsrftoken", "csrfmiddlewaretoken", "antiforgery", "authenticity",
        "requestverificationtoken",
    ]

    /// Last words that make a name harmless: the name of something about the secret, not it.
    static let harmlessLast: Set<String> = [
        "id", "ids", "name", "names", "type", "types", "file", "files", "path", "paths", "dir", "url", "uri", "urls",
        "endpoint", "length", "len", "size", "ttl", "expiry", "expires", "expiration", "expire", "format", "version",
        "prefix", "suffix", "header", "field", "policy", "count", "max", "min", "enabled", "required", "hint", "label",
        "ref", "arn", "env", "var", "source", "location", "mode", "algorithm", "alg", "scope", "scopes", "kind",
        "status", "strength", "rotation", "created", "updated", "reset", "regex", "pattern", "template", "policy",
        "description", "help", "error", "message", "list", "index", "chars", "characters", "provider", "manager",
        "store", "storage", "vault", "helper", "command", "cmd", "function", "method", "class",
    ]

    /// Words that make `token` after them no credential: a page of results (`NextToken`,
    /// `pageToken`, `ContinuationToken`), a request's idempotency (AWS's `ClientToken`,
    /// `IdempotencyToken`), a sync cursor; Braintree's `client_token` is made for the browser.
    static let harmlessTokenQualifiers: Set<String> = [
        "next", "page", "continuation", "pagination", "idempotency", "client", "sync", "cursor", "resume",
    ]

    /// Words that make `KEY` a lookup key, a public key's fingerprint or a key meant to be
    /// public, not a secret (`CACHE_KEY`, `PRIMARY_KEY`, Docker images' `GPG_KEY`, reCAPTCHA's
    /// `SITE_KEY`).
    static let lookupKeyWords: Set<String> = [
        "cache", "primary", "foreign", "sort", "partition", "lookup", "lock", "dedup", "idempotency", "row", "map",
        "dict", "hash", "index", "cursor", "gpg", "pgp", "ssh", "host", "sign", "release", "repo", "apt", "yum",
        "object", "bucket", "s3", "prefix", "field", "column", "table", "metric", "label", "config", "setting",
        "translation", "i18n", "storage", "site", "anon", "anonymous",
    ]

    /// Whether a name's words end in `token` after one of `harmlessTokenQualifiers`.
    static func isHarmlessToken(_ words: [String]) -> Bool {
        words.count > 1 && words[words.count - 1] == "token" && harmlessTokenQualifiers.contains(words[words.count - 2])
    }

    /// The lower-case words of `name`, cut at anything not a letter or digit and at camel-case
    /// humps (`DBPassword` → `db password`).
    static func words(_ name: [UInt8]) -> [String] {
        var result: [String] = []
        var current: [UInt8] = []
        func flush() {
            if !current.isEmpty { result.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
        }
        for index in name.indices {
            let byte = name[index]
            guard SecretText.isAlphanumeric(byte) else {
                flush()
                continue
            }
            if SecretText.isUpper(byte), !current.isEmpty {
                let before = name[index - 1]
                let nextIsLower = index + 1 < name.count && SecretText.isLower(name[index + 1])
                // `dbPassword`, `DBPassword` (a hump before the last capital of a run).
                if SecretText.isLower(before) || SecretText.isDigit(before)
                    || (SecretText.isUpper(before) && nextIsLower)
                {
                    flush()
                }
            }
            current.append(SecretText.lowercased(byte))
        }
        flush()
        return result
    }

    /// What `name` says about its value.
    static func verdict(_ name: [UInt8]) -> Verdict {
        guard !name.isEmpty, name.count <= SecretRule.maximumKeyLength else { return .none }
        let parts = words(name)
        guard let last = parts.last else { return .none }
        if parts.contains(where: harmlessAnywhere.contains) || harmlessLast.contains(last) { return .none }
        if isHarmlessToken(parts) { return .none }
        if last == "authorization" { return .authorization }
        if last == "cookie" { return .cookie }
        for (index, word) in parts.enumerated() {
            if secretWords.contains(word) { return .secret }
            if word == "key", index > 0, keyQualifiers.contains(parts[index - 1]) { return .secret }
            // `apikey`, `authkey`, `accountkey` written as one word.
            if word.count > 3, word.hasSuffix("key"), keyQualifiers.contains(String(word.dropLast(3))) {
                return .secret
            }
            if word.hasSuffix("password") || word.hasSuffix("secret") || word.hasSuffix("token") { return .secret }
        }
        return .none
    }

    /// Whether a cookie's name is that of a session or login (`session`, `sid`, `JSESSIONID`,
    /// `connect.sid`, `_gh_sess`, `remember_token`).
    static func isSessionCookie(_ name: [UInt8]) -> Bool {
        let parts = words(name)
        if parts.contains(where: { $0 == "csrf" || $0 == "xsrf" || $0 == "csrftoken" }) { return false }
        if parts.contains(where: sessionCookieWords.contains) { return true }
        let joined = parts.joined()
        return joined.hasSuffix("session") || joined.hasSuffix("sessid") || joined.hasSuffix("sessionid")
    }

    /// The words of a session or login cookie's name (`isSessionCookie`): made once, not at
    /// each cookie pair.
    static let sessionCookieWords: Set<String> = [
        "session", "sessionid", "sess", "sid", "jsessionid", "phpsessid", "aspsessionid", "auth", "token", "jwt",
        "remember", "login", "access", "refresh", "identity", "sso", "saml",
    ]
}
