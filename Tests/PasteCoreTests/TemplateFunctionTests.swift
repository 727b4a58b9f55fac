import Testing

@testable import PasteCore

/// The functions the config spelling shares with ShareX (`{random:…}`, `{select:…}`,
/// `{prompt:…}`, `{base64:…}`, `{regex-group:…}`), so every `.sxcu` construct prints as a
/// section and reads back.
@Suite("Templates: the functions a section shares with ShareX")
struct TemplateFunctionTests {
    @Test("functions parse into parts; a backslash makes '|', '}' and '\\' text in their arguments")
    func parses() throws {
        #expect(
            try Template(configText: #"x{random:a|b\|c|{title:t}}"#, use: .request).parts == [
                .literal("x"),
                .random([
                    Template(literal: "a"), Template(literal: "b|c"),
                    Template([.placeholder(.title, fallback: Template(literal: "t"))]),
                ]),
            ])
        #expect(
            try Template(configText: #"Basic {base64:${env:U}:p\}w}"#, use: .request).parts == [
                .literal("Basic "),
                .base64(Template([.reference(Reference(kind: .env, argument: "U")), .literal(":p}w")])),
            ])
        #expect(
            try Template(configText: "{select:a.example|b.example}", use: .request).parts == [
                .select([Template(literal: "a.example"), Template(literal: "b.example")])
            ])
        #expect(
            try Template(configText: "{prompt}{prompt:Title|default}", use: .request).parts == [
                .prompt(title: Template(literal: "Input"), initial: Template([])),
                .prompt(title: Template(literal: "Title"), initial: Template(literal: "default")),
            ])
        #expect(
            try Template(
                configText: "{regex-group:2:(a)(b{1,2})}{regex-group:0:(c)}{regex-group:u:(?<u>d)}", use: .result
            )
            .parts == [
                .answer(.regex(pattern: "(a)(b{1,2})", group: .number(2), input: nil)),
                .answer(.regex(pattern: "(c)", group: .whole, input: nil)),
                .answer(.regex(pattern: "(?<u>d)", group: .name("u"), input: nil)),
            ])
        // Answer values inside a random choice, on the result side.
        #expect(
            try Template(configText: "https://{random:a|b}/{json:/id}", use: .result).parts == [
                .literal("https://"), .random([Template(literal: "a"), Template(literal: "b")]), .literal("/"),
                .answer(.json(pointer: "/id", input: nil)),
            ])
    }

    static let refused: [TemplateTests.Refused] = [
        .init(
            text: "{random:a}", use: .request,
            problem: .badArgument("{random:…}", expected: "two choices or more, between '|'")),
        .init(text: "{random:a|b", use: .request, problem: .unclosed("{…:")),
        .init(text: "{base64:a|b}", use: .request, problem: .badArgument("{base64:…}", expected: "one text")),
        .init(
            text: "{prompt:a|b|c}", use: .request,
            problem: .badArgument("{prompt:…}", expected: "a title and a default text")),
        .init(
            text: "{select:{json:/a}|b}", use: .result,
            problem: .notAllowed(
                "{select:…} over values of the answer", place: "(the question is asked before the upload)")),
        .init(
            text: "{regex-group:(a)}", use: .result,
            problem: .badArgument(
                "{regex-group:…}", expected: "a group and a regular expression, as {regex-group:2:RE}")),
        .init(
            text: "{regex-group:1:(a}", use: .result,
            problem: .badPattern("(a", reason: "")),
        .init(
            text: "{regex-group:1:a}", use: .request,
            problem: .notAllowed("{regex-group…}", place: "in a request (it reads the answer)")),
    ]

    @Test("a function of the wrong shape is refused when the config is read", arguments: refused)
    func refusesAtLoad(_ item: TemplateTests.Refused) {
        #expect {
            try Template(configText: item.text, use: item.use)
        } throws: { error in
            // A pattern's reason is Regex's own words: only the kind and the pattern are held.
            if case .badPattern(let pattern, _) = item.problem, case .badPattern(pattern, _) = error as? TemplateProblem
            {
                return true
            }
            return error as? TemplateProblem == item.problem
        }
    }

    @Test("every part ShareX makes prints in the config spelling and reads back the same")
    func roundTrip() throws {
        let templates: [(Template, Template.Use, String)] = [
            (
                Template([
                    .literal("https://"),
                    .random([Template(literal: "a|b"), Template(literal: "c}d\\e"), Template(literal: "${x")]),
                ]), .request, #"https://{random:a\|b|c\}d\\e|\${{x}"#
            ),
            (
                Template([.literal("Basic "), .base64(Template(literal: "user:pass"))]), .request,
                "Basic {base64:user:pass}"
            ),
            (Template([.select([Template(literal: "one")])]), .request, "{select:one}"),
            (
                Template([.prompt(title: Template(literal: "Title"), initial: Template(literal: "x"))]), .request,
                "{prompt:Title|x}"
            ),
            (
                Template([.answer(.regex(pattern: #"(a)|(b)"#, group: .number(2), input: nil))]), .result,
                "{regex-group:2:(a)|(b)}"
            ),
            (
                Template([.answer(.regex(pattern: "(a)(b)", group: .whole, input: nil))]), .result,
                "{regex-group:0:(a)(b)}"
            ),
            (
                Template([.random([Template([.answer(.json(pointer: "/a", input: nil))]), Template(literal: "b")])]),
                .result, "{random:{json:/a}|b}"
            ),
        ]
        for (template, use, expected) in templates {
            let printed = try template.configText()
            #expect(printed == expected)
            #expect(try Template(configText: printed, use: use) == template, "\(printed)")
        }
    }

    @Test("what has no config spelling still says so: a function over other text than the answer")
    func stillInexpressible() {
        let input = Template([.answer(.header("X-Data"))])
        #expect(throws: Inexpressible(feature: "{json:…} over text other than the answer")) {
            try Template([.answer(.json(pointer: "/a", input: input))]).configText()
        }
    }
}
