import FoundationEssentials
import PasteCore

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
        /// The paste's id, for a service that keeps living pastes (`LivingUpdate.idRule`, else
        /// the URL's last segment): what its updates are sent to.
        public var id: String? = nil
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
        let readsLocation =
            switch request.result {
            case .location: true
            case .template(let template): template.usesLocation
            default: false
            }
        let acceptable =
            request.isTCP || (200...299).contains(response.status) || (readsLocation && isRedirectStatus)
            || (request.result == .redirect && response.unreadPage != nil)
        var answer = Answer(response: response)
        guard acceptable else {
            // The service's own words for what went wrong, when it says how to find them.
            let message = request.errorMessage.flatMap { answer.evaluate($0) }.map {
                Sanitizer.printable($0, limit: Sanitizer.excerptLength)
            }
            throw .httpStatus(
                service: uploaderNamed(profile), status: response.status,
                excerpt: message.flatMap { $0.isEmpty ? nil : $0 } ?? readableExcerpt(response))
        }
        if profile.format == .privatebin {
            return try extractPrivateBin(from: response, request: request, profile: profile)
        }

        let candidate: String?
        switch request.result {
        case .redirect:
            candidate = response.redirectCount > 0 ? response.effectiveURL : nil
        case .location:
            candidate = response.header("Location")
        case .body:
            candidate = firstURL(in: response.body) ?? relativePath(in: answer.text)
        case .json(let pointer):
            candidate = answer.json?.value(at: pointer)?.stringValue
        case .regex(let pattern):
            candidate = (try? TextPattern(pattern))?.capture(.firstParticipating, in: answer.text)
        case .template(let template):
            // A server that answers a JSON string (`"http://host/abc"`, the open-source dpaste
            // with `format=json`) means the string, not the quotes around it.
            candidate = answer.evaluate(template).map(decodingJSONString)
        }
        guard let found = candidate, !found.isEmpty else {
            if request.result == .redirect {
                throw .notAPaste(service: service, url: Sanitizer.printable(response.effectiveURL, limit: 200))
            }
            let tried: String? =
                switch request.result {
                case .json, .regex, .template: request.result.configText
                case .redirect, .location, .body: nil
                }
            throw .noURL(
                service: service, status: response.status, excerpt: readableExcerpt(response), tried: tried)
        }
        // A relative URL (a JSON path, a relative Location) is resolved against the URL of the
        // answer it came in (RFC 3986 section 5).
        let raw = answer.resolved(found)
        let url: String
        switch Sanitizer.validateURL(raw) {
        case .success(let valid): url = valid
        case .failure(let problem): throw .unsafeURL(service: service, problem: problem)
        }
        if !request.isTCP && isFormOrRoot(url, endpoint: request.url) {
            throw .notAPaste(service: service, url: url)
        }
        let deletionRule = request.deletion ?? profile.deletionRule
        var outcome = Outcome(url: url, deletion: deletionRule.flatMap { deletion(from: &answer, rule: $0) })
        if let updating = profile.updating {
            let found = updating.idRule.flatMap { answer.evaluate($0) }.map(decodingJSONString)
            outcome.id =
                found.flatMap { $0.isEmpty ? nil : Sanitizer.printable($0, limit: 512) }
                ?? LivingUpdate.id(fromURL: url)
        }
        return outcome
    }

    /// What an answer offers a template, each part worked out once, when first asked for.
    struct Answer {
        let response: UploadResponse
        private var decodedText: String?
        private var parsedJSON: OrderedJSON??

        init(response: UploadResponse) { self.response = response }

        /// The body as text.
        var text: String {
            mutating get {
                if let decodedText { return decodedText }
                let text = String(decoding: response.body, as: UTF8.self)
                decodedText = text
                return text
            }
        }

        /// The body as JSON, or nil when it is not JSON.
        var json: OrderedJSON? {
            mutating get {
                if let parsedJSON { return parsedJSON }
                let parsed = try? OrderedJSON(parsing: response.body)
                parsedJSON = .some(parsed)
                return parsed
            }
        }

        /// Where a relative URL in this answer points: resolved against the URL the answer
        /// came from. An absolute URL (or an answer over TCP) is left as it is.
        func resolved(_ reference: String) -> String {
            let trimmed = reference.trimmingWhitespaceAndNewlines()
            guard !URLReference.isAbsolute(trimmed) else { return reference }
            let base = response.effectiveURL.lowercased()
            guard base.hasPrefix("http://") || base.hasPrefix("https://") else { return reference }
            return URLReference.resolve(trimmed, against: response.effectiveURL)
        }

        /// The template filled from the answer; nil when a value it reads is not there (a
        /// missing JSON member, a regex that does not match, an absent header).
        mutating func evaluate(_ template: Template) -> String? {
            var result = ""
            for part in template.parts {
                switch part {
                case .literal(let text): result += text
                case .answer(let value):
                    guard let text = self.value(value) else { return nil }
                    result += text
                case .random(let choices):
                    var texts: [String] = []
                    for choice in choices {
                        guard let text = evaluate(choice) else { return nil }
                        texts.append(text)
                    }
                    var generator = SystemRandomNumberGenerator()
                    result += texts.randomElement(using: &generator) ?? ""
                case .base64(let inner):
                    guard let text = evaluate(inner) else { return nil }
                    result += Data(text.utf8).base64EncodedString()
                case .placeholder(_, let fallback):
                    // Filled before the upload (RequestBuilder); here only a bare template.
                    result += fallback.flatMap { evaluate($0) } ?? ""
                case .reference, .select, .prompt:
                    return nil
                }
            }
            return result
        }

        /// One value of the answer.
        mutating func value(_ value: AnswerValue) -> String? {
            switch value {
            case .body: return text.trimmingWhitespaceAndNewlines()
            case .url: return response.effectiveURL
            case .location: return response.header("Location").map(resolved)
            case .header(let name): return response.header(name)
            case .json(let pointer, let input):
                if let input {
                    guard let source = evaluate(input), let document = try? OrderedJSON(parsing: source) else {
                        return nil
                    }
                    return document.value(at: pointer)?.scalarText
                }
                return json?.value(at: pointer)?.scalarText
            case .xml(let path, let input):
                guard let source = input == nil ? text : evaluate(input!) else { return nil }
                return path.value(in: source)
            case .regex(let pattern, let group, let input):
                guard let source = input == nil ? text : evaluate(input!), let compiled = try? TextPattern(pattern)
                else { return nil }
                return compiled.capture(group, in: source)
            }
        }
    }

    /// The service as an HTTP error names it: a ShareX uploader's file too, when the service
    /// is not named by it (`sxcu = PATH` in a section), since an old uploader is the likeliest
    /// cause of a 4xx.
    static func uploaderNamed(_ profile: ServiceProfile) -> String {
        guard let path = profile.shareXPath, path != profile.name else { return profile.name }
        return "\(profile.name) (ShareX uploader '\(path)')"
    }

    /// The string a JSON string literal (`"http://host/abc"`, white space around it allowed)
    /// stands for; any other text as it is.
    static func decodingJSONString(_ text: String) -> String {
        let trimmed = text.trimmingWhitespaceAndNewlines()
        guard trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\""),
            case .string(let decoded)? = try? OrderedJSON(parsing: trimmed)
        else { return text }
        return decoded
    }

    /// A body that is only a relative URL (`/abc`), as a URL-less answer may be; nil for
    /// anything else (a word of an error message must never pass for a paste's address).
    static func relativePath(in text: String) -> String? {
        let trimmed = text.trimmingWhitespaceAndNewlines()
        guard trimmed.hasPrefix("/"), !trimmed.contains(where: \.isWhitespace),
            trimmed.count <= Sanitizer.maximumURLLength
        else { return nil }
        return trimmed
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
        // An array: four short strings are compared faster than they are hashed.
        var forms = [base, root]
        if let slash = base.lastIndex(of: "/"), slash > schemeEnd.upperBound {
            let parent = String(base[..<slash])
            forms.append(parent)
            forms.append(parent + "/new")
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
        (try? TextPattern(pattern))?.capture(.firstParticipating, in: text)
    }

    /// The deletion token or URL the rule finds; a relative URL (`/delete/abc`) is resolved
    /// like the paste's.
    static func deletion(from answer: inout Answer, rule: Template) -> String? {
        guard var value = answer.evaluate(rule) else { return nil }
        if value.hasPrefix("/") { value = answer.resolved(value) }
        let printable = Sanitizer.printable(value, limit: 512)
        return printable.isEmpty ? nil : printable
    }
}
