extension Template {
    /// A template's parts as a parser meets them: runs of literal text, each joined into one
    /// `.literal` part, between the parts the grammar reads (placeholders, references,
    /// functions); an empty run is no part.
    ///
    /// Both template grammars build through it: the config's (`ConfigTemplateParser`) and ShareX's
    /// current, legacy and data syntaxes (`ShareXSyntax`).
    package struct Builder {
        private var parts: [Part] = []
        private var literal = ""

        /// Starts an empty template.
        package init() {}

        /// Adds a character to the current run of literal text.
        package mutating func appendLiteral(_ character: Character) { literal.append(character) }

        /// Adds text to the current run of literal text.
        package mutating func appendLiteral(_ text: some StringProtocol) { literal += text }

        /// Ends the current run of literal text and adds `part` after it.
        package mutating func append(_ part: Part) {
            endLiteral()
            parts.append(part)
        }

        /// The template built so far, its last run of literal text included.
        package mutating func finish() -> Template {
            endLiteral()
            return Template(parts)
        }

        private mutating func endLiteral() {
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
        }
    }
}
