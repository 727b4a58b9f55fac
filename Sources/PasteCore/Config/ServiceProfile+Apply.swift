import FoundationEssentials
import SystemInterop

extension ServiceProfile {
    /// The keys of `[service "NAME"]`, in the order paste-config(5) lists them.
    public static let keys: [ConfigKey<ServiceProfile>] = [
        // `base` and `sxcu` choose where the profile starts; Configuration.init(file:) applies them first.
        .init("base", .service, "the built-in service this one starts from") { _, _ in },
        .init("sxcu", .service, "the ShareX uploader this one is") { _, _ in },
        .init("url", .service, "where the text is sent") { profile, value throws(ConfigError) in
            let lower = value.text.lowercased()
            guard
                lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("tcp://")
                    || value.text.hasPrefix("${")
            else { throw value.bad("an http://, https:// or tcp:// URL") }
            profile.url = try value.template(value.text, allowsContent: true)
        },
        .init("format", .service, "how the text is sent") { profile, value throws(ConfigError) in
            profile.format = try value.choice(
                RequestFormat.self, "multipart, form, raw, json, xml, none, tcp or privatebin")
            // Every PrivateBin instance has the built-in's limit unless `max-size` says another
            // (before or after this line): its text is read whole, compressed and encrypted, a
            // few times its size in memory (issue 45, item 11: 1.1 GB for 256 MiB).
            if profile.format == .privatebin && profile.maximumBytes == nil {
                profile.maximumBytes = BuiltInServices.privateBinSizeLimit
            }
        },
        .init("method", .service, "the HTTP method") { profile, value throws(ConfigError) in
            let upper = value.text.uppercased()
            guard ["POST", "PUT", "PATCH", "GET", "DELETE"].contains(upper) else {
                throw value.bad("POST, PUT, PATCH, GET or DELETE")
            }
            profile.method = upper
        },
        .init("content-field", .service, "the form field that carries the text") { profile, value throws(ConfigError) in
            profile.contentField = value.text
        },
        .init("file-name", .service, "the file name of the text's part") { profile, value throws(ConfigError) in
            profile.fileName = try value.template(value.text).raw
        },
        .init("content-type", .service, "the Content-Type of the body") { profile, value throws(ConfigError) in
            profile.contentType = value.text
        },
        .init("field", .service, "a form field, NAME=VALUE") { profile, value throws(ConfigError) in
            let (name, text) = try value.pair()
            let field = try value.template(text, allowsContent: true)
            if field.template.uses(.content) && !field.template.isContentAlone {
                throw .badTemplate(
                    path: value.path, line: value.entry.line, key: value.entry.key,
                    problem: .notAllowed(
                        "{content}", place: "with other text in a field (the field carries the content alone)"))
            }
            profile.fields.append((name, field))
        },
        .init("query", .service, "a query parameter, NAME=VALUE") { profile, value throws(ConfigError) in
            let (name, text) = try value.pair()
            profile.query.append((name, try value.template(text, allowsContent: true)))
        },
        .init("lang-field", .service, "the field of -l") { profile, value throws(ConfigError) in
            profile.langField = value.text
        },
        .init("title-field", .service, "the field of -t") { profile, value throws(ConfigError) in
            profile.titleField = value.text
        },
        .init("private-field", .service, "the field of -p, NAME or NAME=VALUE") { profile, value throws(ConfigError) in
            profile.privateField = try value.text.contains("=") ? value.pair() : (value.text, "1")
        },
        .init("always-private", .service, "whether every paste is private") { profile, value throws(ConfigError) in
            profile.isAlwaysPrivate = try value.bool()
        },
        .init("redact", .service, "whether secrets are masked instead of refused") {
            profile, value throws(ConfigError) in
            profile.redacts = try value.bool()
        },
        .init("key-bearing", .service, "whether its result URLs carry a key (or only -p's: private)") {
            profile, value throws(ConfigError) in
            let isPrivateOnly = value.text.lowercased() == "private"
            guard let flag = isPrivateOnly ? false : Bool(configText: value.text) else {
                throw value.bad("true, false or private")
            }
            profile.isDeclaredKeyBearing = flag
            profile.privateResultsCarryKey = isPrivateOnly
        },
        .init("expiry-field", .service, "the field of -e") { profile, value throws(ConfigError) in
            profile.expiryField = value.text
        },
        .init("expiry-unit", .service, "how -e is written") { profile, value throws(ConfigError) in
            guard let unit = ExpiryUnit(configText: value.text) else {
                throw value.bad("seconds, minutes, hours, days, or choices NAME=DURATION,…")
            }
            profile.expiryUnit = unit
        },
        .init("json", .service, "a JSON body template") { profile, value throws(ConfigError) in
            profile.jsonTemplate = try value.template(value.text, allowsContent: true)
        },
        .init("xml", .service, "an XML body template") { profile, value throws(ConfigError) in
            profile.xmlTemplate = try value.template(value.text, allowsContent: true)
        },
        .init("header", .service, "a header, 'Name: value'") { profile, value throws(ConfigError) in
            guard let colon = value.text.firstIndex(of: ":"), colon != value.text.startIndex,
                !value.text[..<colon].contains(" ")
            else { throw value.bad("'Name: value'") }
            profile.headers.append(try value.template(value.text))
        },
        .init("result", .service, "where the paste's URL is in the answer") { profile, value throws(ConfigError) in
            if let rule = ResultRule(configText: value.text) {
                if case .regex(let pattern) = rule {
                    do {
                        _ = try TextPattern(pattern)
                    } catch {
                        throw value.bad("a valid regular expression after 'regex:' (\(error))")
                    }
                }
                profile.result = rule
                return
            }
            let result = try value.template(value.text, use: .result)
            guard result.template.readsAnswer || result.template.uses(.filename) else {
                throw value.bad(
                    "redirect, location, body, json:/pointer, regex:RE or a template such as https://host/{json:/key}")
            }
            profile.result = .template(result.template)
        },
        .init("deletion", .service, "where the deletion token or URL is in the answer") {
            profile, value throws(ConfigError) in
            guard let rule = ServiceProfile.deletionTemplate(value.text) else {
                _ = try value.template(value.text, use: .result)
                throw value.bad("header:NAME, json:/pointer or a template such as {json:/delete_url}")
            }
            profile.deletion = rule
            profile.deletionSource = value.text
        },
        .init("error-message", .service, "where the service's own error message is") {
            profile, value throws(ConfigError) in
            let message = try value.template(value.text, use: .result)
            guard message.template.readsAnswer else { throw value.bad("a template such as {json:/error}") }
            profile.errorMessage = message.template
        },
        .init("accepts", .service, "what the service takes: text, images, files") {
            profile, value throws(ConfigError) in
            guard let kinds = ContentKinds(configText: value.text) else {
                throw value.bad("text, images or files, separated by commas")
            }
            profile.accepts = kinds
        },
        .init("max-size", .service, "the largest paste the service takes") { profile, value throws(ConfigError) in
            guard let bytes = SettingRange.maximumSize.parse(value.text) else {
                throw value.bad("\(SettingRange.maximumSize) (such as 512K, 10M)")
            }
            profile.maximumBytes = bytes
        },
        .init("response-timeout", .service, "the service's own response-timeout") {
            profile, value throws(ConfigError) in
            profile.responseTimeout = try value.duration(SettingRange.responseTimeout)
        },
        .init("summary", .service, "what --list-services says of it") { profile, value throws(ConfigError) in
            profile.summary = value.text
        },
        .connection("ca-file", .service, "the CA certificates trusted"),
        .connection("ca-path", .service, "a folder of CA certificates trusted"),
        .connection("pinned-pubkey", .service, "the server's public key pinned"),
        .connection("insecure", .service, "no certificate check (tests only)"),
        .connection("client-cert", .service, "a client certificate"),
        .connection("client-key", .service, "the client certificate's key"),
        .connection("proxy", .service, "the proxy"),
        .connection("no-proxy", .service, "the hosts reached without the proxy"),
        .init("update", .service, "how a living paste is updated: replace or recreate") {
            profile, value throws(ConfigError) in
            var updating = profile.updating ?? LivingUpdate()
            updating.mode = try value.choice(LivingUpdate.Mode.self, "replace or recreate")
            profile.updating = updating
        },
        .init("update-url", .service, "where an update is sent, {id} in it") { profile, value throws(ConfigError) in
            try Self.checkLivingURL(value)
            var updating = profile.updating ?? LivingUpdate()
            updating.url = value.text
            profile.updating = updating
        },
        .init("update-method", .service, "the HTTP method of an update") { profile, value throws(ConfigError) in
            let upper = value.text.uppercased()
            guard ["PATCH", "PUT", "POST"].contains(upper) else { throw value.bad("PATCH, PUT or POST") }
            var updating = profile.updating ?? LivingUpdate()
            updating.method = upper
            profile.updating = updating
        },
        .init("update-json", .service, "the JSON body of an update") { profile, value throws(ConfigError) in
            var updating = profile.updating ?? LivingUpdate()
            updating.jsonTemplate = try value.template(value.text, allowsContent: true)
            profile.updating = updating
        },
        .init("id", .service, "where the paste's id is in the create answer") { profile, value throws(ConfigError) in
            let rule = try value.template(value.text, use: .result)
            guard rule.template.readsAnswer else { throw value.bad("a template such as {json:/id}") }
            var updating = profile.updating ?? LivingUpdate()
            updating.idRule = rule.template
            profile.updating = updating
        },
        .init("delete-url", .service, "where a DELETE removes the paste, {id} in it") {
            profile, value throws(ConfigError) in
            try Self.checkLivingURL(value)
            var updating = profile.updating ?? LivingUpdate()
            updating.deleteURL = value.text
            profile.updating = updating
        },
        .init("fallback", .service, "where the text goes when this service is down") {
            profile, value throws(ConfigError) in
            profile.fallback = value.text
        },
        .init("fallback-public", .service, "a public service this private one may fall back to") {
            profile, value throws(ConfigError) in
            profile.publicFallbacks.append(value.text)
        },
    ]

    /// Checks an `update-url` or `delete-url`: an http(s) URL or one relative to `url`, `{id}`
    /// its only hole.
    static func checkLivingURL(_ value: ConfigKeyValue) throws(ConfigError) {
        let probe = value.text.replacing("{id}", with: "id")
        guard !probe.contains("{"), !probe.contains("}"), !probe.contains(" ") else {
            throw value.bad("a URL, absolute or relative to 'url', with {id} where the paste's id goes")
        }
        let lower = probe.lowercased()
        if lower.contains("://") && !(lower.hasPrefix("http://") || lower.hasPrefix("https://")) {
            throw value.bad("an http:// or https:// URL, or one relative to 'url'")
        }
    }

    /// `keys` by name.
    static let keysByName: [String: ConfigKey<ServiceProfile>] = keys.keyedByName()

    mutating func apply(_ entry: ConfigFile.Entry, path: String) throws(ConfigError) {
        guard let key = Self.keysByName[entry.key] else {
            throw .unknownKey(path: path, line: entry.line, section: "service \"\(name)\"", key: entry.key)
        }
        try key.read(&self, ConfigKeyValue(entry: entry, path: path))
    }
}
