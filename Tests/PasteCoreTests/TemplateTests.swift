import FoundationEssentials
import Testing

@testable import PasteCore

@Suite("Templates: the config spelling, checks at load time, filling")
struct TemplateTests {
    @Test("placeholders, fallbacks, references and answer values parse into parts")
    func parses() throws {
        let request = try Template(configText: #"{"t": "{title:{filename}}", "k": "${env:K}"}"#, use: .request)
        #expect(
            request.parts == [
                .literal(#"{"t": ""#),
                .placeholder(.title, fallback: Template([.placeholder(.filename, fallback: nil)])),
                .literal(#"", "k": ""#), .reference(Reference(kind: .env, argument: "K")), .literal(#""}"#),
            ])
        let result = try Template(configText: "https://h/{json:/data/key}?r={regex:id=([0-9]{2,3})}", use: .result)
        #expect(
            result.parts == [
                .literal("https://h/"), .answer(.json(pointer: "/data/key", input: nil)), .literal("?r="),
                .answer(.regex(pattern: "id=([0-9]{2,3})", group: .firstParticipating, input: nil)),
            ])
        // JSON's own braces, spaces inside braces and "{{" are text.
        #expect(
            try Template(configText: #"{"a": {"b": 1}, "c": "{ x }", "d": "{{title}"}"#, use: .request).literalText
                == #"{"a": {"b": 1}, "c": "{ x }", "d": "{title}"}"#)
    }

    /// A template that must be refused, and why.
    struct Refused: Sendable, CustomTestStringConvertible {
        var text: String
        var use: Template.Use
        var problem: TemplateProblem
        var testDescription: String { text }
    }

    static let refused: [Refused] = [
        Refused(text: "{contents}", use: .request, problem: .unknownName("contents", use: .request)),
        Refused(text: "{Title}", use: .request, problem: .unknownName("Title", use: .request)),
        Refused(text: "${evn:X}", use: .request, problem: .unknownReference("evn")),
        Refused(text: "${env:X", use: .request, problem: .unclosed("${env:X")),
        Refused(text: "{title:abc", use: .request, problem: .unclosed("{…:")),
        Refused(text: "{json:/a", use: .result, problem: .unclosed("{json:")),
        Refused(
            text: "{json:/a}", use: .request,
            problem: .notAllowed("{json…}", place: "in a request (it reads the answer)")),
        Refused(text: "{content}", use: .result, problem: .notAllowed("{content}", place: "in a result")),
        Refused(
            text: "${env:X}", use: .result,
            problem: .notAllowed("${env:…}", place: "in a result (a secret would be shown)")
        ),
        Refused(
            text: "{json:data}", use: .result,
            problem: .badArgument("{json:…}", expected: "a JSON pointer such as /data/url")),
        Refused(text: "{body:x}", use: .result, problem: .badArgument("{body}", expected: "no argument")),
        Refused(
            text: "${cmd:pass 'show}", use: .request,
            problem: .badCommand("pass 'show", reason: "a ' quote is never closed")),
    ]

    @Test("typos and misplaced holes are refused when the config is read", arguments: refused)
    func refusesAtLoad(_ item: Refused) {
        #expect(throws: item.problem) { try Template(configText: item.text, use: item.use) }
    }

    @Test("a regex that does not compile is refused, with Regex's reason")
    func badRegex() {
        #expect {
            try Template(configText: "{regex:a(b}", use: .result)
        } throws: { error in
            guard case .badPattern("a(b", _) = error as? TemplateProblem else { return false }
            return true
        }
    }

    @Test(
        "a built-in's value, parsed when first read, is what parsing it at once gives; a bad one is literal",
        arguments: [
            #"{"files": {"{filename}": {"content": "{content}"}}}"#, "https://x.test/{title:untitled}", "plain",
            "{a {b}", "${env:HOME", "{nosuchhole}", "{{content}} {content:{title}}", "",
        ])
    func builtInValueParsedLater(_ raw: String) {
        let later = ConfigValue(raw)
        let copy = later
        let expected = (try? Template(configText: raw, use: .request)) ?? Template(literal: raw)
        #expect(later.template == expected)
        #expect(copy.template == expected)
        var changed = later
        changed.template = Template(literal: "other")
        #expect(changed.template == Template(literal: "other"))
        #expect(later.template == expected)
    }

    @Test("every built-in service's values parse as templates (none falls back to literal text by mistake)")
    func builtInValuesParse() {
        for profile in BuiltInServices.all {
            for value in profile.requestTemplates {
                #expect(throws: Never.self, "\(profile.name): \(value.raw)") {
                    try Template(configText: value.raw, use: .request)
                }
            }
        }
    }

    @Test("the config spelling prints back to the same parts")
    func roundTrip() throws {
        for text in [
            #"{"content": "{content}", "name": "{title:{filename}}", "x": "{{literal}"}"#,
            "https://h/{json:/a~1b/0}/{regex:(?<=href=\")[^\"]+}",
            "Bearer ${cmd:pass show 'my token'}", "{header:X-Token}{body}{url}{location}{xml:/a/b[2]/@href}",
            "a {{ b {{title} c",
        ] {
            let use: Template.Use = text.contains("{json:") || text.contains("{header:") ? .result : .request
            let template = try Template(configText: text, use: use)
            let printed = try template.configText()
            #expect(try Template(configText: printed, use: use) == template, "\(text) → \(printed)")
        }
    }

    @Test("filling escapes by place: JSON bodies escape values, URLs percent-encode placeholders only")
    func rendering() throws {
        let context = Context(environment: ["TOKEN": "a/b+c\"d"])
        var expansion = ValueExpansion(context: context)
        let values: [Placeholder: String] = [.title: "a & b/c \"q\"", .filename: "x.txt"]
        let json = ConfigValue(#"{"t": "{title}", "k": "${env:TOKEN}", "l": "{lang:plain text}"}"#)
        #expect(
            try expansion.render(json, values: values, rendering: .json)
                == #"{"t": "a & b/c \"q\"", "k": "a/b+c\"d", "l": "plain text"}"#)
        let url = ConfigValue("https://h/${env:TOKEN}/p?t={title}&l={lang:plain text}")
        #expect(
            try expansion.render(url, values: values, rendering: .url)
                == "https://h/a/b+c\"d/p?t=a%20%26%20b%2Fc%20%22q%22&l=plain%20text")
        let xml = ConfigValue("<p t=\"{title}\">{filename}</p>")
        #expect(
            try expansion.render(xml, values: values, rendering: .xml)
                == "<p t=\"a &amp; b/c &quot;q&quot;\">x.txt</p>")
        #expect(expansion.secrets == ["a/b+c\"d"])
    }
}

@Suite("${cmd:…}: a secret printed by a command")
struct CommandReferenceTests {
    /// A runner that records what it was asked to run and answers from a table.
    final class FakeRunner: CommandRunning, @unchecked Sendable {
        // Safe: the tests call it from one thread.
        var calls: [[String]] = []
        var answers: [String: Result<[UInt8], CommandFailure>]
        init(_ answers: [String: Result<[UInt8], CommandFailure>]) { self.answers = answers }

        func run(_ arguments: [String], environment: [String: String], timeout: Duration) -> Result<
            [UInt8], CommandFailure
        > {
            calls.append(arguments)
            #expect(timeout == .seconds(10))
            return answers[arguments.joined(separator: " ")] ?? .failure(.notFound)
        }
    }

    @Test("the command is split into words (no shell), run once per run, its trailing newline dropped")
    func runsOnce() throws {
        let runner = FakeRunner(["pass show my token": .success(Array("s3cret\n\n".utf8))])
        let context = Context(environment: [:], commandRunner: runner)
        var first = ValueExpansion(context: context)
        let value = ConfigValue("Bearer ${cmd:pass show 'my token'}", origin: ("/c", 3))
        #expect(try first.expand(value) == "Bearer s3cret")
        // Another builder of the same run (the next file of a batch) does not run it again.
        var second = ValueExpansion(context: context)
        #expect(try second.expand(value) == "Bearer s3cret")
        #expect(runner.calls == [["pass", "show", "my token"]])
        #expect(first.secrets == ["s3cret"])
        #expect(first.redact("x Bearer s3cret y") == "x Bearer [redacted] y")
    }

    @Test("a failing command is a config error naming the command and why, never its output")
    func failures() {
        let cases: [(CommandFailure, String)] = [
            (.notFound, "/c:3: command 'gh auth token' not found on PATH"),
            (.exited(status: 1), "/c:3: command 'gh auth token' exited with status 1"),
            (.timedOut(seconds: 10), "/c:3: command 'gh auth token' did not finish within 10s and was stopped"),
        ]
        for (failure, message) in cases {
            let context = Context(environment: [:], commandRunner: FakeRunner(["gh auth token": .failure(failure)]))
            var expansion = ValueExpansion(context: context)
            #expect(throws: ConfigError.commandFailed(path: "/c", line: 3, command: "gh auth token", failure: failure))
            {
                try expansion.expand(ConfigValue("${cmd:gh auth token}", origin: ("/c", 3)))
            }
            let error = ConfigError.commandFailed(path: "/c", line: 3, command: "gh auth token", failure: failure)
            #expect(error.message == message)
            #expect(error.exitStatus == .config)
        }
        let empty = Context(environment: [:], commandRunner: FakeRunner(["true": .success(Array("\n".utf8))]))
        var expansion = ValueExpansion(context: empty)
        #expect(throws: ConfigError.commandFailed(path: "/c", line: 1, command: "true", failure: .printedNothing)) {
            try expansion.expand(ConfigValue("${cmd:true}", origin: ("/c", 1)))
        }
    }

    @Test("words: quotes and backslashes as a shell's simplest rules, nothing else special")
    func words() throws {
        #expect(try CommandWords.split("gh auth token") == ["gh", "auth", "token"])
        #expect(try CommandWords.split(#"pass show "web/my site" 'a b'"#) == ["pass", "show", "web/my site", "a b"])
        #expect(try CommandWords.split(#"echo a\ b "q\"x\\" '\n'"#) == ["echo", "a b", #"q"x\"#, #"\n"#])
        #expect(try CommandWords.split("echo $HOME ~ *; rm -rf /") == ["echo", "$HOME", "~", "*;", "rm", "-rf", "/"])
        #expect(try CommandWords.split("a ''") == ["a", ""])
        #expect(throws: CommandWords.Problem.unclosedQuote("\"")) { try CommandWords.split("a \"b") }
        #expect(throws: CommandWords.Problem.trailingBackslash) { try CommandWords.split("a \\") }
        #expect(throws: CommandWords.Problem.empty) { try CommandWords.split("   ") }
    }
}
