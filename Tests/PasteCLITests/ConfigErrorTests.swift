import Foundation
import Testing
import TestSupport

@Suite("Config errors: one line naming file:line, exit 78, nothing sent", .temporaryHome, .mock)
struct ConfigErrorTests: ScopedSuite {
    /// One error class: the file, its mode, and the exact stderr (`CONFIG` stands for the path).
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var mode = 0o600
        var stderr: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "syntax", text: "[paste]\nservice = dpaste\n[service \"x\"\n",
            stderr: "paste: CONFIG:3: syntax error: expected ']' to close the section header\n"),
        Case(
            name: "unknown key", text: "[paste]\n  colour = blue\n",
            stderr: "paste: CONFIG:2: unknown key 'colour' in section [paste]\n"),
        Case(
            name: "unknown section", text: "# mine\n[pastebin]\nurl = http://x\n",
            stderr: "paste: CONFIG:2: unknown section [pastebin]; expected [paste] or [service \"NAME\"]\n"),
        Case(
            name: "bad value", text: "[service \"x\"]\nurl = MOCK/json\nformat = xml\n",
            stderr:
                "paste: CONFIG:3: bad value 'xml' for 'format': expected multipart, form, raw, json, tcp or privatebin\n"
        ),
        Case(
            name: "missing environment variable",
            text:
                "[paste]\nservice = x\n[service \"x\"]\nurl = MOCK/json\nheader = X-Api-Key: ${env:PASTE_TEST_UNSET}\n",
            stderr: "paste: CONFIG:5: environment variable PASTE_TEST_UNSET is not set\n"),
        Case(
            name: "unreadable secret file",
            text:
                "[paste]\nservice = x\n[service \"x\"]\nurl = MOCK/json\nfield = api_key=${file:/nonexistent/paste-key}\n",
            stderr: "paste: CONFIG:5: cannot read secret file '/nonexistent/paste-key': no such file or directory\n"),
        Case(
            name: "literal secret in a file others can read",
            text: "[paste]\nservice = x\n[service \"x\"]\nurl = MOCK/json\nheader = Authorization: Bearer abc123\n",
            mode: 0o644,
            stderr: "paste: CONFIG:5: 'header' holds a literal secret but the file is readable by others (mode 644)\n"
                + "paste: run 'chmod 600 CONFIG', or take the secret from ${env:NAME} or ${file:PATH}\n"),
        Case(
            name: "literal secret field in a group-readable file",
            text: "[service \"x\"]\nurl = MOCK/json\nfield = token=abc123\n", mode: 0o640,
            stderr: "paste: CONFIG:3: 'field' holds a literal secret but the file is readable by others (mode 640)\n"
                + "paste: run 'chmod 600 CONFIG', or take the secret from ${env:NAME} or ${file:PATH}\n"),
        Case(
            name: "incomplete service", text: "[paste]\n\n[service \"half\"]\nformat = form\n",
            stderr: "paste: CONFIG:3: service 'half' has no 'url'\n"),
        Case(
            name: "unknown service", text: "[paste]\nservice = nosuch\n",
            stderr:
                "paste: CONFIG:2: unknown service 'nosuch'; known: dpaste, paste.rs, termbin, 0x0, bpa.st, privatebin\n"
                + "paste: 'paste --list-services' shows them all\n"),
        Case(
            name: "base naming nothing known", text: "[service \"x\"]\nbase = pastie\nurl = MOCK/json\n",
            stderr:
                "paste: CONFIG:2: bad value 'pastie' for 'base': expected a built-in service or one configured above this one\n"
        ),
    ]

    @Test("each error class", arguments: cases)
    func errorClass(_ item: Case) throws {
        let path = try paste.writeConfig(
            item.text.replacingOccurrences(of: "MOCK", with: mock.baseURL), mode: item.mode)
        let result = try paste.run(["--no-copy"], stdin: "never sent\n")
        #expect(result.status == 78)
        #expect(result.err == item.stderr.replacingOccurrences(of: "CONFIG", with: path))
        #expect(result.out == "")
        #expect(try mock.requests().isEmpty)
        #expect(try paste.outboxContents().isEmpty)
    }

    @Test("an unknown -S name is a config error too, listing what is known")
    func unknownFlagService() throws {
        let result = try paste.run(["-S", "nosuch"], stdin: "x\n")
        #expect(result.status == 78)
        #expect(
            result.err
                == "paste: unknown service 'nosuch'; known: dpaste, paste.rs, termbin, 0x0, bpa.st, privatebin\n"
                + "paste: 'paste --list-services' shows them all\n")
    }

    @Test("a literal secret in a private (0600) file is accepted")
    func privateLiteralSecret() throws {
        try paste.writeConfig(
            "[service \"x\"]\nurl = \(mock.url("/json"))\nheader = Authorization: Bearer abc123\nresult = json:/data/url\n"
        )
        let result = try paste.run(["-S", "x", "--no-copy"], stdin: "fine\n")
        #expect(result.status == 0)
        #expect(try mock.requests().first?.header("Authorization") == "Bearer abc123")
    }
}
