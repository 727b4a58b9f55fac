import SystemInterop

/// Turns a service profile, the content and the person's options into an `UploadRequest`.
///
/// Pure: no network, no files except `${file:…}` secrets and in-memory bodies for formats that
/// cannot stream (form, json).
public struct RequestBuilder: Sendable {
    /// The service to build for.
    public var profile: ServiceProfile
    /// Resolves secrets and remembers them for redaction.
    public var expansion: ValueExpansion
    /// For `--dry-run`: one entry per `build` call, in order; for a JSON body, the body with the
    /// content replaced by `contentMarker` (nil for other formats).
    public private(set) var previews: [BodyPreview?] = []

    /// A JSON body as it would go out, but with the content left out.
    public struct BodyPreview: Sendable, Equatable {
        /// The rendered body, with `RequestBuilder.contentMarker` where the content goes.
        public var text: String
        /// The size of the content, in bytes of UTF-8.
        public var contentBytes: Int
    }

    /// Stands for the content in a `BodyPreview` (private-use characters, which JSON escaping
    /// leaves as they are and no template contains).
    public static let contentMarker = "\u{E000}content\u{E000}"

    /// The primitives that encrypt a paste for `format = privatebin` (libcrypto and zlib, from
    /// Upload); a privatebin request cannot be built without them.
    public var cryptography: (any PasteCryptography)?

    public init(profile: ServiceProfile, context: Context, cryptography: (any PasteCryptography)? = nil) {
        self.profile = profile
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
        let template = profile.jsonTemplate?.raw ?? ""
        if options.title != nil && profile.titleField == nil && !template.contains("{title") {
            throw .unsupportedOption(service: name, option: "a title (-t)")
        }
        if options.language != nil && profile.langField == nil && !template.contains("{lang") {
            throw .unsupportedOption(service: name, option: "a language (-l)")
        }
        if options.isPrivate && !profile.canBePrivate {
            throw .unsupportedOption(service: name, option: "a private paste (-p)")
        }
        if let seconds = options.expirySeconds {
            guard profile.expiryField != nil || template.contains("{expiry") else {
                throw .unsupportedOption(service: name, option: "an expiry (-e)")
            }
            _ = try expiryValue(seconds)
        }
        if let size, let limit = profile.maximumBytes, size > limit {
            throw .tooLarge(service: name, bytes: size, limit: limit)
        }
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
    ///   - text: the content as text when it is already in memory (needed for form and json).
    /// - Throws: `RequestError` for an option the service cannot honour, `ConfigError` for a
    ///   secret that cannot be resolved.
    public mutating func build(content: ContentSource, options: PasteOptions) throws -> UploadRequest {
        try validate(options, size: content.knownSize)
        let url = try expansion.expand(profile.url)
        var headers: [String] = []
        for header in profile.headers { headers.append(try expansion.expand(header)) }
        if profile.format == .privatebin {
            let (request, preview) = try buildPrivateBin(url: url, headers: headers, content: content, options: options)
            previews.append(preview)
            return request
        }

        // Fixed fields first, then the person's options replace a fixed field of the same name
        // (`-l ruby` replaces `paste[parser]=plaintext`).
        var fields: [(name: String, value: String)] = []
        for field in profile.fields { fields.append((field.name, try expansion.expand(field.value))) }
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
        var expiry: String?
        if let seconds = options.expirySeconds {
            expiry = try expiryValue(seconds)
            if let field = profile.expiryField, profile.format != .json { set(field, expiry!) }
        }

        let body: RequestBody
        switch profile.format {
        case .multipart:
            var parts = fields.map { FormField(name: $0.name, value: .text($0.value)) }
            let contentPart = FormField(
                name: profile.contentField,
                value: .content(
                    content, fileName: profile.fileName,
                    contentType: profile.fileName == nil ? nil : profile.contentType))
            // The content goes first, as the classic one-liner sends it.
            parts.insert(contentPart, at: 0)
            body = .multipart(parts)
        case .form:
            let text = try Self.text(of: content)
            body = .form([(profile.contentField, text)] + fields)
        case .raw, .tcp:
            body = .raw(content, contentType: profile.contentType)
        case .json:
            let text = try Self.text(of: content)
            let template = try expansion.expand(profile.jsonTemplate ?? ConfigValue("{\"content\": \"{content}\"}"))
            let values: [String: String?] = [
                "content": text, "title": options.title, "lang": options.language,
                "expiry": expiry, "private": options.isPrivate ? "true" : nil,
            ]
            body = .rendered(Array(Self.fill(template, values).utf8), contentType: "application/json")
            var previewValues = values
            previewValues["content"] = Self.contentMarker
            previews.append(BodyPreview(text: Self.fill(template, previewValues), contentBytes: text.utf8.count))
        case .privatebin:
            preconditionFailure("privatebin requests are built by buildPrivateBin, above")
        }
        if profile.format != .json { previews.append(nil) }
        return UploadRequest(url: url, method: profile.method, headers: headers, body: body, result: profile.result)
    }

    /// Fills `{name}` and `{name:default}` placeholders with JSON-escaped values. A placeholder
    /// with no value and no default becomes empty; unknown names are left as written.
    public static func fill(_ template: String, _ values: [String: String?]) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let inside = rest[rest.index(after: open)..<close]
            let parts = inside.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            if let value = values[name] {
                let fallback = parts.count == 2 ? String(parts[1]) : ""
                result += JSONText.escape(value ?? fallback)
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[rest.index(after: open)...]
            }
        }
        return result + rest
    }

    /// The content as text, read into memory when it is a file (formats that cannot stream).
    static func text(of content: ContentSource) throws(RequestError) -> String {
        switch content {
        case .bytes(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .file(let path, _):
            do {
                return String(decoding: try FileSystem.readFile(path).bytes, as: UTF8.self)
            } catch {
                throw .unreadable(path: path, reason: error.message)
            }
        case .stream:
            preconditionFailure("streams are spooled before a form or json body is built")
        }
    }
}

extension ContentSource {
    /// The size when known before sending.
    public var knownSize: Int64? {
        switch self {
        case .bytes(let bytes): Int64(bytes.count)
        case .file(_, let size): size
        case .stream: nil
        }
    }
}

extension RequestFormat {
    /// Whether a body of this format can be streamed from a descriptor.
    public var canStream: Bool { self == .multipart || self == .raw || self == .tcp }

    /// Whether a body of this format can carry a file byte-exact, with its type: a multipart
    /// file part, or a raw body.
    public var canCarryFiles: Bool { self == .multipart || self == .raw }
}
