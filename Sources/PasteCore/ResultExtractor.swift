import FoundationEssentials

/// Reads the paste's URL out of a server's answer, by the service's result rule.
///
/// A wrong URL must never look like success: HTTP errors, partial answers, answers without a URL
/// and "URLs" that are just the endpoint or the site's root all fail, and every URL is validated
/// by `Sanitizer` before anyone sees it.
public enum ResultExtractor {
    /// The outcome of a successful paste.
    public struct Outcome: Sendable, Equatable {
        /// The paste's URL, validated.
        public var url: String
        /// A deletion token or deletion URL, when the service gives one.
        public var deletion: String?
    }

    /// Extracts the URL.
    ///
    /// - Parameters:
    ///   - response: what came back.
    ///   - request: what was sent (its URL is the endpoint a real paste must differ from).
    ///   - profile: the service (its name for messages, its deletion source).
    public static func extract(
        from response: UploadResponse, request: UploadRequest, profile: ServiceProfile
    ) throws(ServiceError) -> Outcome {
        let service = profile.name
        if response.status == 206 { throw .partial(service: service) }
        let isRedirectStatus = (300...399).contains(response.status)
        let acceptable =
            request.isTCP || (200...299).contains(response.status)
            || (request.result == .location && isRedirectStatus)
            || (request.result == .redirect && response.unreadPage != nil)
        guard acceptable else {
            throw .httpStatus(service: service, status: response.status, excerpt: readableExcerpt(response))
        }
        if profile.format == .privatebin {
            return try extractPrivateBin(from: response, request: request, profile: profile)
        }

        let candidate: String?
        switch request.result {
        case .redirect:
            candidate = response.redirectCount > 0 ? response.effectiveURL : nil
        case .location:
            candidate = response.header("Location").map { resolve($0, against: response.effectiveURL) }
        case .body:
            candidate = firstURL(in: response.body)
        case .json(let pointer):
            candidate = parseJSON(response.body)?.value(at: pointer)?.stringValue
        case .regex(let pattern):
            candidate = firstCapture(pattern, in: String(decoding: response.body, as: UTF8.self))
        }
        guard let raw = candidate, !raw.isEmpty else {
            if request.result == .redirect {
                throw .notAPaste(service: service, url: Sanitizer.printable(response.effectiveURL, limit: 200))
            }
            throw .noURL(service: service, status: response.status, excerpt: readableExcerpt(response))
        }
        let url: String
        switch Sanitizer.validateURL(raw) {
        case .success(let valid): url = valid
        case .failure(let problem): throw .unsafeURL(service: service, problem: problem)
        }
        if !request.isTCP && isFormOrRoot(url, endpoint: request.url) {
            throw .notAPaste(service: service, url: url)
        }
        return Outcome(url: url, deletion: deletion(from: response, source: profile.deletionSource))
    }

    /// The start of the body for an error message, sanitized; an HTML page (an error page, a
    /// login form) is reduced to its text so the message says what the page says.
    static func readableExcerpt(_ response: UploadResponse) -> String {
        let head = Array(response.body.prefix(Sanitizer.excerptLength * 64))
        let isHTML =
            response.header("Content-Type")?.lowercased().contains("html") == true
            || head.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "<")
        guard isHTML else { return Sanitizer.excerpt(response.body) }
        var text = ""
        var inTag = false
        for scalar in String(decoding: head, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "<": inTag = true
            case ">" where inTag:
                inTag = false
                text += " "
            default: if !inTag { text.unicodeScalars.append(scalar) }
            }
        }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingAll(entity, with: character)
        }
        return Sanitizer.printable(text, limit: Sanitizer.excerptLength)
    }

    /// Whether `url` is the endpoint itself, the site's root, or the endpoint's form page.
    static func isFormOrRoot(_ url: String, endpoint: String) -> Bool {
        func normal(_ text: String) -> String {
            var value = Substring(text.lowercased())
            if let cut = value.firstIndex(where: { $0 == "?" || $0 == "#" }) { value = value[..<cut] }
            while value.hasSuffix("/") { value.removeLast() }
            return String(value)
        }
        let target = normal(url)
        let base = normal(endpoint)
        guard let schemeEnd = base.firstRange(of: "://") else { return target == base }
        let afterScheme = base[schemeEnd.upperBound...]
        let root = String(base[..<(afterScheme.firstIndex(of: "/") ?? base.endIndex)])
        var forms: Set<String> = [base, root]
        if let slash = base.lastIndex(of: "/"), slash > schemeEnd.upperBound {
            let parent = String(base[..<slash])
            forms.insert(parent)
            forms.insert(parent + "/new")
        }
        return forms.contains(target)
    }

    /// The first `http://` or `https://` URL in a body, up to white space or a quote.
    static func firstURL(in body: [UInt8]) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        let starts = [text.firstRange(of: "https://"), text.firstRange(of: "http://")].compactMap { $0 }
        guard let start = starts.min(by: { $0.lowerBound < $1.lowerBound }) else { return nil }
        let stops: Set<Character> = [" ", "\t", "\n", "\r", "\"", "'", "<", ">", "`"]
        let end = text[start.lowerBound...].firstIndex(where: { stops.contains($0) }) ?? text.endIndex
        // The candidate is the whole token the "http" sits in: `javascript:alert(1)//http://x/`
        // is a javascript: URL (refused by Sanitizer), not an http one.
        // `=` also starts one, for an unquoted HTML attribute (`href=http://…`).
        let tokenStart =
            text[..<start.lowerBound].lastIndex(where: { stops.contains($0) || $0 == "=" })
            .map { text.index(after: $0) } ?? text.startIndex
        return String(text[tokenStart..<end])
    }

    /// The first capture group of `pattern` in `text` that took part in the match (so
    /// alternatives such as `(a)|(b)` work), or the whole match when there is no group.
    static func firstCapture(_ pattern: String, in text: String) -> String? {
        guard let regex = try? Regex(pattern), let match = try? regex.firstMatch(in: text) else { return nil }
        let output = match.output
        guard output.count > 1 else { return output[0].substring.map(String.init) }
        return (1..<output.count).lazy.compactMap { output[$0].substring }.first.map(String.init)
    }

    /// Decodes a JSON body, or nil.
    static func parseJSON(_ body: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(body))
    }

    /// `Location` may be relative (RFC 9110 §10.2.2): resolve it against the request URL.
    static func resolve(_ location: String, against base: String) -> String {
        let lower = location.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.contains(":") && !location.hasPrefix("/")
        {
            return location
        }
        guard let schemeEnd = base.firstRange(of: "://") else { return location }
        let hostEnd = base[schemeEnd.upperBound...].firstIndex(of: "/") ?? base.endIndex
        if location.hasPrefix("//") { return String(base[..<schemeEnd.lowerBound]) + ":" + location }
        if location.hasPrefix("/") { return String(base[..<hostEnd]) + location }
        let directory = base[..<(base.lastIndex(of: "/").map { $0 > hostEnd ? $0 : hostEnd } ?? base.endIndex)]
        return directory + "/" + location
    }

    /// The deletion token or URL named by the profile's `deletion` source.
    static func deletion(from response: UploadResponse, source: String?) -> String? {
        guard let source else { return nil }
        let value: String?
        if source.hasPrefix("header:") {
            value = response.header(String(source.dropFirst(7)))
        } else if source.hasPrefix("json:") {
            value = parseJSON(response.body)?.value(at: String(source.dropFirst(5)))?.stringValue
        } else {
            value = nil
        }
        return value.map { Sanitizer.printable($0, limit: 512) }.flatMap { $0.isEmpty ? nil : $0 }
    }
}
