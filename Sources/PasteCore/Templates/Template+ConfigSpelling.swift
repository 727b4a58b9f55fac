extension Template {
    /// Which holes a template may hold.
    public enum Use: Sendable, Equatable {
        /// Filled when the request is built: placeholders and references.
        case request
        /// Filled from the answer: answer values and placeholders (not `{content}`).
        case result
    }

    /// Parses the config spelling.
    ///
    /// - Throws: `TemplateProblem` for an unknown or misplaced hole, an unclosed one, or an
    ///   argument that cannot be used (a regex that does not compile).
    public init(configText text: String, use: Use) throws(TemplateProblem) {
        // PERF(hotkey): every hole and reference starts with `{` (`${…}` too); text without one
        // is its own literal, as the parser would make it, without splitting it into
        // characters (the built-in services' values are parsed at every start).
        guard text.utf8.contains(UInt8(ascii: "{")) else {
            self.init(literal: text)
            return
        }
        var parser = ConfigTemplateParser(characters: Array(text), use: use)
        self = try parser.parse(isFallback: false)
    }

    /// The names a hole may have: placeholders, then answer values.
    public static let answerNames: Set<String> = [
        "json", "regex", "regex-group", "xml", "header", "body", "location", "url",
    ]
}
