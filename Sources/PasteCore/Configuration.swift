import FoundationEssentials
import SystemInterop

/// When windows are shown instead of (or as well as) stderr lines.
public enum NotifyMode: String, Sendable, CaseIterable {
    /// Windows when the input is the clipboard, stderr is no terminal and a display is there.
    case auto
    /// Always show windows (when a display is there).
    case always
    /// Never show windows.
    case never
}

/// The `[paste]` section: settings that are not about one service.
public struct Settings: Sendable, Equatable {
    /// The service used when no flag or `PASTE_SERVICE` names one.
    public var service: String?
    /// The line of the config file that set `service` (for an unknown-service error).
    public var serviceLine: Int?
    /// When windows are shown.
    public var notify: NotifyMode = .auto
    /// Seconds to wait for a TCP connection.
    public var connectTimeout: Double = 10
    /// Seconds the whole upload may take (`nil`: no limit beyond the stall timeout).
    public var timeout: Double?
    /// Seconds a transfer may stall before it is abandoned.
    public var stallTimeout: Double = 30
    /// Seconds the answer may take once the text is sent (`response-timeout`): a server that
    /// trickles its answer just above the stall limit cannot keep a run alive for ever.
    public var responseTimeout: Double = Settings.defaultResponseTimeout
    /// The default `response-timeout`, in seconds.
    public static let defaultResponseTimeout = 60.0
    /// How many times a request that never reached the server is tried again.
    public var retries: Int = 3
    /// How many failed attempts an outbox entry may have before `paste --retry` holds it.
    public var retryMaximumAttempts: Int = OutboxPolicy.defaultMaximumAttempts
    /// The longest Retry-After paste honours, in seconds.
    public var maximumRetryAfter: Double = 30
    /// Seconds during which the same content to the same service reuses the earlier URL.
    public var repeatWindow: Double = 300
    /// Seconds to wait for a clipboard owner to answer.
    public var clipboardTimeout: Double = 2
    /// The most bytes read from a selection, text or image (`max-clipboard`): an owner that
    /// keeps sending is stopped there.
    public var maximumClipboardBytes: Int = Settings.defaultMaximumClipboardBytes
    /// The default `max-clipboard`: far more than anyone copies, little enough that an owner
    /// sending without end is stopped before memory runs short.
    public static let defaultMaximumClipboardBytes = 1 << 30
    /// Seconds a notification stays on screen.
    public var notifyTimeout: Double = 4
    /// Whether the URL is copied to the clipboard.
    public var copy = true
    /// Whether the file says `copy = true` itself: then a run with no display says that the URL
    /// was not copied (without it, a pipeline or cron job is not told so each time).
    public var isCopyExplicit = false
    /// Where an image goes (`image-service`): none by default, so no image reaches a public
    /// host unless the person named one. Checked at load: a service that takes images.
    public var imageService: String?
    /// The line of the config file that set `imageService`.
    public var imageServiceLine: Int?
    /// Trust and proxy keys for every service (`ca-file`, `ca-path`, `proxy`, `no-proxy`).
    public var connection = ConnectionSettings()

    public init() {}

    /// The largest `retry-max-attempts`: with backoff capped at six hours, months of tries.
    public static let retryMaximumAttemptsLimit = 1000
}

/// The whole configuration in force: settings and every known service.
public struct Configuration: Sendable {
    /// The `[paste]` settings.
    public var settings = Settings()
    /// Built-in and configured services; a configured one replaces a built-in of the same name.
    public var services: [ServiceProfile] = BuiltInServices.all
    /// The file it came from, if one was read.
    public var path: String?

    /// The built-ins alone.
    public init() {}

    /// The largest config or secret file read: far beyond any real one, small enough that a
    /// wrong path (a log, a device) fails at once instead of filling memory.
    static let maximumFileBytes = 16 << 20

    /// Reads the config file, if any, and merges it over the built-ins.
    ///
    /// - Parameters:
    ///   - explicitPath: `--config FILE`; a missing explicit file is an error, a missing default
    ///     file is not.
    ///   - context: where `$PASTE_CONFIG` and the XDG folders come from.
    /// - Throws: `ConfigError` naming file and line.
    public static func load(explicitPath: String?, context: Context) throws(ConfigError) -> Configuration {
        let path = explicitPath ?? context.defaultConfigPath
        let mustExist = explicitPath != nil || context.nonEmpty("PASTE_CONFIG") != nil
        let contents: FileSystem.Contents
        do {
            contents = try FileSystem.readFile(path, limit: Configuration.maximumFileBytes)
        } catch {
            if error == .noSuchFileOrDirectory && !mustExist { return Configuration() }
            throw .unreadable(path: path, reason: error.message)
        }
        let text = String(decoding: contents.bytes, as: UTF8.self)
        let mode = contents.status.mode
        let file = try ConfigFile(parsing: text, path: path)
        var configuration = try Configuration(file: file, home: context.home)
        configuration.path = path
        try configuration.checkLiteralSecrets(fileMode: mode, path: path)
        return configuration
    }

    /// Builds the configuration from a parsed file, validating every key.
    ///
    /// - Parameter home: what `~/` stands for in `sxcu = ~/…`.
    public init(file: ConfigFile, home: String? = nil) throws(ConfigError) {
        path = file.path
        for section in file.sections where section.name != "paste" && section.name != "service" {
            throw .unknownSection(path: file.path, line: section.line, name: section.name)
        }
        for section in file.sections where section.name == "paste" && section.subsection != nil {
            throw .syntax(path: file.path, line: section.line, expected: "[paste] without a subsection")
        }
        for section in file.sections where section.name == "service" && section.subsection == nil {
            throw .syntax(path: file.path, line: section.line, expected: "[service \"NAME\"]")
        }
        for entry in file.entries where entry.section == "paste" {
            try settings.apply(entry, path: file.path)
        }
        // A service may be declared in several sections; its entries apply in file order.
        var order: [String] = []
        var firstLine: [String: Int] = [:]
        for section in file.sections where section.name == "service" {
            let name = section.subsection!
            if firstLine[name] == nil {
                firstLine[name] = section.line
                order.append(name)
            }
        }
        var configured: [String: ServiceProfile] = [:]
        for name in order {
            let line = firstLine[name]!
            let entries = file.entries.filter { $0.section == "service" && $0.subsection == name }
            var profile = try Self.startingProfile(
                for: name, entries: entries, configured: configured, path: file.path, home: home)
            profile.name = name
            profile.isBuiltIn = false
            profile.origin = (file.path, line)
            let place = "configured in \(file.path):\(line)"
            if let base = entries.last(where: { $0.key == "base" }), configured[base.value] != nil {
                profile.summary = "like \(base.value); \(place)"
            } else {
                profile.summary = profile.summary.isEmpty ? place : "\(profile.summary); \(place)"
            }
            for entry in entries where entry.key != "base" && entry.key != "sxcu" {
                try profile.apply(entry, path: file.path)
            }
            try Self.checkComplete(profile, line: line, path: file.path)
            if let accepts = entries.last(where: { $0.key == "accepts" }) {
                try Self.checkAccepts(profile, entry: accepts, path: file.path)
            }
            configured[name] = profile
            if let index = services.firstIndex(where: { $0.name == name }) {
                services[index] = profile
            } else {
                services.append(profile)
            }
        }
        try checkImageService(path: file.path)
    }

    /// Refuses `accepts` with files or images on a service whose body cannot carry a file
    /// byte-exact (only multipart parts and raw bodies can).
    static func checkAccepts(_ profile: ServiceProfile, entry: ConfigFile.Entry, path: String) throws(ConfigError) {
        guard !profile.accepts.isDisjoint(with: [.images, .files]), !profile.format.canCarryFiles else { return }
        throw .badValue(
            path: path, line: entry.line, key: entry.key, value: entry.value,
            expected: "text for format = \(profile.format.rawValue) (files go as multipart or raw)")
    }

    /// Checks `image-service` once every service is known: it must exist and take images.
    func checkImageService(path: String) throws(ConfigError) {
        guard let name = settings.imageService else { return }
        let line = settings.imageServiceLine ?? 0
        guard let profile = services.first(where: { $0.name == name }) else {
            throw .unknownService(name: name, known: services.map(\.name), path: path, line: line)
        }
        guard profile.accepts.takes(.image) else {
            throw .badValue(
                path: path, line: line, key: "image-service", value: name,
                expected: "a service that accepts images or files ('\(name)' accepts \(profile.accepts.configText))")
        }
    }

    /// The `image-service` profile, when one is set (checked at load).
    public var imageServiceProfile: ServiceProfile? {
        settings.imageService.flatMap { name in services.first { $0.name == name } }
    }

    /// What a configured service starts from before its own keys apply: the service named by
    /// `base`, else the built-in of the same name (so `[service "dpaste"] url = …` points the
    /// built-in at a self-hosted instance and keeps everything else), else nothing.
    static func startingProfile(
        for name: String, entries: [ConfigFile.Entry], configured: [String: ServiceProfile], path: String,
        home: String? = nil
    ) throws(ConfigError) -> ServiceProfile {
        if let sxcu = entries.last(where: { $0.key == "sxcu" }) {
            // A ShareX definition, used as it is; the section's other keys apply on top.
            if let base = entries.first(where: { $0.key == "base" }) {
                throw .badValue(
                    path: path, line: base.line, key: "base", value: base.value,
                    expected: "no 'base' in a section with 'sxcu' (the definition is where it starts)")
            }
            guard !sxcu.value.isEmpty else {
                throw .badValue(
                    path: path, line: sxcu.line, key: "sxcu", value: "", expected: "the path of a .sxcu file")
            }
            // A relative path is relative to the config file's folder.
            var file = sxcu.value
            if !file.hasPrefix("/") && !file.hasPrefix("~/"), let slash = path.lastIndex(of: "/") {
                file = path[...slash] + file
            }
            do {
                return try ShareXUploader.load(path: file, name: name, home: home)
            } catch {
                throw .shareX(error, path: path, line: sxcu.line)
            }
        }
        if let base = entries.last(where: { $0.key == "base" }) {
            guard base.value != name,
                let profile = configured[base.value] ?? BuiltInServices.named(base.value)
            else {
                throw .badValue(
                    path: path, line: base.line, key: "base", value: base.value,
                    expected: "a built-in service or one configured above this one")
            }
            return profile
        }
        if let builtIn = BuiltInServices.named(name) { return builtIn }
        return ServiceProfile(name: name, url: ConfigValue(""))
    }

    /// Refuses a service that cannot be used: no URL, a JSON format without a template, a URL
    /// whose scheme does not match the format.
    static func checkComplete(_ profile: ServiceProfile, line: Int, path: String) throws(ConfigError) {
        let name = profile.name
        if profile.url.template.parts.isEmpty {
            throw .incompleteService(path: path, line: line, service: name, missing: "url")
        }
        if profile.format == .json && profile.jsonTemplate == nil {
            throw .incompleteService(path: path, line: line, service: name, missing: "json")
        }
        if profile.format == .xml && profile.xmlTemplate == nil {
            throw .incompleteService(path: path, line: line, service: name, missing: "xml")
        }
        try checkTemplates(profile, line: line, path: path)
        var urlStart = ""
        if case .literal(let text)? = profile.url.template.parts.first { urlStart = text.lowercased() }
        let startsWithReference = if case .reference? = profile.url.template.parts.first { true } else { false }
        if !startsWithReference, (profile.format == .tcp) != urlStart.hasPrefix("tcp://") {
            throw .badValue(
                path: path, line: profile.url.origin?.line ?? line, key: "url", value: profile.url.raw,
                expected: profile.format == .tcp ? "a tcp://host:port URL for format = tcp" : "an http(s) URL")
        }
    }

    /// Where the content goes and what a body template holds: a body template must send the
    /// content, a `json` template must be JSON once filled, and the content may be in the URL
    /// only when there is no body.
    static func checkTemplates(_ profile: ServiceProfile, line: Int, path: String) throws(ConfigError) {
        func where_(_ value: ConfigValue?) -> (String, Int) {
            (value?.origin?.path ?? path, value?.origin?.line ?? line)
        }
        let urlParts = [profile.url] + profile.query.map(\.value)
        if profile.format != .noBody, let carrier = urlParts.first(where: { $0.template.uses(.content) }) {
            let (file, at) = where_(carrier)
            throw .badTemplate(
                path: file, line: at, key: carrier == profile.url ? "url" : "query",
                problem: .notAllowed("{content}", place: "in the URL unless format = none"))
        }
        switch profile.format {
        case .noBody:
            if !urlParts.contains(where: { $0.template.uses(.content) }) {
                let (file, at) = where_(profile.url)
                throw .templateWithoutContent(path: file, line: at, key: "url")
            }
        case .json, .xml:
            let key = profile.format == .json ? "json" : "xml"
            guard let body = profile.format == .json ? profile.jsonTemplate : profile.xmlTemplate else { return }
            let (file, at) = where_(body)
            guard body.template.uses(.content) else { throw .templateWithoutContent(path: file, line: at, key: key) }
            guard profile.format == .json else { return }
            // Filled as a paste without options and as one with every option.
            let expiry: String =
                switch profile.expiryUnit {
                case .count: "1"
                case .choices(let choices): choices.first?.name ?? "1"
                }
            let samples: [[Placeholder: String]] = [
                [.content: "x", .filename: Placeholder.defaultFileName],
                [.content: "x", .filename: "x.txt", .title: "t", .lang: "l", .expiry: expiry, .private: "true"],
            ]
            for sample in samples {
                do {
                    _ = try OrderedJSON(parsing: body.template.sample(values: sample, rendering: .json))
                } catch {
                    throw .templateNotJSON(path: file, line: at, problem: error)
                }
            }
        default: break
        }
    }

    /// The service by name, or `ConfigError.unknownService`.
    ///
    /// A name ending in `.sxcu` that no section has is the path of a ShareX custom uploader,
    /// read now (`-S ~/uploader.sxcu`).
    public func service(named name: String) throws(ConfigError) -> ServiceProfile {
        if let profile = services.first(where: { $0.name == name }) { return profile }
        if name.lowercased().hasSuffix(".sxcu") {
            do {
                return try ShareXUploader.load(path: name, name: name)
            } catch {
                throw .shareX(error)
            }
        }
        throw .unknownService(name: name, known: services.map(\.name))
    }

    /// Chooses the service: `-S` > `PASTE_SERVICE` > `[paste] service` > the built-in default.
    ///
    /// An unknown name from the config file is reported at its line.
    public func resolveService(flag: String?, context: Context) throws(ConfigError) -> ServiceProfile {
        if let name = flag ?? context.nonEmpty("PASTE_SERVICE") { return try service(named: name) }
        guard let name = settings.service else { return try service(named: BuiltInServices.defaultName) }
        guard let profile = services.first(where: { $0.name == name }) else {
            throw .unknownService(name: name, known: services.map(\.name), path: path, line: settings.serviceLine)
        }
        return profile
    }

    /// Refuses a file that holds a literal secret while others can read it.
    ///
    /// A literal secret is a credential header (`Authorization`, `X-Api-Key`, …) or a field
    /// whose name says it holds one (`token`, `api_key`, `password`, …), written in the file
    /// rather than taken from `${env:…}` or `${file:…}`. The first one, in file order, is named.
    func checkLiteralSecrets(fileMode: UInt32, path: String) throws(ConfigError) {
        guard fileMode & 0o077 != 0 else { return }
        var found: [(line: Int, key: String)] = []
        // Values from a ShareX file are that file's business (ShareXUploader checks it).
        func isHere(_ value: ConfigValue) -> Bool { value.origin?.path == path && !value.hasReference }
        for profile in services where !profile.isBuiltIn {
            for header in profile.headers where Redaction.isSensitiveHeader(header.raw) && isHere(header) {
                found.append((header.origin?.line ?? 0, "header"))
            }
            for field in profile.fields where Redaction.isSensitiveField(field.name) && isHere(field.value) {
                found.append((field.value.origin?.line ?? 0, "field"))
            }
            for item in profile.query where Redaction.isSensitiveField(item.name) && isHere(item.value) {
                found.append((item.value.origin?.line ?? 0, "query"))
            }
            if let proxy = profile.connection.proxy, !proxy.hasReference, Proxy.hasPassword(proxy.raw) {
                found.append((proxy.origin?.line ?? 0, "proxy"))
            }
        }
        if let proxy = settings.connection.proxy, !proxy.hasReference, Proxy.hasPassword(proxy.raw) {
            found.append((proxy.origin?.line ?? 0, "proxy"))
        }
        if let first = found.min(by: { $0.line < $1.line }) {
            throw .secretReadableByOthers(path: path, line: first.line, key: first.key, mode: fileMode)
        }
    }
}

// MARK: - Applying entries

extension Settings {
    mutating func apply(_ entry: ConfigFile.Entry, path: String) throws(ConfigError) {
        func bad(_ expected: String) -> ConfigError {
            .badValue(path: path, line: entry.line, key: entry.key, value: entry.value, expected: expected)
        }
        func seconds(_ range: SettingRange.Seconds) throws(ConfigError) -> Double {
            guard let value = range.parse(entry.value) else { throw bad("\(range) (such as 10, 2.5s, 1m)") }
            return value
        }
        switch entry.key {
        case "service":
            guard !entry.value.isEmpty else { throw bad("a service name") }
            service = entry.value
            serviceLine = entry.line
        case "notify":
            guard let mode = NotifyMode(rawValue: entry.value.lowercased()) else { throw bad("auto, always or never") }
            notify = mode
        case "timeout": timeout = try seconds(SettingRange.timeout)
        case "connect-timeout": connectTimeout = try seconds(SettingRange.connectTimeout)
        case "stall-timeout": stallTimeout = try seconds(SettingRange.stallTimeout)
        case "response-timeout": responseTimeout = try seconds(SettingRange.responseTimeout)
        case "clipboard-timeout": clipboardTimeout = try seconds(SettingRange.clipboardTimeout)
        case "max-clipboard":
            guard let bytes = SettingRange.maximumClipboard.parse(entry.value) else {
                throw bad("\(SettingRange.maximumClipboard) (such as 1G, 256M)")
            }
            maximumClipboardBytes = Int(bytes)
        case "notify-timeout": notifyTimeout = try seconds(SettingRange.notifyTimeout)
        case "max-retry-after": maximumRetryAfter = try seconds(SettingRange.maximumRetryAfter)
        case "repeat-window":
            guard let value = SettingRange.repeatWindow.parse(entry.value) else {
                throw bad("\(SettingRange.repeatWindow) (such as 5m), or 0")
            }
            repeatWindow = value
        case "retries":
            guard let value = SettingRange.retries.parse(entry.value) else { throw bad("\(SettingRange.retries)") }
            retries = value
        case "retry-max-attempts":
            guard let value = Int(entry.value), (1...Settings.retryMaximumAttemptsLimit).contains(value) else {
                throw bad("a whole number from 1 to \(Settings.retryMaximumAttemptsLimit)")
            }
            retryMaximumAttempts = value
        case "copy":
            guard let value = Bool(configText: entry.value) else { throw bad("true or false") }
            copy = value
            isCopyExplicit = value
        case "image-service":
            guard !entry.value.isEmpty else { throw bad("a service name") }
            imageService = entry.value
            imageServiceLine = entry.line
        case "ca-file", "ca-path", "proxy", "no-proxy": try connection.apply(entry, path: path)
        default:
            throw .unknownKey(path: path, line: entry.line, section: "paste", key: entry.key)
        }
    }
}

extension ServiceProfile {
    mutating func apply(_ entry: ConfigFile.Entry, path: String) throws(ConfigError) {
        let origin = (path: path, line: entry.line)
        func bad(_ expected: String) -> ConfigError {
            .badValue(path: path, line: entry.line, key: entry.key, value: entry.value, expected: expected)
        }
        func pair() throws(ConfigError) -> (String, String) {
            guard let equals = entry.value.firstIndex(of: "="), equals != entry.value.startIndex else {
                throw bad("NAME=VALUE")
            }
            return (String(entry.value[..<equals]), String(entry.value[entry.value.index(after: equals)...]))
        }
        /// `text` parsed as a template, a config error at this line when it cannot be.
        func template(_ text: String, use: Template.Use = .request, allowsContent: Bool = false)
            throws(ConfigError) -> ConfigValue
        {
            var value: ConfigValue
            do {
                value = try ConfigValue(parsing: text, use: use, origin: origin)
            } catch {
                throw .badTemplate(path: path, line: entry.line, key: entry.key, problem: error)
            }
            value.key = entry.key
            if !allowsContent && value.template.uses(.content) {
                throw .badTemplate(
                    path: path, line: entry.line, key: entry.key,
                    problem: .notAllowed(
                        "{content}", place: "in '\(entry.key)' (only in a body template, or alone as a field)"))
            }
            return value
        }
        switch entry.key {
        case "base", "sxcu":
            // Choose where the profile starts; Configuration.init(file:) applies them first.
            break
        case "url":
            let lower = entry.value.lowercased()
            guard
                lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("tcp://")
                    || entry.value.hasPrefix("${")
            else { throw bad("an http://, https:// or tcp:// URL") }
            url = try template(entry.value, allowsContent: true)
        case "format":
            guard let format = RequestFormat(rawValue: entry.value.lowercased()) else {
                throw bad("multipart, form, raw, json, xml, none, tcp or privatebin")
            }
            self.format = format
        case "method":
            let upper = entry.value.uppercased()
            guard ["POST", "PUT", "PATCH", "GET", "DELETE"].contains(upper) else {
                throw bad("POST, PUT, PATCH, GET or DELETE")
            }
            method = upper
        case "content-field": contentField = entry.value
        case "file-name":
            fileName = try template(entry.value).raw
        case "content-type": contentType = entry.value
        case "field":
            let (name, fieldValue) = try pair()
            let value = try template(fieldValue, allowsContent: true)
            if value.template.uses(.content) && !value.template.isContentAlone {
                throw .badTemplate(
                    path: path, line: entry.line, key: entry.key,
                    problem: .notAllowed(
                        "{content}", place: "with other text in a field (the field carries the content alone)"))
            }
            fields.append((name, value))
        case "query":
            let (name, queryValue) = try pair()
            query.append((name, try template(queryValue, allowsContent: true)))
        case "lang-field": langField = entry.value
        case "title-field": titleField = entry.value
        case "private-field":
            privateField = try entry.value.contains("=") ? pair() : (entry.value, "1")
        case "always-private":
            guard let flag = Bool(configText: entry.value) else { throw bad("true or false") }
            isAlwaysPrivate = flag
        case "expiry-field": expiryField = entry.value
        case "expiry-unit":
            guard let unit = ExpiryUnit(configText: entry.value) else {
                throw bad("seconds, minutes, hours, days, or choices NAME=DURATION,…")
            }
            expiryUnit = unit
        case "json": jsonTemplate = try template(entry.value, allowsContent: true)
        case "xml": xmlTemplate = try template(entry.value, allowsContent: true)
        case "header":
            guard let colon = entry.value.firstIndex(of: ":"), colon != entry.value.startIndex,
                !entry.value[..<colon].contains(" ")
            else { throw bad("'Name: value'") }
            headers.append(try template(entry.value))
        case "result":
            if let rule = ResultRule(configText: entry.value) {
                if case .regex(let pattern) = rule {
                    do {
                        _ = try TextPattern(pattern)
                    } catch {
                        throw bad("a valid regular expression after 'regex:' (\(error))")
                    }
                }
                result = rule
                break
            }
            let value = try template(entry.value, use: .result)
            guard value.template.readsAnswer || value.template.uses(.filename) else {
                throw bad(
                    "redirect, location, body, json:/pointer, regex:RE or a template such as https://host/{json:/key}")
            }
            result = .template(value.template)
        case "deletion":
            guard let rule = Self.deletionTemplate(entry.value) else {
                _ = try template(entry.value, use: .result)
                throw bad("header:NAME, json:/pointer or a template such as {json:/delete_url}")
            }
            deletion = rule
            deletionSource = entry.value
        case "error-message":
            let value = try template(entry.value, use: .result)
            guard value.template.readsAnswer else { throw bad("a template such as {json:/error}") }
            errorMessage = value.template
        case "accepts":
            guard let kinds = ContentKinds(configText: entry.value) else {
                throw bad("text, images or files, separated by commas")
            }
            accepts = kinds
        case "max-size":
            guard let bytes = SettingRange.maximumSize.parse(entry.value) else {
                throw bad("\(SettingRange.maximumSize) (such as 512K, 10M)")
            }
            maximumBytes = bytes
        case "response-timeout":
            guard let seconds = SettingRange.responseTimeout.parse(entry.value) else {
                throw bad("\(SettingRange.responseTimeout) (such as 10, 2.5s, 1m)")
            }
            responseTimeout = seconds
        case "summary": summary = entry.value
        case "ca-file", "ca-path", "pinned-pubkey", "insecure": try connection.apply(entry, path: path)
        case "client-cert", "client-key", "proxy", "no-proxy": try connection.apply(entry, path: path)
        default:
            throw .unknownKey(path: path, line: entry.line, section: "service \"\(name)\"", key: entry.key)
        }
    }
}

extension ResultRule {
    /// Parses the `result` key's value.
    public init?(configText text: String) {
        switch text {
        case "redirect": self = .redirect
        case "location": self = .location
        case "body": self = .body
        default:
            if text.hasPrefix("json:/") || text == "json:" {
                self = .json(pointer: String(text.dropFirst(5)))
            } else if text.hasPrefix("regex:"), text.count > 6 {
                self = .regex(String(text.dropFirst(6)))
            } else {
                return nil
            }
        }
    }

    /// The config spelling of the rule (a template without one shows as `<template>`).
    public var configText: String {
        switch self {
        case .redirect: "redirect"
        case .location: "location"
        case .body: "body"
        case .json(let pointer): "json:" + pointer
        case .regex(let pattern): "regex:" + pattern
        case .template(let template): (try? template.configText()) ?? "<template>"
        }
    }
}

extension ContentKinds {
    /// Parses `text`, `images`, `files`, or several separated by commas.
    init?(configText text: String) {
        let names: [String: ContentKinds] = ["text": .text, "images": .images, "files": .files]
        var kinds: ContentKinds = []
        for word in text.split(separator: ",") {
            guard let kind = names[word.trimmingSpaces().lowercased()] else { return nil }
            kinds.insert(kind)
        }
        guard !kinds.isEmpty else { return nil }
        self = kinds
    }
}

extension ExpiryUnit {
    /// Parses `seconds`, `minutes`, `hours`, `days`, `weeks`, or `choices 1hour=1h,1day=1d`.
    init?(configText text: String) {
        switch text.lowercased() {
        case "seconds": self = .count(secondsPerUnit: 1)
        case "minutes": self = .count(secondsPerUnit: 60)
        case "hours": self = .count(secondsPerUnit: 3_600)
        case "days": self = .count(secondsPerUnit: 86_400)
        case "weeks": self = .count(secondsPerUnit: 604_800)
        default:
            guard text.hasPrefix("choices ") else { return nil }
            var choices: [(String, Int)] = []
            for item in text.dropFirst(8).split(separator: ",") {
                let parts = item.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let seconds = SettingRange.expiry.parse(parts[1].trimmingSpaces()) else {
                    return nil
                }
                choices.append((parts[0].trimmingSpaces(), Int(seconds)))
            }
            guard !choices.isEmpty else { return nil }
            self = .choices(choices)
        }
    }
}

extension Bool {
    /// git-config booleans: true/yes/on/1 and false/no/off/0.
    init?(configText text: String) {
        switch text.lowercased() {
        case "true", "yes", "on", "1": self = true
        case "false", "no", "off", "0": self = false
        default: return nil
        }
    }
}

/// Parses byte counts such as `512`, `64K`, `10M`, `1G` (binary multiples).
public enum ByteCount {
    public static func parse(_ text: String) -> Int64? {
        guard let last = text.last else { return nil }
        let multipliers: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        if let multiplier = multipliers[Character(last.uppercased())] {
            guard let number = Int64(text.dropLast()), number >= 0 else { return nil }
            let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
            return overflow ? nil : product
        }
        guard let number = Int64(text), number >= 0 else { return nil }
        return number
    }
}

extension Duration {
    /// Parses `30`, `2.5s`, `10m`, `1h`, `7d`, `2w` into seconds: finite and not negative (a
    /// product past `Double`'s range is refused, not infinite). Ranges are `SettingRange`'s.
    public static func parseSeconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        guard let last = text.last else { return nil }
        if let unit = units[last] {
            guard let number = Double(text.dropLast()), number.isFinite, number >= 0, (number * unit).isFinite else {
                return nil
            }
            return number * unit
        }
        guard let number = Double(text), number.isFinite, number >= 0 else { return nil }
        return number
    }
}
