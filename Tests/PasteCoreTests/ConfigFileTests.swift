import Testing
import TestSupport

@testable import PasteCore

@Suite("Config file grammar")
struct ConfigFileTests: ScopedSuite {
    let sample = """
        # a comment
        ; another
        [paste]
            service = pastie
            notify = auto                       # auto: a window when no terminal is attached
        [service "pastie"]
            url = http://pastie.example/pastes/create
            format = multipart
            content-field = paste[body]
            field = paste[parser]=plaintext     # repeatable
            field = paste[authorization]=burger
            result = redirect
            header = Authorization: Bearer ${env:PASTE_TOKEN}
        [service "pinnwand"]
            url = https://bpa.st/api/v1/paste
            format = json
            json = {"expiry": "{expiry:1day}", "files": [{"lexer": "{lang:text}", "content": "{content}"}]}
            result = json:/link
        [service "quoted"]
            url = "http://example.test/a b # not a comment"
            summary = one \\
              two
        """

    @Test("parses sections, keys, inline comments, quotes and continuations")
    func parsesTheDesignExample() throws {
        let file = try ConfigFile(parsing: sample, path: "/c")
        let values = file.entries.map { "\($0.section)/\($0.subsection ?? "")/\($0.key)=\($0.value)" }
        #expect(values.contains("paste//service=pastie"))
        #expect(values.contains("paste//notify=auto"))
        #expect(values.contains("service/pastie/field=paste[parser]=plaintext"))
        #expect(values.contains("service/pastie/header=Authorization: Bearer ${env:PASTE_TOKEN}"))
        #expect(
            values.contains(
                #"service/pinnwand/json={"expiry": "{expiry:1day}", "files": [{"lexer": "{lang:text}", "content": "{content}"}]}"#
            ))
        #expect(values.contains("service/quoted/url=http://example.test/a b # not a comment"))
        #expect(values.contains("service/quoted/summary=one two"))
        #expect(file.entries.first { $0.key == "url" }?.line == 7)
    }

    @Test("the design's example resolves into profiles", .tags(.config))
    func resolvesProfiles() throws {
        let configuration = try Configuration(file: ConfigFile(parsing: sample, path: "/c"))
        #expect(configuration.settings.service == "pastie")
        let pastie = try configuration.service(named: "pastie")
        #expect(pastie.format == .multipart)
        #expect(pastie.contentField == "paste[body]")
        #expect(pastie.fields.map(\.name) == ["paste[parser]", "paste[authorization]"])
        #expect(pastie.headers.first?.origin?.line == 13)
        let pinnwand = try configuration.service(named: "pinnwand")
        #expect(pinnwand.result == .json(pointer: "/link"))
        // Built-ins stay available beside configured services.
        #expect(configuration.services.contains { $0.name == "termbin" })
    }

    struct BadConfig: Sendable, CustomTestStringConvertible {
        var text: String
        var line: Int
        var fragment: String
        var testDescription: String { fragment }
    }

    static let badConfigs: [BadConfig] = [
        BadConfig(text: "key = value", line: 1, fragment: "expected a [section]"),
        BadConfig(text: "[paste\nservice = x", line: 1, fragment: "expected ']'"),
        BadConfig(text: "[paste]\n= value", line: 2, fragment: "syntax error"),
        BadConfig(text: "[paste]\nservice = \"open", line: 2, fragment: "closing '\"'"),
        BadConfig(text: "[paste]\nservice = \"a\" b", line: 2, fragment: "after the closing quote"),
        BadConfig(text: "[paste]\n\n  colour = blue", line: 3, fragment: "unknown key 'colour'"),
        BadConfig(text: "[paste]\n[pastes]", line: 2, fragment: "unknown section [pastes]"),
        BadConfig(text: "[paste]\nretry-max-attempts = 0", line: 2, fragment: "a whole number from 1 to 1000"),
        BadConfig(text: "[paste]\nretry-max-attempts = many", line: 2, fragment: "a whole number from 1 to 1000"),
        BadConfig(text: "[paste]\nnotify = sometimes", line: 2, fragment: "expected auto, always or never"),
        BadConfig(text: "[paste]\ntimeout = soon", line: 2, fragment: "expected a duration"),
        BadConfig(text: "[service \"x\"]\nurl = ftp://x", line: 2, fragment: "expected an http://"),
        BadConfig(
            text: "[service \"x\"]\nurl = http://x\nformat = yaml", line: 3,
            fragment: "multipart, form, raw, json, xml, none, tcp or privatebin"),
        BadConfig(
            text: "[service \"x\"]\nurl = http://x\nresult = guess", line: 3, fragment: "redirect, location, body"),
        BadConfig(
            text: "[service \"x\"]\nurl = http://x\nresult = regex:([a-", line: 3, fragment: "valid regular expression"),
        BadConfig(text: "[service \"x\"]\nurl = http://x\nfield = novalue", line: 3, fragment: "NAME=VALUE"),
        BadConfig(text: "[service \"x\"]\nurl = http://x\nheader = not a header", line: 3, fragment: "'Name: value'"),
        BadConfig(text: "[service \"x\"]\nformat = form", line: 1, fragment: "has no 'url'"),
        BadConfig(text: "[service \"x\"]\nurl = http://x\nformat = json", line: 1, fragment: "has no 'json'"),
        BadConfig(text: "[service \"x\"]\nurl = http://x\nformat = tcp", line: 2, fragment: "tcp://host:port"),
        BadConfig(text: "[service]\nurl = http://x", line: 1, fragment: "[service \"NAME\"]"),
        BadConfig(
            text: "[service \"x\"]\nurl = http://x\nmax-size = lots", line: 3,
            fragment: "a size from 1 to 1024G (such as 512K, 10M)"),
    ]

    @Test("retry-max-attempts sets when --retry holds an entry; 20 by default")
    func retryMaximumAttempts() throws {
        #expect(
            try Configuration(file: ConfigFile(parsing: "[paste]\n", path: "/c")).settings.retryMaximumAttempts == 20)
        let configured = try Configuration(file: ConfigFile(parsing: "[paste]\nretry-max-attempts = 5\n", path: "/c"))
        #expect(configured.settings.retryMaximumAttempts == 5)
        #expect(OutboxPolicy(maximumAttempts: configured.settings.retryMaximumAttempts).isExhausted(afterAttempt: 5))
    }

    @Test("each error class names file and line, and exits 78", arguments: badConfigs)
    func reportsErrors(_ bad: BadConfig) {
        #expect {
            try Configuration(file: ConfigFile(parsing: bad.text, path: "/etc/x"))
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.message.hasPrefix("/etc/x:\(bad.line): ") && error.message.contains(bad.fragment)
                && error.exitStatus == .config
        }
    }

    @Test("secrets come from the environment and files, and are redacted", .temporaryHome)
    func expandsReferences() throws {
        let secretFile = home.root.path + "/token"
        try home.write("s3cr3t-from-file\n", to: "token")
        var expansion = ValueExpansion(context: Context(environment: ["PASTE_TOKEN": "tok-123"]))
        #expect(try expansion.expand(ConfigValue("Bearer ${env:PASTE_TOKEN}")) == "Bearer tok-123")
        #expect(try expansion.expand(ConfigValue("${file:\(secretFile)}")) == "s3cr3t-from-file")
        #expect(expansion.redact("Authorization: Bearer tok-123") == "Authorization: Bearer [redacted]")
        #expect(throws: ConfigError.missingEnvironment(path: "/c", line: 4, name: "NOPE")) {
            try expansion.expand(ConfigValue("${env:NOPE}", origin: ("/c", 4)))
        }
    }

    @Test("a literal secret in a file others can read is refused", .temporaryHome)
    func refusesReadableLiteralSecrets() throws {
        let text = "[service \"x\"]\nurl = http://x\nheader = Authorization: Bearer abc123\n"
        let path = try home.write(text, to: "readable.conf", mode: 0o644)
        #expect {
            try Configuration.load(explicitPath: path, context: Context(environment: [:]))
        } throws: { error in
            (error as? ConfigError)?.message
                == "\(path):3: 'header' holds a literal secret but the file is readable by others (mode 644)"
        }
        let privatePath = try home.write(text, to: "private", mode: 0o600)
        _ = try Configuration.load(explicitPath: privatePath, context: Context(environment: [:]))
        let referencePath = try home.write(
            "[service \"x\"]\nurl = http://x\nheader = Authorization: Bearer ${env:T}\n", to: "ref", mode: 0o644)
        _ = try Configuration.load(explicitPath: referencePath, context: Context(environment: [:]))
    }

    @Test("precedence: flag over PASTE_SERVICE over config over the built-in default")
    func servicePrecedence() throws {
        let configuration = try Configuration(
            file: ConfigFile(parsing: "[paste]\nservice = termbin\n", path: "/c"))
        let withEnvironment = Context(environment: ["PASTE_SERVICE": "privatebin"])
        let bare = Context(environment: [:])
        #expect(try configuration.resolveService(flag: "paste.rs", context: withEnvironment).name == "paste.rs")
        #expect(try configuration.resolveService(flag: nil, context: withEnvironment).name == "privatebin")
        #expect(try configuration.resolveService(flag: nil, context: bare).name == "termbin")
        #expect(try Configuration().resolveService(flag: nil, context: bare).name == BuiltInServices.defaultName)
        #expect(throws: ConfigError.self) { try configuration.resolveService(flag: "nope", context: bare) }
    }
}

extension Tag {
    @Tag static var config: Self
}

@Suite("Service inheritance and the base key")
struct ServiceInheritanceTests {
    @Test("a section named like a built-in keeps the built-in's keys; base = NAME starts from another")
    func inherits() throws {
        let text = """
            [service "dpaste"]
                url = http://dpaste.internal/api/v2/
            [service "work"]
                base = bpa.st
                url = https://paste.work.example/api/v1/paste
                header = X-Team: tools
            [service "work2"]
                base = work
                summary = the other one
            """
        let configuration = try Configuration(file: ConfigFile(parsing: text, path: "/c"))
        let dpaste = try configuration.service(named: "dpaste")
        #expect(dpaste.url.raw == "http://dpaste.internal/api/v2/")
        #expect(dpaste.format == .form)
        #expect(dpaste.langField == "syntax")
        #expect(dpaste.expiryField == "expiry_days")
        #expect(!dpaste.isBuiltIn)
        let work = try configuration.service(named: "work")
        #expect(work.format == .json)
        #expect(work.jsonTemplate == BuiltInServices.bpaST.jsonTemplate)
        #expect(work.result == .json(pointer: "/link"))
        #expect(work.headers.map(\.raw) == ["X-Team: tools"])
        let second = try configuration.service(named: "work2")
        #expect(second.url.raw == "https://paste.work.example/api/v1/paste")
        #expect(second.headers.map(\.raw) == ["X-Team: tools"])
        #expect(second.summary == "the other one")
        #expect(
            configuration.services.filter(\.isBuiltIn).map(\.name) == [
                "paste.rs", "termbin", "0x0", "bpa.st", "privatebin", "gist", "gitlab", "opengist",
            ])
    }

    @Test("base must name a built-in or a service configured above")
    func badBase() {
        for text in [
            "[service \"a\"]\nbase = b\nurl = http://x\n[service \"b\"]\nurl = http://y\n",
            "[service \"a\"]\nbase = a\n",
        ] {
            #expect {
                try Configuration(file: ConfigFile(parsing: text, path: "/c"))
            } throws: { error in
                (error as? ConfigError)?.message.hasPrefix("/c:2: bad value") == true
            }
        }
    }
}
