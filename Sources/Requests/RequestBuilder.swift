import PasteCore
import SystemInterop

/// Turns a service profile, the content and the person's options into an `UploadRequest`.
///
/// No network: what it needs from outside comes through `Context` (`${file:…}` secrets, a
/// `${cmd:…}` command through `Context.commandRunner`, a ShareX question through
/// `Context.asker`), and bodies that cannot stream (form, xml; json whose content is already in
/// memory) are built in memory. Content read into memory here is checked whole
/// (`ContentChecks`); content that streams carries its checks in the request, for the upload to
/// run as it goes.
public struct RequestBuilder: Sendable {
    /// The service to build for.
    public var profile: ServiceProfile {
        didSet { acceptsLanguage = Self.acceptsLanguage(profile) }
    }
    /// Whether the service has somewhere to put a language (a field or `{lang}`): decided once
    /// per service, not for each input (its templates are looked through).
    private(set) var acceptsLanguage: Bool
    /// Resolves secrets and remembers them for redaction.
    public var expansion: ValueExpansion
    /// For `--dry-run`: one entry per `build` call, in order; for a JSON or XML body, the body
    /// with the content replaced by `contentMarker`; with no body, the URL so (nil otherwise).
    public private(set) var previews: [BodyPreview?] = []

    /// A JSON or XML body (or, with no body, the URL) as it would go out, but with the content
    /// left out.
    public struct BodyPreview: Sendable, Equatable {
        /// The rendered body, with `RequestBuilder.contentMarker` where the content goes.
        public var text: String
        /// The size of the content, in bytes of UTF-8.
        public var contentBytes: Int
        /// For `format = none`: the URL, with the marker where the content goes.
        public var url: String?

        public init(text: String, contentBytes: Int, url: String? = nil) {
            self.text = text
            self.contentBytes = contentBytes
            self.url = url
        }
    }

    /// Stands for the content in a `BodyPreview` (private-use characters, which JSON escaping
    /// leaves as they are and no template contains).
    public static let contentMarker = "\u{E000}content\u{E000}"

    /// The primitives that encrypt a paste for `format = privatebin` (libcrypto and zlib, from
    /// Upload); a privatebin request cannot be built without them.
    public var cryptography: (any PasteCryptography)?

    public init(profile: ServiceProfile, context: Context, cryptography: (any PasteCryptography)? = nil) {
        self.profile = profile
        acceptsLanguage = Self.acceptsLanguage(profile)
        expansion = ValueExpansion(context: context)
        self.cryptography = cryptography
    }

    /// Checks that every option can be honoured before anything is read or sent.
    public func validate(_ options: PasteOptions, size: Int64?) throws(RequestError) {
        let name = profile.name
        if profile.format == .privatebin { return try validatePrivateBin(options, size: size) }
        if options.burnsAfterReading {
            throw .unsupportedOption(service: name, option: "burn after reading (--burn)")
        }
        if options.neverExpires {
            throw .unsupportedOption(service: name, option: "a paste that never expires (-e never)")
        }
        if options.title != nil && profile.titleField == nil && !profile.uses(.title) {
            throw .unsupportedOption(service: name, option: "a title (-t)")
        }
        if options.language != nil && !acceptsLanguage {
            throw .unsupportedOption(service: name, option: "a language (-l)")
        }
        if options.isPrivate && !profile.canBePrivate {
            throw .unsupportedOption(service: name, option: "a private paste (-p)")
        }
        if let seconds = options.expirySeconds {
            guard profile.expiryField != nil || profile.uses(.expiry) else {
                throw .unsupportedOption(service: name, option: "an expiry (-e)")
            }
            _ = try expiryValue(seconds)
        }
        if let size, let limit = profile.maximumBytes, size > limit {
            throw .tooLarge(service: name, bytes: size, limit: limit)
        }
    }

    /// Whether `profile` has somewhere to put a language (a field or `{lang}`).
    static func acceptsLanguage(_ profile: ServiceProfile) -> Bool {
        profile.langField != nil || profile.uses(.lang)
    }

    /// The service's spelling of an expiry: never longer than asked (a paste must not outlive
    /// the person's wish), so counts round down and choices take the longest that fits.
    func expiryValue(_ seconds: Int) throws(RequestError) -> String {
        switch profile.expiryUnit {
        case .count(let perUnit):
            let units = seconds / perUnit
            guard units >= 1 else {
                throw .expiryTooShort(service: profile.name, requested: seconds, shortest: "\(perUnit)s")
            }
            return String(units)
        case .choices(let choices):
            guard let best = choices.filter({ $0.seconds <= seconds }).max(by: { $0.seconds < $1.seconds }) else {
                let shortest = choices.min(by: { $0.seconds < $1.seconds })?.name ?? "none"
                throw .expiryTooShort(service: profile.name, requested: seconds, shortest: shortest)
            }
            return best.name
        }
    }

    /// Builds the request.
    ///
    /// - Parameters:
    ///   - content: where the bytes come from.
    ///   - options: title, language, private, expiry.
    ///   - fileName: the `-f` file's name (for `{filename}`, and a language from its extension
    ///     when `-l` is not given and the service has somewhere to put one).
    ///   - contentName: how refusals name the content where its path does not
    ///     (`ContentChecks.contentName`); nil: `ContentSource.name`.
    /// - Throws: a `RequestError` for an option the service cannot honour, a `ConfigError` for
    ///   a secret that cannot be resolved, an `InspectionRefusal` for content its format cannot
    ///   carry (each as a `PartError`).
    public mutating func build(
        content: ContentSource, options: PasteOptions, fileName: String? = nil, contentName: String? = nil
    ) throws(PartError) -> UploadRequest {
        try PartError.lift { () throws(RequestError) in try validate(options, size: content.knownSize) }
        var options = options
        if options.language == nil, acceptsLanguage, let fileName {
            options.language = Lexers.language(forFileName: fileName)
        }
        // Clipboard text has no name: its first bytes may say what it is (issue 43, item 3).
        // A file whose name says plain text (`notes.txt`, `build.log`) is not guessed at: its
        // first bytes are not even read for it.
        var guessed: String?
        if options.language == nil, acceptsLanguage, options.guessesLanguage,
            !(fileName.map(Lexers.isPlainText(fileName:)) ?? false),
            let sample = Self.sample(of: content), let language = LanguageGuess.language(of: sample)
        {
            options.language = language
            guessed = language
        }
        var expiry: String?
        if let seconds = options.expirySeconds {
            expiry = try PartError.lift { () throws(RequestError) in try expiryValue(seconds) }
        }
        var values: [Placeholder: String] = [.filename: fileName ?? Placeholder.defaultFileName]
        values[.title] = options.title
        values[.lang] = options.language
        values[.expiry] = expiry
        values[.private] = options.isPrivate ? "true" : nil

        // The content itself is filled in only where a body template holds it (read lazily:
        // multipart and raw bodies stream it instead).
        var preview: BodyPreview?
        if profile.format == .noBody {
            // No body: the content is in the URL (percent-encoded there).
            let text = try Self.text(of: content, checks: .text(in: .noBody, naming: contentName))
            var markerValues = values
            markerValues[.content] = Self.contentMarker
            let markedURL =
                try expansion.render(profile.url, values: markerValues, rendering: .url) + query(values: markerValues)
            preview = BodyPreview(
                text: "", contentBytes: text.utf8.count,
                url: markedURL.replacingAll(Escaping.percentEncode(Self.contentMarker), with: Self.contentMarker))
            values[.content] = text
        }
        let url = try expansion.render(profile.url, values: values, rendering: .url) + query(values: values)
        var headers: [String] = []
        for header in profile.headers {
            // A value with a line break (a file named so, a typed answer) must not start a
            // header of its own: control characters become spaces.
            let line = String(
                String.UnicodeScalarView(
                    try expansion.render(header, values: values).unicodeScalars.map {
                        $0.value < 0x20 || $0.value == 0x7F ? " " : $0
                    }))
            // A header whose value came out empty from its holes (an unset optional placeholder)
            // is not sent; one written empty (`Accept:`, which tells libcurl to leave its own
            // out) is.
            let value = line.firstIndex(of: ":").map { line[line.index(after: $0)...] } ?? ""
            if value.trimmingSpaces().isEmpty && header.template.literalText == nil { continue }
            headers.append(line)
        }
        if profile.format == .privatebin {
            var (request, preview) = try buildPrivateBin(
                url: url, headers: headers, content: content, options: options, contentName: contentName)
            previews.append(preview)
            request.guessedLanguage = guessed
            return request
        }

        // Fixed fields first, then the person's options replace a fixed field of the same name
        // (`-l ruby` replaces `paste[parser]=plaintext`). A field that is `{content}` alone is
        // where the content goes.
        var fields: [(name: String, value: String)] = []
        var contentFieldIndex: Int?
        for field in profile.fields {
            if field.value.template.isContentAlone {
                contentFieldIndex = fields.count
                fields.append((field.name, ""))
                continue
            }
            fields.append((field.name, try expansion.render(field.value, values: values)))
        }
        func set(_ name: String, _ value: String) {
            if let index = fields.firstIndex(where: { $0.name == name }) {
                fields[index].value = value
            } else {
                fields.append((name, value))
            }
        }
        if let title = options.title, let field = profile.titleField { set(field, title) }
        if let language = options.language, let field = profile.langField { set(field, language) }
        if options.isPrivate, let field = profile.privateField { set(field.name, field.value) }
        if let expiry, let field = profile.expiryField, profile.format != .json { set(field, expiry) }

        let body: RequestBody
        switch profile.format {
        case .multipart:
            let partFileName = try profile.fileName.map { (name) throws(PartError) in
                try expansion.render(ConfigValue(name), values: values)
            }
            let contentPart = FormField(
                name: contentFieldIndex.map { fields[$0].name } ?? profile.contentField,
                value: .content(
                    content, fileName: partFileName,
                    contentType: partFileName == nil ? nil : profile.contentType))
            var parts: [FormField] = []
            for (index, field) in fields.enumerated() where index != contentFieldIndex {
                parts.append(FormField(name: field.name, value: .text(field.value)))
            }
            // The content goes first, as the classic one-liner sends it, unless a field places it.
            parts.insert(contentPart, at: contentFieldIndex ?? 0)
            body = .multipart(parts)
        case .form:
            // Form bodies are built in memory: percent-encoding triples the size, and form
            // services take small pastes.
            let text = try Self.text(of: content, checks: .text(in: .form, naming: contentName))
            if let index = contentFieldIndex {
                fields[index].value = text
                body = .form(fields)
            } else {
                body = .form([(profile.contentField, text)] + fields)
            }
        case .raw, .tcp:
            body = .raw(content, contentType: profile.contentType)
        case .json, .xml:
            let isJSON = profile.format == .json
            let template =
                (isJSON ? profile.jsonTemplate : profile.xmlTemplate) ?? ConfigValue(Self.defaultJSONTemplate)
            let rendering: Rendering = isJSON ? .json : .xml
            let contentType =
                isJSON
                ? "application/json"
                : profile.contentType == "text/plain; charset=utf-8" ? "application/xml" : profile.contentType
            var markerValues = values
            markerValues[.content] = Self.contentMarker
            let marked = try expansion.render(template, values: markerValues, rendering: rendering)
            let holes = marked.ranges(of: Self.contentMarker)
            if isJSON, content.isReadAsSent, holes.count == 1 {
                // A file or a pipe: the content is escaped as it streams, between the rendered
                // halves, so a body of any size takes flat memory.
                body = .embedded(
                    prefix: Array(marked[..<holes[0].lowerBound].utf8), content: content, escaping: .jsonString,
                    suffix: Array(marked[holes[0].upperBound...].utf8), contentType: contentType)
                preview = BodyPreview(text: marked, contentBytes: Int(content.knownSize ?? 0))
            } else {
                if case .stream = content {
                    throw PartError(
                        RequestError.unsupportedOption(
                            service: profile.name,
                            option: "streamed text in a \(profile.format.rawValue) template holding {content} "
                                + "\(holes.count) times"))
                }
                let text = try Self.text(of: content, checks: .text(in: profile.format, naming: contentName))
                values[.content] = text
                let rendered = try expansion.render(template, values: values, rendering: rendering)
                body = .rendered(Array(rendered.utf8), contentType: contentType)
                preview = BodyPreview(text: marked, contentBytes: text.utf8.count)
            }
        case .noBody:
            body = .rendered([], contentType: "")
        case .privatebin:
            preconditionFailure("privatebin requests are built by buildPrivateBin, above")
        }
        previews.append(preview)

        // What the answer is read with: every hole that can be filled now is (the person is
        // asked before the upload, not after).
        var result = profile.result
        if case .template(let template) = result {
            result = .template(try expansion.resolveBeforeAnswer(template, origin: nil, values: values))
        }
        var request = UploadRequest(
            url: url, method: profile.method, headers: headers, body: body, result: result,
            deletion: try profile.deletionRule.map { (rule) throws(PartError) in
                try expansion.resolveBeforeAnswer(rule, origin: nil, values: values)
            },
            errorMessage: try profile.errorMessage.map { (message) throws(PartError) in
                try expansion.resolveBeforeAnswer(message, origin: nil, values: values)
            })
        request.contentChecks = .text(in: profile.format, naming: contentName)
        request.responseTimeout = profile.responseTimeout
        request.guessedLanguage = guessed
        return request
    }

    /// The first bytes of a content, for the language guess (`LanguageGuess.window` of them):
    /// in memory, a stream's start already read, or a file's first chunk.
    static func sample(of content: ContentSource) -> [UInt8]? {
        switch content {
        case .bytes(let bytes): return Array(bytes.prefix(LanguageGuess.window + 1))
        case .stream(_, let prefix, _, _): return prefix.isEmpty ? nil : Array(prefix.prefix(LanguageGuess.window + 1))
        case .file(let path, _):
            var sample: [UInt8] = []
            try? FileSystem.forEachChunk(ofFile: path, chunkSize: LanguageGuess.window + 1) { chunk in
                sample += chunk.prefix(LanguageGuess.window + 1 - sample.count)
                if sample.count > LanguageGuess.window { throw SampleTaken() }
            }
            return sample.isEmpty ? nil : sample
        }
    }

    /// Ends a file's read once the sample is taken.
    private struct SampleTaken: Error {}

    /// The template of `format = json` when the service sets none.
    static let defaultJSONTemplate = #"{"content": "{content}"}"#

    /// `?name=value&…` for the profile's query parameters (each value filled, then
    /// percent-encoded whole), or "" when there are none. Joined with `&` when the URL already
    /// has a query.
    private mutating func query(values: [Placeholder: String]) throws(PartError) -> String {
        guard !profile.query.isEmpty else { return "" }
        var pairs: [String] = []
        for item in profile.query {
            let value = try expansion.render(item.value, values: values)
            // A parameter without a value is sent as its name alone, as ShareX does.
            pairs.append(value.isEmpty ? item.name : item.name + "=" + Escaping.percentEncode(value))
        }
        let separator = profile.url.raw.contains("?") ? "&" : "?"
        return separator + pairs.joined(separator: "&")
    }

    /// The content as text, read into memory when it is a file (formats that cannot stream),
    /// after `checks`: never rewritten (bytes that are not UTF-8 are refused, not replaced).
    ///
    /// - Throws: `InspectionRefusal` (binary, not UTF-8, at its byte offset), or
    ///   `RequestError.unreadable`.
    static func text(of content: ContentSource, checks: ContentChecks) throws(PartError) -> String {
        try String(decoding: bytes(of: content, checks: checks), as: UTF8.self)
    }

    /// The content's bytes in memory (read whole when it is a file), after `checks`.
    static func bytes(of content: ContentSource, checks: ContentChecks) throws(PartError) -> [UInt8] {
        let bytes: [UInt8]
        switch content {
        case .bytes(let inMemory): bytes = inMemory
        case .file(let path, _):
            do {
                bytes = try FileSystem.readFile(path).bytes
            } catch {
                throw PartError(RequestError.unreadable(path: path, reason: error.message))
            }
        case .stream:
            preconditionFailure("streams are spooled before a body that cannot stream is built")
        }
        try PartError.lift { () throws(InspectionRefusal) in
            try ContentInspection.check(bytes, checks, source: checks.name(of: content))
        }
        return bytes
    }
}

extension ServiceProfile {
    /// Whether content from a pipe can be sent as it streams: multipart, raw and tcp bodies, and
    /// a JSON template holding `{content}` once (escaped as it streams); otherwise it is read
    /// into memory before the body is built.
    public var streamsContent: Bool {
        if format.canStream { return true }
        guard format == .json else { return false }
        // Once, and at the top (not inside a fallback, a choice or a base64 of something).
        let template = jsonTemplate?.template ?? ConfigValue(RequestBuilder.defaultJSONTemplate).template
        func isContent(_ part: Template.Part) -> Bool {
            if case .placeholder(.content, _) = part { true } else { false }
        }
        return template.parts.filter(isContent).count == 1 && template.allParts.filter(isContent).count == 1
    }
}
