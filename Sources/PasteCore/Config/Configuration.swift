import FoundationEssentials
import SystemInterop

/// The whole configuration in force: settings and every known service.
public struct Configuration: Sendable {
    /// The `[paste]` settings.
    public var settings = Settings()
    /// Built-in and configured services; a configured one replaces a built-in of the same name.
    public var services: [ServiceProfile] = BuiltInServices.all
    /// The file it came from, if one was read.
    public var path: String?
    /// Reads a ShareX custom uploader for `sxcu = PATH` and `-S PATH.sxcu`: ShareX's
    /// `ShareXUploader.load`, passed in by PasteCLI (PasteCore does not import ShareX).
    public var shareXLoader: ShareXLoader?

    /// The built-ins alone.
    public init() {}

    /// The largest config or secret file read: far beyond any real one, small enough that a
    /// wrong path (a log, a device) fails at once instead of filling memory.
    package static let maximumFileBytes = 16 << 20

    /// Reads the config file, if any, and merges it over the built-ins.
    ///
    /// - Parameters:
    ///   - explicitPath: `--config FILE`; a missing explicit file is an error, a missing default
    ///     file is not.
    ///   - context: where `$PASTE_CONFIG` and the XDG folders come from.
    /// - Throws: `ConfigError` naming file and line.
    ///   - shareX: reads a ShareX custom uploader (`shareXLoader`).
    public static func load(
        explicitPath: String?, context: Context, shareX: ShareXLoader? = nil
    ) throws(ConfigError) -> Configuration {
        let path = explicitPath ?? context.defaultConfigPath
        let mustExist = explicitPath != nil || context.nonEmpty("PASTE_CONFIG") != nil
        let contents: FileSystem.Contents
        do {
            contents = try FileSystem.readFile(path, limit: Configuration.maximumFileBytes)
        } catch {
            if error == .noSuchFileOrDirectory && !mustExist {
                var builtIns = Configuration()
                builtIns.shareXLoader = shareX
                return builtIns
            }
            throw .unreadable(path: path, reason: FileSystem.reason(readingFile: error))
        }
        let text = String(decoding: contents.bytes, as: UTF8.self)
        let mode = contents.status.mode
        let file = try ConfigFile(parsing: text, path: path)
        var configuration = try Configuration(file: file, home: context.home, shareX: shareX)
        configuration.path = path
        try configuration.checkLiteralSecrets(fileMode: mode, path: path)
        return configuration
    }

    /// Builds the configuration from a parsed file, validating every key.
    ///
    /// - Parameters:
    ///   - home: what `~/` stands for in `sxcu = ~/…`.
    ///   - shareX: reads a ShareX custom uploader (`shareXLoader`).
    public init(file: ConfigFile, home: String? = nil, shareX: ShareXLoader? = nil) throws(ConfigError) {
        path = file.path
        shareXLoader = shareX
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
                for: name, entries: entries, configured: configured, path: file.path, home: home, shareX: shareX)
            profile.name = name
            profile.isBuiltIn = false
            profile.origin = (file.path, line)
            let place = "configured in \(file.path):\(line)"
            let builtIn = Self.builtInStart(for: name, entries: entries, configured: configured)
            if builtIn != nil {
                // The built-in's own chain (dpaste's bpa.st) is not carried into a section: a
                // dpaste moved to another host must never hand a text to an outside one. The
                // section's own `fallback` sets one.
                profile.fallback = nil
            }
            if let base = entries.last(where: { $0.key == "base" }), configured[base.value] != nil {
                profile.summary = "like \(base.value); \(place)"
            } else {
                profile.summary = profile.summary.isEmpty ? place : "\(profile.summary); \(place)"
            }
            for entry in entries where entry.key != "base" && entry.key != "sxcu" {
                try profile.apply(entry, path: file.path)
            }
            // A built-in moved to another host is described by where it goes, not by what its
            // name usually means ("dpaste.internal (dpaste's API)", never "dpaste.com (public…)").
            if let builtIn, profile.url.raw != builtIn.url.raw, !entries.contains(where: { $0.key == "summary" }) {
                profile.summary = "\(ConnectionPolicy.host(of: profile.url.raw)) (\(builtIn.name)'s API); \(place)"
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
        let profile = try services.named(name, path: path, line: line)
        guard profile.accepts.takes(.image) else {
            throw .badValue(
                path: path, line: line, key: "image-service", value: name,
                expected: "a service that accepts images or files ('\(name)' accepts \(profile.accepts.configText))")
        }
    }

    /// The `image-service` profile, when one is set (checked at load).
    public var imageServiceProfile: ServiceProfile? {
        settings.imageService.flatMap { services.first(named: $0) }
    }

    /// What a configured service starts from before its own keys apply: the service named by
    /// `base`, else the built-in of the same name (so `[service "dpaste"] url = …` points the
    /// built-in at a self-hosted instance and keeps everything else), else nothing.
    static func startingProfile(
        for name: String, entries: [ConfigFile.Entry], configured: [String: ServiceProfile], path: String,
        home: String? = nil, shareX: ShareXLoader? = nil
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
                return try Self.shareX(shareX)(file, name, home)
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

    /// The built-in a section starts from (`base = BUILTIN`, or a section named like one and
    /// not read from a ShareX file), or nil.
    static func builtInStart(
        for name: String, entries: [ConfigFile.Entry], configured: [String: ServiceProfile]
    ) -> ServiceProfile? {
        if entries.contains(where: { $0.key == "sxcu" }) { return nil }
        if let base = entries.last(where: { $0.key == "base" }) {
            return configured[base.value] == nil ? BuiltInServices.named(base.value) : nil
        }
        return BuiltInServices.named(name)
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
    package static func checkTemplates(_ profile: ServiceProfile, line: Int, path: String) throws(ConfigError) {
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
        if let profile = services.first(named: name) { return profile }
        if name.lowercased().hasSuffix(".sxcu") {
            do {
                return try Self.shareX(shareXLoader)(name, name, nil)
            } catch {
                throw .shareX(error)
            }
        }
        throw .unknownService(name: name, known: services.map(\.name))
    }

    /// The ShareX loader, which a configuration that meets a `.sxcu` definition must have been given.
    static func shareX(_ loader: ShareXLoader?) -> ShareXLoader {
        guard let loader else {
            preconditionFailure("a ShareX definition needs Configuration's shareXLoader (ShareXUploader.load)")
        }
        return loader
    }

    /// Chooses the service: `-S` > `PASTE_SERVICE` > `[paste] service` > the built-in default.
    ///
    /// An unknown name from the config file is reported at its line.
    public func resolveService(flag: String?, context: Context) throws(ConfigError) -> ServiceProfile {
        if let name = flag ?? context.nonEmpty("PASTE_SERVICE") { return try service(named: name) }
        guard let name = settings.service else { return try service(named: BuiltInServices.defaultName) }
        return try services.named(name, path: path, line: settings.serviceLine)
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
