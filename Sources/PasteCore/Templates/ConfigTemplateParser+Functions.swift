extension ConfigTemplateParser {
    /// Parses `{random:A|B…}`, `{select:A|B…}`, `{prompt}`, `{prompt:TITLE|INITIAL}` or
    /// `{base64:TEXT}` after its name: each argument is a template up to the next `|` or the
    /// closing `}`, in which `\` makes the next character text. They are ShareX's functions
    /// (`CustomUploaderFunctionRandom` and the others), so a `.sxcu` definition prints as a
    /// section.
    mutating func parseFunction(_ name: String, hasArgument: Bool) throws(TemplateProblem) -> Template.Part {
        var arguments: [Template] = []
        if hasArgument {
            while true {
                arguments.append(try parse(until: .argument))
                // `parse(until: .argument)` stops at a `|` or `}`, or throws at the end.
                let stop = characters[position]
                position += 1
                if stop == "}" { break }
            }
        }
        // The person is asked before the upload, so what is asked cannot come from the answer.
        if name == "select" || name == "prompt", arguments.contains(where: \.readsAnswer) {
            throw .notAllowed(
                "{\(name):…} over values of the answer", place: "(the question is asked before the upload)")
        }
        switch name {
        case "random":
            guard arguments.count >= 2 else {
                throw .badArgument("{random:…}", expected: "two choices or more, between '|'")
            }
            return .random(arguments)
        case "select":
            guard !arguments.isEmpty else {
                throw .badArgument("{select:…}", expected: "a choice or more, between '|'")
            }
            return .select(arguments)
        case "prompt":
            guard arguments.count <= 2 else { throw .badArgument("{prompt:…}", expected: "a title and a default text") }
            return .prompt(
                title: arguments.first ?? Template(literal: Template.defaultPromptTitle),
                initial: arguments.count > 1 ? arguments[1] : Template([]))
        default:
            guard arguments.count == 1 else { throw .badArgument("{base64:…}", expected: "one text") }
            return .base64(arguments[0])
        }
    }

    /// `{regex-group:GROUP:RE}`: group GROUP (a number, 0 for the whole match, or a name) of
    /// the first match of RE; RE is read as `{regex:RE}`'s is. (`{regex:RE}` cannot take a
    /// group after a `|`, as ShareX's does: `|` is alternation in the pattern.)
    static func regexGroup(_ argument: String) throws(TemplateProblem) -> (group: RegexGroup, pattern: String) {
        guard let colon = argument.firstIndex(of: ":"), colon != argument.startIndex,
            argument[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else {
            throw .badArgument("{regex-group:…}", expected: "a group and a regular expression, as {regex-group:2:RE}")
        }
        let name = String(argument[..<colon])
        let pattern = String(argument[argument.index(after: colon)...])
        guard !pattern.isEmpty else { throw .badArgument("{regex-group:…}", expected: "a regular expression") }
        let group: RegexGroup = Int(name).map { $0 == 0 ? .whole : .number($0) } ?? .name(name)
        return (group, pattern)
    }
}

extension Template {
    /// The names of the functions a template may call, on either side (ShareX's).
    public static let functionNames: Set<String> = ["random", "select", "prompt", "base64"]

    /// The title of a `{prompt}` window without one (ShareX's `InputBox` default).
    public static let defaultPromptTitle = "Input"
}
