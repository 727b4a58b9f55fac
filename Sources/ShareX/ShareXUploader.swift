import PasteCore
import SystemInterop

/// A ShareX custom uploader (`.sxcu`), read into a `ServiceProfile` that paste runs like any
/// configured service.
///
/// The keys and their meaning follow ShareX's `CustomUploaderItem` and `CustomTextUploader`
/// (ShareX.UploadersLib): how a text upload is sent for each `Body` kind, the query string of
/// `RequestURL` moved into `Parameters`, `https://` put in front of a URL without a scheme,
/// `URL` empty meaning "the answer is the URL". Keys are matched without regard to case, as
/// Json.NET does. What the definition uses is checked when it is loaded: an unknown function,
/// a regex that does not compile or a JSONPath outside the supported subset is an error then,
/// never at upload time.
public enum ShareXUploader {
    /// The scheme `text` starts with (`javascript` of `javascript:alert(1)`), nil when it has
    /// none: a host and port (`example.com:8080/…`) is no scheme.
    static func otherScheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon]
        guard let first = name.first, first.isASCII, first.isLetter,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        let after = text[text.index(after: colon)...]
        if let digit = after.first, digit.isASCII, digit.isNumber { return nil }
        return String(name)
    }

    /// The oldest `Version` read: ShareX refuses anything up to 12.3.1 itself.
    static let oldestVersion = [12, 3, 1]
    /// The last version written in the legacy `$…$` syntax (ShareX migrates those on load).
    static let lastLegacyVersion = [13, 7, 1]

    /// Reads the definition at `path` into a profile.
    ///
    /// - Parameters:
    ///   - path: the file, `~/` for `home`.
    ///   - name: the service's name (`-S PATH.sxcu` uses the path itself); nil for the
    ///     definition's `Name` (or its host).
    ///   - checksPermissions: refuse a file that others can read when it holds a literal
    ///     credential (a header such as `Authorization`, a field such as `key`), as a config
    ///     file would be refused; `--import-sxcu` only prints it.
    public static func load(path: String, name: String? = nil, home: String? = nil, checksPermissions: Bool = true)
        throws(ShareXError) -> ServiceProfile
    {
        var file = path
        if file.hasPrefix("~/"), let home { file = home + file.dropFirst() }
        let contents: FileSystem.Contents
        do {
            contents = try FileSystem.readFile(file, limit: Configuration.maximumFileBytes)
        } catch {
            throw .unreadable(file: path, reason: FileSystem.reason(readingFile: error))
        }
        let text = String(decoding: contents.bytes, as: UTF8.self)
        let mode = contents.status.mode
        // Windows editors save these with a byte order mark.
        let json: OrderedJSON
        do {
            json = try OrderedJSON(parsing: text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        } catch {
            throw .notJSON(file: path, problem: error)
        }
        var profile = try makeProfile(json, file: path)
        if let name { profile.name = name }
        if checksPermissions && mode & 0o077 != 0 {
            let credential =
                profile.headers.first { Redaction.isSensitiveHeader($0.raw) }.map {
                    "header '\($0.raw.prefix { $0 != ":" })'"
                }
                ?? (profile.fields + profile.query).first { Redaction.isSensitiveField($0.name) }.map { "'\($0.name)'" }
            if let credential {
                throw .readableByOthers(file: path, credential: credential, mode: mode)
            }
        }
        return profile
    }

    /// The profile a parsed definition amounts to (`package`: the ShareX fuzzer calls it).
    package static func makeProfile(_ json: OrderedJSON, file: String) throws(ShareXError) -> ServiceProfile {
        guard case .object = json else { throw .notAnObject(file: file) }
        func string(_ key: String) throws(ShareXError) -> String? {
            guard let value = json.member(caseInsensitive: key) else { return nil }
            switch value {
            case .null: return nil
            case .string(let text): return text
            default: throw .badValue(file: file, key: key, value: "\(value)", expected: "a string")
            }
        }
        func dictionary(_ key: String) throws(ShareXError) -> [(name: String, value: String)] {
            guard let value = json.member(caseInsensitive: key) else { return [] }
            switch value {
            case .null: return []
            case .object(let members):
                var pairs: [(name: String, value: String)] = []
                for member in members {
                    switch member.value {
                    case .string(let text): pairs.append((member.name, text))
                    case .null: pairs.append((member.name, ""))
                    case .number(let text): pairs.append((member.name, text))
                    case .bool(let flag): pairs.append((member.name, flag ? "true" : "false"))
                    default:
                        throw .badValue(
                            file: file, key: "\(key).\(member.name)", value: "\(member.value)", expected: "a string")
                    }
                }
                return pairs
            default:
                throw .badValue(file: file, key: key, value: "\(value)", expected: "an object of names and strings")
            }
        }

        // Version: ShareX refuses definitions up to 12.3.1, and reads those up to 13.7.1 in
        // the legacy syntax.
        let version = try string("Version")
        guard let version, let numbers = versionNumbers(version), compare(numbers, oldestVersion) > 0 else {
            throw .unsupportedVersion(file: file, version: try string("Version"))
        }
        let isLegacy = compare(numbers, lastLegacyVersion) <= 0
        var regexList: [String] = []
        if isLegacy, let list = json.member(caseInsensitive: "RegexList") {
            guard case .array(let items) = list else {
                throw .badValue(file: file, key: "RegexList", value: "\(list)", expected: "an array of strings")
            }
            for item in items {
                guard let pattern = item.stringValue else {
                    throw .badValue(file: file, key: "RegexList", value: "\(item)", expected: "an array of strings")
                }
                regexList.append(pattern)
            }
        }
        func setting(_ key: String, _ side: ShareXSyntax.Side) -> ShareXSyntax.Setting {
            ShareXSyntax.Setting(file: file, key: key, side: side, isLegacy: isLegacy, regexList: regexList)
        }
        let origin = (path: file, line: 1)

        // Where the request goes.
        guard var requestURL = try string("RequestURL"), !requestURL.isEmpty else {
            throw .badValue(file: file, key: "RequestURL", value: "", expected: "the URL to upload to")
        }
        var parameters = try dictionary("Parameters")
        // ShareX moves the query string of RequestURL into Parameters (CheckRequestURL); a
        // parameter given in both keeps the Parameters value.
        if let question = requestURL.firstIndex(of: "?") {
            for pair in requestURL[requestURL.index(after: question)...].split(separator: "&") {
                let pieces = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = formDecoded(String(pieces[0]))
                let value = pieces.count > 1 ? formDecoded(String(pieces[1])) : ""
                if !parameters.contains(where: { $0.name == key }) { parameters.append((key, value)) }
            }
            requestURL = String(requestURL[..<question])
        }
        var url = try ShareXSyntax.parse(requestURL, setting("RequestURL", .request))
        // ShareX puts https:// in front of a URL without a scheme (URLHelpers.FixPrefix). A URL
        // with another scheme (`javascript:`, `data:`, `file:`) is refused here: putting
        // https:// before it would invent a host (`https://javascript:…`, host `file`).
        if case .literal(let start)? = url.parts.first, !start.lowercased().hasPrefix("http://"),
            !start.lowercased().hasPrefix("https://")
        {
            if let scheme = Self.otherScheme(of: start) {
                throw .badValue(
                    file: file, key: "RequestURL", value: scheme + ":…", expected: "an http:// or https:// URL")
            }
            url.parts[0] = .literal("https://" + start)
        }

        // RequestType is the name older definitions use.
        let requestMethod = try string("RequestMethod")
        let requestType = try string("RequestType")
        let method = (requestMethod ?? requestType ?? "POST").uppercased()
        guard ["GET", "POST", "PUT", "PATCH", "DELETE"].contains(method) else {
            throw .badValue(
                file: file, key: "RequestMethod", value: method, expected: "GET, POST, PUT, PATCH or DELETE")
        }

        var profile = ServiceProfile(name: "", url: ConfigValue(template: url, origin: origin))
        profile.method = method
        profile.shareXPath = file
        profile.accepts = try destinations(json, file: file)
        for (name, value) in parameters {
            profile.query.append(
                (
                    name,
                    ConfigValue(
                        template: try ShareXSyntax.parse(value, setting("Parameters.\(name)", .request)), origin: origin
                    )
                ))
        }
        for (name, value) in try dictionary("Headers") {
            let template = try ShareXSyntax.parse(value, setting("Headers.\(name)", .request))
            if template.uses(.content) {
                throw .cannotSendText(
                    file: file, reason: "Headers.\(name) holds {input}; a header cannot carry the text")
            }
            profile.headers.append(
                ConfigValue(template: Template([.literal(name + ": ")] + template.parts), origin: origin))
        }

        // The body, as CustomTextUploader sends text for each kind.
        let body = try bodyKind(json, file: file)
        let urlCarriesText = url.uses(.content) || profile.query.contains { $0.value.template.uses(.content) }
        if urlCarriesText && body != "none" {
            throw .cannotSendText(file: file, reason: "{input} is in the URL although the body is \(body)")
        }
        var arguments: [(name: String, template: Template)] = []
        for (name, value) in try dictionary("Arguments") {
            arguments.append((name, try ShareXSyntax.parse(value, setting("Arguments.\(name)", .request))))
        }
        let fileFormName = try string("FileFormName") ?? ""
        switch body {
        case "none":
            profile.format = .noBody
            guard urlCarriesText else {
                throw .cannotSendText(file: file, reason: "its body is None and no URL part or Parameter holds {input}")
            }
        case "multipartformdata", "formurlencoded":
            profile.format = body == "formurlencoded" ? .form : .multipart
            let carriers = arguments.filter { $0.template.uses(.content) }
            if let mixed = carriers.first(where: { !$0.template.isContentAlone }) {
                throw .cannotSendText(file: file, reason: "Arguments.\(mixed.name) mixes {input} with other text")
            }
            if body == "multipartformdata" && !fileFormName.isEmpty {
                // The text goes as a file part named FileFormName, after the arguments.
                if let carrier = carriers.first {
                    throw .cannotSendText(
                        file: file, reason: "Arguments.\(carrier.name) holds {input} as well as FileFormName")
                }
                arguments.append((fileFormName, Template([.placeholder(.content, fallback: nil)])))
                profile.fileName = "{filename}"
            } else {
                guard carriers.count == 1 else {
                    throw .cannotSendText(
                        file: file,
                        reason: carriers.isEmpty
                            ? "no Argument holds {input}"
                                + (body == "multipartformdata" ? " and FileFormName is empty" : "")
                            : "several Arguments hold {input}")
                }
            }
            profile.contentField = arguments.first { $0.template.isContentAlone }?.name ?? "content"
            profile.fields = arguments.map { ($0.name, ConfigValue(template: $0.template, origin: origin)) }
        case "json", "xml":
            let data = try string("Data") ?? ""
            let template = try ShareXSyntax.parseData(data, setting("Data", .request))
            guard template.uses(.content) else {
                throw .cannotSendText(file: file, reason: "its Data has no {input}")
            }
            if body == "json" {
                profile.format = .json
                profile.jsonTemplate = ConfigValue(template: template, origin: origin)
            } else {
                profile.format = .xml
                profile.xmlTemplate = ConfigValue(template: template, origin: origin)
                profile.contentType = "application/xml"
            }
        default:  // binary: the text is the body
            profile.format = .raw
        }

        // A body that cannot carry a file (JSON, XML, a form, none) sends text only, whatever
        // DestinationType says.
        if !profile.format.canCarryFiles {
            profile.accepts = profile.accepts.takesText ? .text : []
        }

        // Reading the answer.
        let resultText = try string("URL") ?? ""
        let result =
            resultText.isEmpty
            ? Template([.answer(.body)]) : try ShareXSyntax.parse(resultText, setting("URL", .answer))
        profile.result = .template(result)
        if let deletionText = try string("DeletionURL"), !deletionText.isEmpty {
            profile.deletion = try ShareXSyntax.parse(deletionText, setting("DeletionURL", .answer))
        }
        if let errorText = try string("ErrorMessage"), !errorText.isEmpty {
            profile.errorMessage = try ShareXSyntax.parse(errorText, setting("ErrorMessage", .answer))
        }
        for (key, template) in [
            ("URL", result), ("DeletionURL", profile.deletion), ("ErrorMessage", profile.errorMessage),
        ] {
            guard let template else { continue }
            // The person is asked before the upload (no window waits on a finished upload), so
            // what is asked cannot depend on the answer.
            for part in template.allParts {
                let asksAboutAnswer: Bool
                switch part {
                case .select(let choices): asksAboutAnswer = choices.contains(where: \.readsAnswer)
                case .prompt(let title, let initial): asksAboutAnswer = title.readsAnswer || initial.readsAnswer
                default: asksAboutAnswer = false
                }
                if asksAboutAnswer {
                    throw .badSyntax(
                        file: file, key: key,
                        reason: "a {select:…} or {prompt:…} over values of the answer is not supported")
                }
            }
        }
        // What a config section must be, a definition must be too: a JSON Data body that is
        // not JSON once filled would only be refused by the server.
        do {
            try Configuration.checkTemplates(profile, line: 1, path: file)
        } catch .templateNotJSON(_, _, let problem) {
            throw .badSyntax(file: file, key: "Data", reason: "not valid JSON once filled (template \(problem))")
        } catch {
            throw .badSyntax(file: file, key: "Body", reason: error.message)
        }
        let name = (try string("Name")).flatMap { $0.isEmpty ? nil : $0 } ?? hostName(requestURL)
        profile.name = name
        profile.summary = "ShareX uploader '\(name)' (\(file))"
        return profile
    }

    /// The `Body` kind, lowercased: none, multipartformdata, formurlencoded, json, xml, binary.
    private static func bodyKind(_ json: OrderedJSON, file: String) throws(ShareXError) -> String {
        let kinds = ["none", "multipartformdata", "formurlencoded", "json", "xml", "binary"]
        guard let value = json.member(caseInsensitive: "Body") else { return "none" }
        switch value {
        case .string(let text) where kinds.contains(text.lowercased()): return text.lowercased()
        case .number(let text) where Int(text).map(kinds.indices.contains) == true: return kinds[Int(text)!]
        default:
            throw .badValue(
                file: file, key: "Body", value: value.scalarText ?? "\(value)",
                expected: "None, MultipartFormData, FormURLEncoded, JSON, XML or Binary")
        }
    }

    /// What `DestinationType` says the uploader takes ("ImageUploader, TextUploader" or the
    /// flags as a number). With no DestinationType, a `FileFormName` says it sends files (the
    /// corpus's "0x0.st (Image uploader)" has one and no DestinationType): text, images and
    /// other files; else text. (A body that cannot carry a file narrows it to text later.)
    private static func destinations(_ json: OrderedJSON, file: String) throws(ShareXError) -> ContentKinds {
        guard let value = json.member(caseInsensitive: "DestinationType"), value != .null else {
            if case .string(let name)? = json.member(caseInsensitive: "FileFormName"), !name.isEmpty {
                return [.text, .images, .files]
            }
            return .text
        }
        let flags: [(String, Int, ContentKinds)] = [
            ("none", 0, []), ("imageuploader", 1, .images), ("textuploader", 2, .text), ("fileuploader", 4, .files),
            ("urlshortener", 8, []), ("urlsharingservice", 16, []),
        ]
        var kinds: ContentKinds = []
        switch value {
        case .number(let text):
            guard let number = Int(text), number >= 0, number < 32 else {
                throw .badValue(file: file, key: "DestinationType", value: text, expected: "flags from 0 to 31")
            }
            for flag in flags where number & flag.1 != 0 { kinds.formUnion(flag.2) }
            if number == 0 { return .text }
        case .string(let text):
            for name in text.split(separator: ",") {
                let wanted = name.trimmingSpaces().lowercased()
                guard let flag = flags.first(where: { $0.0 == wanted }) else {
                    throw .badValue(
                        file: file, key: "DestinationType", value: text,
                        expected: "ImageUploader, TextUploader, FileUploader, URLShortener or URLSharingService")
                }
                kinds.formUnion(flag.2)
            }
            if text.trimmingSpaces().lowercased() == "none" { return .text }
        default:
            throw .badValue(file: file, key: "DestinationType", value: "\(value)", expected: "a string of flags")
        }
        return kinds
    }

    /// `12.4.1` as numbers; nil when it is not dotted numbers.
    static func versionNumbers(_ text: String) -> [Int]? {
        let pieces = text.trimmingSpaces().split(separator: ".")
        guard !pieces.isEmpty else { return nil }
        var numbers: [Int] = []
        for piece in pieces {
            guard let number = Int(piece), number >= 0 else { return nil }
            numbers.append(number)
        }
        return numbers
    }

    /// Compares versions component by component, missing components as 0.
    static func compare(_ a: [Int], _ b: [Int]) -> Int {
        for index in 0..<max(a.count, b.count) {
            let left = index < a.count ? a[index] : 0
            let right = index < b.count ? b[index] : 0
            if left != right { return left < right ? -1 : 1 }
        }
        return 0
    }

    /// `+` as space and `%XX` decoded (a query string as .NET's `ParseQueryString` reads it).
    static func formDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The host of a URL, for a definition without a `Name`.
    static func hostName(_ url: String) -> String {
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? Substring(url)
        let host = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != ":" }
        return host.isEmpty ? "sharex" : String(host)
    }
}
