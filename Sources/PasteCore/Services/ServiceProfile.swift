import Synchronization

/// How the request body is shaped for a service.
public enum RequestFormat: String, Sendable, CaseIterable {
    /// `multipart/form-data` (the classic pastie API, 0x0.st).
    case multipart
    /// `application/x-www-form-urlencoded` (dpaste.com).
    case form
    /// The content itself is the body (paste.rs).
    case raw
    /// A JSON template with placeholders (pinnwand).
    case json
    /// A plain TCP connection: send the content, read the URL back (termbin, fiche).
    case tcp
    /// An XML template with placeholders (ShareX definitions with an XML body).
    case xml
    /// No body: the content goes in the URL (ShareX definitions with `"Body": "None"`).
    case noBody = "none"
    /// PrivateBin's JSON API v2: the text encrypted here, the key only in the link (`PrivateBin`).
    case privatebin
}

/// A value from the config file, kept raw until it is used so that `${env:…}` and `${file:…}`
/// are resolved only for the service actually chosen, and errors can name the line.
public struct ConfigValue: Sendable, Equatable {
    /// The text as written, after unquoting.
    public var raw: String
    /// The text parsed: placeholders, references and (in results) answer values.
    public var template: Template {
        get {
            switch parsed {
            case .done(let template): template
            case .later(let later): later.template
            }
        }
        set { parsed = .done(newValue) }
    }
    /// `template`, or what makes it when first read (`init(_:origin:)`).
    private var parsed: Parsed
    /// Where it was written (`nil` for built-ins).
    public var origin: (path: String, line: Int)?
    /// The config key it was written at (`header`, `proxy`), for messages; nil when not from a
    /// config line.
    public var key: String?

    /// Makes a value; built-ins have no origin. Text that is not a valid template is taken
    /// literally: values read from a file go through `init(parsing:use:origin:)`, which checks.
    ///
    /// PERF(hotkey): the text is parsed when `template` is first read, not here. The built-in
    /// services are made this way on every start, and their JSON bodies' templates were
    /// 450,000 instructions to parse (callgrind), for services a run mostly never uses.
    public init(_ raw: String, origin: (path: String, line: Int)? = nil) {
        self.raw = raw
        self.parsed = .later(LaterTemplate(raw))
        self.origin = origin
    }

    /// Parses a value written in a config file, refusing unknown or misplaced holes.
    public init(parsing raw: String, use: Template.Use = .request, origin: (path: String, line: Int)?)
        throws(TemplateProblem)
    {
        self.raw = raw
        self.parsed = .done(try Template(configText: raw, use: use))
        self.origin = origin
    }

    /// A value made from a template (a ShareX definition); `raw` is its config spelling when it
    /// has one.
    public init(template: Template, origin: (path: String, line: Int)?) {
        self.raw = (try? template.configText()) ?? ""
        self.parsed = .done(template)
        self.origin = origin
    }

    /// Whether the value reads a secret through `${env:…}`, `${file:…}` or `${cmd:…}`.
    public var hasReference: Bool { template.hasReference }

    /// A template parsed already, or one parsed when first read.
    private enum Parsed: Sendable {
        case done(Template)
        case later(LaterTemplate)
    }

    /// A value's text, parsed the first time its template is read and kept (copies of the
    /// value share it: the text it parses never changes). Text that is not a valid template is
    /// taken literally, as `init(_:origin:)` always took it.
    private final class LaterTemplate: Sendable {
        private let raw: String
        private let made = Mutex<Template?>(nil)

        init(_ raw: String) { self.raw = raw }

        var template: Template {
            made.withLock { made in
                if let made { return made }
                let template = (try? Template(configText: raw, use: .request)) ?? Template(literal: raw)
                made = template
                return template
            }
        }
    }

    public static func == (lhs: ConfigValue, rhs: ConfigValue) -> Bool {
        lhs.raw == rhs.raw && lhs.template == rhs.template && lhs.origin?.path == rhs.origin?.path
            && lhs.origin?.line == rhs.origin?.line
    }
}

/// What kinds of content a service takes (`accepts = text, files`).
public struct ContentKinds: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Text (every paste paste makes today).
    public static let text = ContentKinds(rawValue: 1)
    /// Images.
    public static let images = ContentKinds(rawValue: 2)
    /// Files of any kind (text among them).
    public static let files = ContentKinds(rawValue: 4)

    /// Whether a text paste can go to a service that takes these.
    public var takesText: Bool { contains(.text) || contains(.files) }

    /// The config spelling (`text, files`).
    public var configText: String {
        [(ContentKinds.text, "text"), (.images, "images"), (.files, "files")].filter { contains($0.0) }.map(\.1)
            .joined(separator: ", ")
    }
}

/// How a service turns an expiry duration into its own field value.
public enum ExpiryUnit: Sendable, Equatable {
    /// A whole number of this many seconds per unit (seconds 1, hours 3600, days 86400).
    case count(secondsPerUnit: Int)
    /// One of a fixed set of names, each meaning a duration (pinnwand's `1hour`, `1day`, `1week`).
    case choices([(name: String, seconds: Int)])

    public static func == (lhs: ExpiryUnit, rhs: ExpiryUnit) -> Bool {
        switch (lhs, rhs) {
        case (.count(let a), .count(let b)): a == b
        case (.choices(let a), .choices(let b)): a.map(\.name) == b.map(\.name) && a.map(\.seconds) == b.map(\.seconds)
        default: false
        }
    }
}

/// Everything paste needs to know to upload to one pastebin and read the URL back.
public struct ServiceProfile: Sendable, Equatable {
    /// The name used with `-S` and in `[service "NAME"]`.
    public var name: String
    /// The endpoint: `http(s)://…` or `tcp://host:port`.
    public var url: ConfigValue
    /// `POST` (default) or `PUT`.
    public var method: String = "POST"
    /// The body's shape.
    public var format: RequestFormat = .multipart

    /// Whether this service's results carry their own key: a PrivateBin link holds its
    /// decryption key in the fragment, and any service may say so of its own links
    /// (`key-bearing = yes`). Such a URL is marked for clipboard managers and shown shortened
    /// (issue 26, item 2). A PrivateBin service's links carry their key whatever the key says.
    public var resultsCarryKey: Bool { format == .privatebin || isDeclaredKeyBearing }
    /// `key-bearing = yes`: the service's result URLs carry a key (a capability link, a secret
    /// id, a key in the query), so they are handled as PrivateBin's are.
    public var isDeclaredKeyBearing = false
    /// `key-bearing = private`: the URL of a private paste (`-p`) is the secret, while a public
    /// one is not: 0x0.st's `secret` field makes a long random path (`/s/RANDOM/ID.txt`), which
    /// whoever holds it can read, in place of a short id anyone can count through.
    public var privateResultsCarryKey = false

    /// Whether the URL of a paste made with `isPrivate` carries its key: `resultsCarryKey`, or
    /// a private paste's on a service whose private URLs are the secret.
    public func resultsCarryKey(isPrivate: Bool) -> Bool {
        resultsCarryKey || (isPrivate && privateResultsCarryKey)
    }
    /// The form field that carries the content (multipart and form).
    public var contentField: String = "content"
    /// The file name sent with the content part, for services that want a file upload (0x0.st).
    public var fileName: String?
    /// The content type of a raw body.
    public var contentType: String = "text/plain; charset=utf-8"
    /// Fixed fields sent with every paste, in order (`paste[parser]=plaintext`).
    public var fields: [(name: String, value: ConfigValue)] = []
    /// The field that carries `-l LANG`.
    public var langField: String?
    /// The field that carries `-t TITLE`.
    public var titleField: String?
    /// The field (and value) that makes a paste private (`paste[restricted]=1`).
    public var privateField: (name: String, value: String)?
    /// Whether every paste on this service is unlisted anyway, so `-p` needs no field.
    public var isAlwaysPrivate = false
    /// `redact` in its section: whether a text the secret guard flags goes up with its secrets
    /// masked; nil: `[paste]`'s `redact` decides.
    public var redacts: Bool?
    /// The field that carries `-e DURATION`, and how the duration is written.
    public var expiryField: String?
    /// The unit of `expiryField`.
    public var expiryUnit: ExpiryUnit = .count(secondsPerUnit: 1)
    /// The JSON template for `format = json`.
    public var jsonTemplate: ConfigValue?
    /// Extra headers (`Authorization: Bearer ${env:TOKEN}`).
    public var headers: [ConfigValue] = []
    /// How the URL is read back.
    public var result: ResultRule = .redirect
    /// Where a deletion token or URL is found in the answer (`header:X-Token`, `json:/removal`).
    public var deletionSource: String?
    /// The largest content the service accepts, checked before sending.
    public var maximumBytes: Int64?
    /// How long its answer may take once the text is sent (`response-timeout` in its section),
    /// over `[paste]`'s.
    public var responseTimeout: Duration?
    /// Query parameters appended to the URL, in order (`query = name=value`); each value is
    /// filled, then percent-encoded whole.
    public var query: [(name: String, value: ConfigValue)] = []
    /// The XML template for `format = xml`.
    public var xmlTemplate: ConfigValue?
    /// Where a deletion token or URL is found, as a template (`deletion = {json:/removal}`);
    /// when nil, `deletionSource` says it.
    public var deletion: Template?
    /// The server's own error message in an answer that is not a success
    /// (`error-message = {json:/error}`), shown instead of the start of the body.
    public var errorMessage: Template?
    /// What the service takes (default: text): `accepts = text, files`, a built-in's own, or a
    /// ShareX definition's `DestinationType` (the hook `ServiceChoice` reads).
    public var accepts: ContentKinds = .text
    /// The ShareX definition the profile was made from (`sxcu = PATH`, `-S PATH.sxcu`).
    public var shareXPath: String?
    /// A one-line description for `--list-services`.
    public var summary: String = ""
    /// The header that must carry the person's token before the service takes anything
    /// (`Authorization` for gists, `PRIVATE-TOKEN` for GitLab); nil when none is needed.
    public var tokenHeader: String?
    /// Whether the service can be used as it stands: it needs no token, or a `header` line
    /// names the one it needs. "Choose another" offers only these.
    public var hasCredential: Bool {
        guard let tokenHeader else { return true }
        return headers.contains { header in
            guard let colon = header.raw.firstIndex(of: ":") else { return false }
            return header.raw[..<colon].trimmingSpaces().lowercased() == tokenHeader.lowercased()
        }
    }
    /// Whether the profile is one of paste's own.
    public var isBuiltIn = false
    /// Where `[service "NAME"]` was declared.
    public var origin: (path: String, line: Int)?
    /// Trust, client certificate and proxy keys of this service (over those of `[paste]`).
    public var connection = ConnectionSettings()
    /// `fallback = NAME`: where a fresh text goes when this service is unreachable, times out
    /// before the body was taken, or answers 5xx or 429 (`FallbackStage` in PasteCLI).
    public var fallback: String?
    /// `fallback-public = NAME` (repeatable): the services this one's text may fall back to
    /// although they neither encrypt nor make private pastes, when this one does (PrivateBin,
    /// `always-private`).
    public var publicFallbacks: [String] = []
    /// How the service replaces a paste in place (`update-url` and its keys; `gist`, `gitlab`,
    /// `opengist` built in): nil when it cannot, and `paste --update` refuses it.
    public var updating: LivingUpdate?
    /// The living paste a run of `paste --update NAME` sends to (set on the run's profile only).
    public var living: LivingTarget?

    /// Whether the service keeps what it is sent from the public: it encrypts (PrivateBin) or
    /// makes every paste private (`always-private`). Its text never falls back to a service
    /// that does not, unless `fallback-public` names that service.
    public var protectsContent: Bool { format == .privatebin || isAlwaysPrivate }

    /// Makes a profile with defaults for everything but the name and URL.
    public init(name: String, url: ConfigValue) {
        self.name = name
        self.url = url
    }

    /// Whether `-p` can be honoured.
    public var canBePrivate: Bool {
        isAlwaysPrivate || privateField != nil || uses(.private) || format == .privatebin
    }

    /// Every request template of the profile (URL, query, fields, headers, file name, body).
    public var requestTemplates: [ConfigValue] {
        [url] + query.map(\.value) + fields.map(\.value) + headers + [jsonTemplate, xmlTemplate].compactMap { $0 }
            + (fileName.map { [ConfigValue($0)] } ?? [])
    }

    /// Whether some request template uses the placeholder (so `-t`, `-l`, `-e` or `-p` can be
    /// honoured without a field key).
    public func uses(_ placeholder: Placeholder) -> Bool {
        requestTemplates.contains { $0.template.uses(placeholder) }
    }

    /// Where the deletion token or URL is read from: `deletion`, else `deletionSource`
    /// (`header:NAME` or `json:/pointer`, the spellings of built-ins).
    public var deletionRule: Template? {
        if let deletion { return deletion }
        guard let source = deletionSource else { return nil }
        return Self.deletionTemplate(source)
    }

    /// `header:NAME`, `json:/pointer` or a result template, as a template; nil when invalid.
    public static func deletionTemplate(_ source: String) -> Template? {
        if source.hasPrefix("header:"), source.count > 7 {
            return Template([.answer(.header(String(source.dropFirst(7))))])
        }
        if source.hasPrefix("json:/") {
            return Template([.answer(.json(pointer: String(source.dropFirst(5)), input: nil))])
        }
        guard let template = try? Template(configText: source, use: .result), template.readsAnswer else { return nil }
        return template
    }

    public static func == (lhs: ServiceProfile, rhs: ServiceProfile) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.method == rhs.method && lhs.format == rhs.format
            && lhs.contentField == rhs.contentField && lhs.fileName == rhs.fileName
            && lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
            && lhs.langField == rhs.langField && lhs.titleField == rhs.titleField
            && lhs.privateField?.name == rhs.privateField?.name && lhs.privateField?.value == rhs.privateField?.value
            && lhs.isAlwaysPrivate == rhs.isAlwaysPrivate && lhs.isDeclaredKeyBearing == rhs.isDeclaredKeyBearing
            && lhs.privateResultsCarryKey == rhs.privateResultsCarryKey
            && lhs.expiryField == rhs.expiryField
            && lhs.expiryUnit == rhs.expiryUnit && lhs.jsonTemplate == rhs.jsonTemplate
            && lhs.headers == rhs.headers && lhs.result == rhs.result && lhs.maximumBytes == rhs.maximumBytes
            && lhs.deletionSource == rhs.deletionSource && lhs.query.map(\.name) == rhs.query.map(\.name)
            && lhs.query.map(\.value) == rhs.query.map(\.value) && lhs.xmlTemplate == rhs.xmlTemplate
            && lhs.deletion == rhs.deletion && lhs.errorMessage == rhs.errorMessage && lhs.accepts == rhs.accepts
            && lhs.connection == rhs.connection && lhs.responseTimeout == rhs.responseTimeout
            && lhs.updating == rhs.updating && lhs.living == rhs.living
    }
}

extension ServiceProfile {
    /// The profile `--url URL` uses: the classic pastie API, named after the URL's host (and port)
    /// so history and messages say where the paste went.
    public static func adHoc(url: String) -> ServiceProfile {
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? Substring(url)
        var host = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // Named by where it goes, never by its credentials (`alice:PW@host`).
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        return pastie(name: host.isEmpty ? "url" : String(host), url: url)
    }

    /// The classic pastie API at `url`: the fields of the one-liner paste replaces.
    ///
    /// This is what `--url URL` uses: multipart `paste[body]`, `paste[parser]=plaintext`,
    /// `paste[authorization]=burger`, and the URL taken from the redirect.
    public static func pastie(name: String = "pastie", url: String) -> ServiceProfile {
        var profile = ServiceProfile(name: name, url: ConfigValue(url))
        profile.format = .multipart
        profile.contentField = "paste[body]"
        profile.fields = [
            ("paste[parser]", ConfigValue("plaintext")),
            ("paste[authorization]", ConfigValue("burger")),
        ]
        profile.langField = "paste[parser]"
        profile.titleField = "paste[title]"
        profile.privateField = ("paste[restricted]", "1")
        profile.result = .redirect
        profile.summary = "classic pastie API (multipart, URL from the redirect)"
        return profile
    }
}

extension Array where Element == ServiceProfile {
    /// The service of this name, or nil: the one lookup by name of a list of services (the
    /// config's, a `--retry` plan's). `Configuration.service(named:)` adds `.sxcu` files and
    /// the error for an unknown name.
    public func first(named name: String) -> ServiceProfile? {
        first { $0.name == name }
    }

    /// The service of this name, or `ConfigError.unknownService` listing the known names.
    ///
    /// - Parameters:
    ///   - path: the config file that wrote the name, when it did (the error points there).
    ///   - line: its line in that file.
    public func named(_ name: String, path: String? = nil, line: Int? = nil) throws(ConfigError) -> ServiceProfile {
        guard let profile = first(named: name) else {
            throw .unknownService(name: name, known: map(\.name), path: path, line: line)
        }
        return profile
    }
}
