/// A profile written back as a `[service "NAME"]` section (`paste --import-sxcu`).
///
/// Every key the profile needs is written, starting from nothing (no `base`), so the section
/// read back gives the same requests and reads the answer the same way. What a section cannot
/// say (a `{prompt:…}`, a regex group other than the first) is an error naming it.
extension ServiceProfile {
    /// The section's text, ending with a newline.
    ///
    /// - Throws: `Inexpressible` naming the first feature the config syntax cannot express.
    public func configSection() throws(Inexpressible) -> String {
        var lines = ["[service \(Self.quoted(name, always: true))]"]
        func add(_ key: String, _ value: String) throws(Inexpressible) {
            lines.append("    \(key) = " + (try Self.configValue(value)))
        }
        func text(_ value: ConfigValue) throws(Inexpressible) -> String { try value.template.configText() }

        try add("url", try text(url))
        if method != "POST" { try add("method", method) }
        try add("format", format.rawValue)
        let contentInField = fields.contains { $0.value.template.isContentAlone }
        if (format == .multipart || format == .form) && !contentInField { try add("content-field", contentField) }
        if format == .multipart, let fileName {
            try add("file-name", try ConfigValue(fileName).template.configText())
        }
        if contentType != ServiceProfile(name: "", url: ConfigValue("")).contentType
            && (format == .raw || format == .xml || fileName != nil)
        {
            try add("content-type", contentType)
        }
        for field in fields {
            guard !field.name.contains("=") else {
                throw Inexpressible(feature: "a field name with '=' ('\(field.name)')")
            }
            try add("field", field.name + "=" + (try text(field.value)))
        }
        for item in query {
            guard !item.name.contains("=") else {
                throw Inexpressible(feature: "a query name with '=' ('\(item.name)')")
            }
            try add("query", item.name + "=" + (try text(item.value)))
        }
        if let langField { try add("lang-field", langField) }
        if let titleField { try add("title-field", titleField) }
        if let privateField { try add("private-field", privateField.name + "=" + privateField.value) }
        if isAlwaysPrivate { try add("always-private", "true") }
        if let expiryField { try add("expiry-field", expiryField) }
        for header in headers {
            let line = try text(header)
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, !line[..<colon].contains(" ") else {
                throw Inexpressible(feature: "a header name with spaces ('\(line)')")
            }
            try add("header", line)
        }
        if let jsonTemplate, format == .json { try add("json", try text(jsonTemplate)) }
        if let xmlTemplate, format == .xml { try add("xml", try text(xmlTemplate)) }
        switch result {
        case .template(let template):
            let spelled = try template.configText()
            // A template that reads as a rule keyword would be read back as the rule.
            guard ResultRule(configText: spelled) == nil else {
                throw Inexpressible(feature: "a result that reads as the rule '\(spelled)'")
            }
            try add("result", spelled)
        default: try add("result", result.configText)
        }
        if let deletion = deletionRule {
            let spelled = try deletion.configText()
            guard ServiceProfile.deletionTemplate(spelled) == deletion else {
                throw Inexpressible(feature: "a deletion rule that reads back differently ('\(spelled)')")
            }
            try add("deletion", spelled)
        }
        if let errorMessage { try add("error-message", try errorMessage.configText()) }
        if accepts != .text {
            guard !accepts.isEmpty else {
                throw Inexpressible(feature: "no kind of content it takes (a URL shortener)")
            }
            try add("accepts", accepts.configText)
        }
        if let maximumBytes { try add("max-size", String(maximumBytes)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value as the config grammar reads it back (ConfigFile): bare when it can be, else
    /// quoted with `\"`, `\\`, `\n` and `\t`.
    static func configValue(_ value: String) throws(Inexpressible) -> String {
        let needsQuotes =
            value.isEmpty || value.first == " " || value.first == "\t" || value.last == " " || value.last == "\t"
            || value.hasPrefix("\"") || value.hasSuffix("\\") || value.contains("\n") || value.contains("\t")
            || value.hasPrefix("#") || value.hasPrefix(";") || value.contains(" #") || value.contains(" ;")
            || value.contains("\t#") || value.contains("\t;")
        guard needsQuotes else { return value }
        return quoted(value, always: true)
    }

    /// `"…"` with the escapes the config grammar knows.
    static func quoted(_ text: String, always: Bool) -> String {
        "\"" + Escaping.substituting(quotedEscapes, in: text) + "\""
    }

    /// The escapes of a quoted config value (paste-config(5); `ConfigFile` reads them back).
    static let quotedEscapes: [Character: String] = ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\t": "\\t"]
}
