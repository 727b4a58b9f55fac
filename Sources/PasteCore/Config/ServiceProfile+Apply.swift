import FoundationEssentials
import SystemInterop

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
        case "fallback": fallback = entry.value
        case "fallback-public": publicFallbacks.append(entry.value)
        default:
            throw .unknownKey(path: path, line: entry.line, section: "service \"\(name)\"", key: entry.key)
        }
    }
}
