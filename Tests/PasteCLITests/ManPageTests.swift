import Foundation
import PasteCLI
import PasteCore
import TestSupport
import Testing

/// Files of the source tree, found from this file's path (`Tests/PasteCLITests/…`).
enum SourceTree {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The absolute path of a file given relative to the root.
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// A file's text.
    static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }
}

/// Just enough of roff `-man` to read the tagged paragraphs of a page.
struct ManPage {
    /// The page's source lines.
    var lines: [String]

    init(_ relative: String) throws {
        lines = try SourceTree.text(relative).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
    }

    /// The lines of the `.SH` section whose title starts with `title`, up to the next `.SH`.
    func section(_ title: String) -> [String] {
        guard let start = lines.firstIndex(where: { $0.hasPrefix(".SH ") && plain($0).hasPrefix(title) }) else {
            return []
        }
        let rest = lines[(start + 1)...]
        return Array(rest.prefix { !$0.hasPrefix(".SH ") })
    }

    /// The tag of every `.TP` paragraph in `lines` (the line after `.TP`), as plain text.
    func tags(in lines: [String]) -> [String] {
        zip(lines, lines.dropFirst()).filter { $0.0 == ".TP" }.map { plain($0.1) }
    }

    /// A roff line as the reader sees it: macro arguments joined (alternating-font macros such
    /// as `.BI` join without spaces), quotes and font escapes gone, `\-` as `-`.
    func plain(_ line: String) -> String {
        var text = Substring(line)
        var joiner = " "
        if text.hasPrefix(".") {
            let macro = text.prefix { $0 != " " }
            text = text.dropFirst(macro.count).drop { $0 == " " }
            if [".BI", ".BR", ".IB", ".IR", ".RB", ".RI"].contains(String(macro)) { joiner = "" }
        }
        // Split into arguments: quoted strings or runs without spaces.
        var arguments: [String] = []
        var current = ""
        var isQuoted = false
        var hasArgument = false
        for character in text {
            if character == "\"" {
                isQuoted.toggle()
                hasArgument = true
            } else if character == " " && !isQuoted {
                if hasArgument { arguments.append(current) }
                current = ""
                hasArgument = false
            } else {
                current.append(character)
                hasArgument = true
            }
        }
        if hasArgument { arguments.append(current) }
        var result = arguments.joined(separator: joiner)
        for (escape, replacement) in [
            ("\\fB", ""), ("\\fI", ""), ("\\fR", ""), ("\\fP", ""), ("\\-", "-"), ("\\(dq", "\""),
            ("\\(aq", "'"), ("\\e", "\\"), ("\\&", ""), ("\\|", ""),
        ] {
            result = result.replacingOccurrences(of: escape, with: replacement)
        }
        return result
    }
}

/// How an option's tag reads in paste(1): `-S, --service NAME`.
func manTag(for spec: OptionSpec) -> String {
    (spec.short.map { "-\($0), " } ?? "") + "--" + spec.long + (spec.argument.map { " " + $0 } ?? "")
}

@Suite("Man pages")
struct ManPageTests {
    /// Every key of `[paste]`, mirrored by hand: a new key must be documented in paste-config(5).
    static let pasteKeys = [
        "service", "notify", "notify-style", "picker", "timeout", "connect-timeout", "stall-timeout",
        "response-timeout", "clipboard-timeout",
        "clipboard", "max-clipboard",
        "notify-timeout", "max-retry-after", "repeat-window", "guess-language", "retries", "retry-max-attempts", "copy",
        "redact", "image-service",
        "ca-file", "ca-path", "proxy", "no-proxy",
    ]
    /// Every key of `[service "NAME"]`, mirrored by hand.
    static let serviceKeys = [
        "base", "sxcu", "url", "format", "method", "content-field", "file-name", "content-type", "field", "query",
        "lang-field", "title-field", "private-field", "always-private", "redact", "key-bearing", "expiry-field",
        "expiry-unit",
        "json", "xml",
        "header", "result", "deletion", "error-message", "accepts", "max-size", "response-timeout", "summary",
        "ca-file", "ca-path",
        "pinned-pubkey", "insecure", "client-cert", "client-key", "proxy", "no-proxy", "update", "update-url",
        "update-method", "update-json", "id", "delete-url", "fallback", "fallback-public",
    ]

    static let pages = ["man/paste.1", "man/paste-config.5", "man/paste-mock.1"]

    @Test("paste(1) documents exactly the options of the option table")
    func optionsMatchTable() throws {
        let page = try ManPage("man/paste.1")
        let tags = page.tags(in: page.section("OPTIONS"))
        let documented = Set(
            tags.flatMap { tag in
                tag.split(separator: " ").filter { $0.hasPrefix("--") }.map {
                    String($0.dropFirst(2).filter { $0 != "," })
                }
            })
        let table = Set(optionTable.map(\.long))
        #expect(table.subtracting(documented).sorted() == [], "in --help but not in man/paste.1")
        #expect(documented.subtracting(table).sorted() == [], "in man/paste.1 but not in --help")
        #expect(tags.count == optionTable.count, "one tagged paragraph per option")
    }

    @Test(
        "paste(1) spells each option's short letter and argument name as the table does",
        arguments: optionTable)
    func optionTagMatchesTable(_ spec: OptionSpec) throws {
        let page = try ManPage("man/paste.1")
        let tags = page.tags(in: page.section("OPTIONS"))
        #expect(tags.contains(manTag(for: spec)), "expected a '.TP' tag reading '\(manTag(for: spec))'")
    }

    @Test("paste(1) lists every exit status of ExitStatus, and no other")
    func exitStatusesMatch() throws {
        let page = try ManPage("man/paste.1")
        let documented = page.tags(in: page.section("EXIT STATUS")).compactMap { Int32($0) }
        #expect(documented == ExitStatus.allCases.map(\.rawValue))
    }

    @Test("paste(1) names the coreutils options that hand over to coreutils paste")
    func coreutilsRuleDocumented() throws {
        let text = try ManPage("man/paste.1").section("COREUTILS PASTE").map { ManPage.plainText($0) }
            .joined(separator: " ")
        for option in ["-d", "-s", "-z", "--delimiters", "--serial", "--zero-terminated"] {
            #expect(text.contains(option), "the COREUTILS PASTE section does not mention \(option)")
        }
    }

    @Test("every page renders with groff -ww and no warning", arguments: pages)
    func groffIsSilent(_ page: String) throws {
        let result = try runProcess("/usr/bin/env", ["groff", "-ww", "-z", "-man", SourceTree.path(page)], timeout: 60)
        #expect(result.status == 0)
        #expect(result.err == "")
    }

    @Test("every page renders at 80 columns with man --warnings and no warning", arguments: pages)
    func manIsSilentAt80Columns(_ page: String) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["MANWIDTH"] = "80"
        environment["MAN_KEEP_FORMATTING"] = nil
        let result = try runProcess(
            "/usr/bin/env", ["man", "--warnings", "-P", "cat", "-l", SourceTree.path(page)], environment: environment,
            timeout: 60)
        #expect(result.status == 0)
        #expect(result.err == "", "man --warnings at 80 columns")
    }

    @Test("every page opens with man -l", arguments: pages)
    func manOpensPage(_ page: String) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["MANWIDTH"] = "80"
        environment["MAN_KEEP_FORMATTING"] = nil
        let result = try runProcess(
            "/usr/bin/env", ["man", "-P", "cat", "-l", SourceTree.path(page)], environment: environment, timeout: 60)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("NAME"))
        #expect(result.out.contains("SEE ALSO"))
    }

    @Test("the mirrored key lists match the key tables (Settings.keys, ServiceProfile.keys)")
    func keyListsMatchSource() throws {
        // The tables apply the keys, and the "did you mean" of an unknown key reads their names.
        #expect(Settings.configKeys == Self.pasteKeys)
        #expect(ServiceProfile.configKeys == Self.serviceKeys)
    }

    @Test("paste-config(5) documents every [paste] key, and no other")
    func pasteKeysDocumented() throws {
        let page = try ManPage("man/paste-config.5")
        let documented = page.tags(in: page.section("THE [paste] SECTION")).compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
        #expect(documented.sorted() == Self.pasteKeys.sorted())
    }

    @Test("paste-config(5) documents every [service] key, and no other")
    func serviceKeysDocumented() throws {
        let page = try ManPage("man/paste-config.5")
        // The nested list of formats is tagged too; keys are the `key = …` tags.
        let keys = page.tags(in: page.section("THE [service")).filter { $0.contains(" = ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(keys.sorted() == Self.serviceKeys.sorted())
    }

    @Test("paste-config(5) lists every built-in service")
    func builtInsDocumented() throws {
        let page = try ManPage("man/paste-config.5")
        let documented = page.tags(in: page.section("BUILT-IN SERVICES")).compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
        #expect(documented == BuiltInServices.all.map(\.name))
    }

    @Test("paste-config(5) names every placeholder and every answer value a template may hold")
    func placeholdersDocumented() throws {
        let page = try ManPage("man/paste-config.5")
        let tags = page.tags(in: page.section("TEMPLATES"))
        #expect(Array(tags.prefix(Placeholder.allCases.count)) == Placeholder.allCases.map { "{\($0.rawValue)}" })
        let answers = page.tags(in: page.section("RESULT")).filter { $0.hasPrefix("{") }
        #expect(
            answers == [
                "{json:/POINTER}", "{regex:RE}", "{regex-group:GROUP:RE}", "{xml:PATH}", "{header:NAME}", "{body}",
                "{location}", "{url}",
            ])
        for name in Template.answerNames {
            #expect(
                answers.contains { $0.hasPrefix("{\(name):") || $0 == "{\(name)}" },
                "RESULT does not document {\(name)}")
        }
        // The functions either side may call, after the placeholders.
        let functions = tags.dropFirst(Placeholder.allCases.count).filter { $0.hasPrefix("{") }
        for name in Template.functionNames {
            #expect(functions.contains { $0.hasPrefix("{\(name)") }, "TEMPLATES does not document {\(name)}")
        }
    }
}

extension ManPage {
    /// `plain(_:)` without a page at hand.
    static func plainText(_ line: String) -> String { ManPage(lines: []).plain(line) }

    init(lines: [String]) { self.lines = lines }
}
