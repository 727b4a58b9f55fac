import Foundation
import PasteCore
import Testing
import TestSupport

/// Nothing goes to a public service the person has not chosen (issue 40): with no `service =`,
/// `-S`, `--url` or `PASTE_SERVICE`, paste asks before the first upload (on the terminal, in a
/// notification, in a window) and, where nobody can be asked, sends nothing and exits 78.
///
/// The built-in default is moved to the mock here (`[service "dpaste"] url = …`): a section
/// that only moves a built-in chooses nothing, so the question is asked as it would be for
/// dpaste.com, and the mock shows whether anything was sent.
@Suite("Consent before the first public upload", .temporaryHome, .mock)
struct ConsentTests: ScopedSuite {
    /// The default moved to the mock, nothing chosen.
    var movedDefault: String { "[paste]\nretries = 0\n[service \"dpaste\"]\nurl = \(mock.url("/api/v2/"))\n" }

    /// The line paste says where nobody can be asked.
    func nobodyAsked(host: String, configPath: String) -> String {
        "paste: no service chosen, so nothing was sent to \(host) (public) without asking: use -S NAME, or put "
            + "'service = NAME' under [paste] in '\(configPath)' ('paste --list-services')\n"
    }

    @Test("no terminal and no display (cron): exit 78, one line, no request, an empty outbox")
    func nobodyToAsk() throws {
        try paste.writeConfig(movedDefault)
        let result = try paste.run(["--no-copy"], stdin: "from cron\n")
        #expect(result.status == 78)
        #expect(result.out == "")
        #expect(result.err == nobodyAsked(host: "127.0.0.1", configPath: paste.configPath))
        #expect(try mock.requests().isEmpty)
        #expect(try paste.outboxIDs().isEmpty)
        #expect(try paste.historyLines().isEmpty)
    }

    @Test("a text the service's format refuses is refused without a question: 65, not 78, nothing sent")
    func refusedBeforeAsking() throws {
        try paste.writeConfig(movedDefault)
        // Latin-1: dpaste's form carries only UTF-8.
        let result = try paste.run(["--no-copy"], input: .bytes(Data("caf".utf8) + Data([0xE9, 0x0A])))
        #expect(result.status == 65, "stderr: \(result.err)")
        #expect(result.err.contains(" is not UTF-8 (byte offset 3), and format = form"), "\(result.err)")
        #expect(try mock.requests().isEmpty)
        #expect(try paste.outboxIDs().isEmpty)
    }

    @Test("with no config at all nothing is looked up or sent: the line names dpaste.com")
    func noConfigAtAll() throws {
        var paste = paste
        // Were anything sent, it would stop at a port nobody listens on, not at dpaste.com.
        paste.extraEnvironment["all_proxy"] = "socks5h://127.0.0.1:9"
        paste.extraEnvironment["PASTE_SERVICE"] = .some(nil)
        let result = try paste.run([], stdin: "first\n")
        #expect(result.status == 78)
        #expect(result.err == nobodyAsked(host: "dpaste.com", configPath: paste.configPath))
        #expect(try paste.outboxIDs().isEmpty)
    }

    @Test(
        "a choice asks nothing: -S, --url, PASTE_SERVICE, service = in the config; a dry run neither", arguments: 0..<5)
    func choiceAsksNothing(_ variant: Int) throws {
        var paste = paste
        var arguments = ["--no-copy"]
        var config = movedDefault
        switch variant {
        case 0: arguments += ["-S", "dpaste"]
        case 1: arguments += ["--url", mock.url("/pastes/create")]
        case 2: paste.extraEnvironment["PASTE_SERVICE"] = "dpaste"
        case 3: config = config.replacing("[paste]\n", with: "[paste]\nservice = dpaste\n")
        default: arguments += ["-n"]
        }
        try paste.writeConfig(config)
        let result = try paste.run(arguments, stdin: "chosen\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(!result.err.contains("no service chosen"), "stderr: \(result.err)")
        #expect(try mock.posts().count == (variant == 4 ? 0 : 1))
    }

    // MARK: - At a terminal

    /// Runs paste on a new terminal (stdin from a file, so `dmesg | paste`'s case) and answers
    /// each question with the next of `answers`, checking `beforeAnswer` while paste waits.
    func onTerminal(
        _ arguments: [String], stdin: String, answers: [String], beforeAnswer: () throws -> Void = {}
    ) throws -> ProcessResult {
        let folder = home.root.appendingPathComponent("pty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let input = folder.appendingPathComponent("stdin")
        try Data(stdin.utf8).write(to: input)
        let asked = folder.appendingPathComponent("asked").path
        let answer = folder.appendingPathComponent("answer").path
        let run = try Launched(
            "/usr/bin/python3",
            [
                fixtures.appendingPathComponent("pty_answer.py").path, input.path, asked, answer, "--",
                BuiltProducts.path(of: "paste"),
            ] + arguments, environment: paste.environment)
        for (index, text) in answers.enumerated() {
            try waitUntil("question \(index + 1) on the terminal", timeout: 30) {
                FileManager.default.fileExists(atPath: asked + "\(index + 1)")
            }
            try beforeAnswer()
            try Data(text.utf8).write(to: URL(fileURLWithPath: answer + "\(index + 1)"))
        }
        return try run.wait(timeout: 60)
    }

    static let question =
        "paste: no service is chosen yet, so this would go to 127.0.0.1, a public pastebin: anyone with the "
        + "link can read it.\r\nUpload it there? [o]nce, [a]lways (kept in the config), [c]hoose another, [N]o: "

    @Test(
        "at a terminal, stdin a pipe: the question on the terminal, nothing sent before 'once', asked again next time")
    func terminalOnce() throws {
        try paste.writeConfig(movedDefault)
        let first = try onTerminal([], stdin: "shared once\n", answers: ["o\n"]) {
            let sent = try mock.requests()
            #expect(sent.isEmpty)
        }
        #expect(first.status == 0, "terminal: \(first.out)")
        #expect(first.out.hasPrefix(Self.question + "o\r\n"), "terminal: \(first.out)")
        #expect(try mock.pastes().map(\.data) == [Data("shared once\n".utf8)])
        #expect(try String(contentsOfFile: paste.configPath, encoding: .utf8) == movedDefault)

        let second = try onTerminal([], stdin: "asked again\n", answers: ["\n"])
        #expect(second.status == 130)
        #expect(
            second.out == Self.question + "\r\npaste: cancelled; nothing was uploaded\r\n", "terminal: \(second.out)")
        #expect(try mock.pastes().count == 1)
        #expect(try paste.outboxIDs().isEmpty)
    }

    @Test("'always' is kept in the config, in words, and nothing is asked again")
    func terminalAlways() throws {
        try paste.writeConfig(movedDefault)
        let first = try onTerminal(["-q"], stdin: "always there\n", answers: ["a\n"])
        #expect(first.status == 0, "terminal: \(first.out)")
        let config = try String(contentsOfFile: paste.configPath, encoding: .utf8)
        #expect(
            config
                == "[paste]\n    # chosen when paste asked before its first upload; any name from "
                + "'paste --list-services' works\n    service = dpaste\nretries = 0\n[service \"dpaste\"]\n"
                + "url = \(mock.url("/api/v2/"))\n")
        let second = try paste.run(["--no-copy"], stdin: "no question\n")
        #expect(second.status == 0, "stderr: \(second.err)")
        #expect(second.err == "")
        #expect(try mock.pastes().count == 2)
    }

    @Test("'choose another' at a terminal: the text goes there, and the choice is kept")
    func terminalChooses() throws {
        try paste.writeConfig(
            movedDefault + "[service \"mine\"]\nurl = \(mock.url("/pastes/create"))\n"
                + "content-field = paste[body]\nfield = paste[authorization]=burger\n")
        let result = try onTerminal([], stdin: "to mine\n", answers: ["c\n", "mine\n"])
        #expect(result.status == 0, "terminal: \(result.out)")
        #expect(
            result.out.contains(
                "Services: paste.rs, termbin, 0x0, bpa.st, privatebin, mine\r\nService: mine"))
        #expect(try mock.posts().map(\.path) == ["/pastes/create"])
        #expect(try String(contentsOfFile: paste.configPath, encoding: .utf8).contains("\n    service = mine\n"))
    }

    // MARK: - At a hotkey

    @Test(
        "at a hotkey with a notification server: the question's actions; upload and always send, cancel does not",
        arguments: ["upload", "always", "cancel"])
    func notificationQuestion(_ answer: String) throws {
        let bus = try SessionBus()
        let server = try RecordingNotificationServer(on: bus, answer: answer)
        let paste = try desktopRunner(home: home, bus: bus)
        try paste.writeConfig(movedDefault)
        let result = try paste.run(["--notify", "--no-copy"], stdin: "from a hotkey\n")
        let question = try #require(server.notifications.first)
        #expect(question["summary"] as? String == "Upload to a public pastebin?")
        #expect(
            question["body"] as? String
                == "No service is chosen yet, so this would go to 127.0.0.1, a public pastebin: anyone with the "
                + "link can read it. Upload it there?")
        #expect(
            question["actions"] as? [String]
                == ["upload", "Upload once", "always", "Always use dpaste", "cancel", "Cancel"])
        let config = try String(contentsOfFile: paste.configPath, encoding: .utf8)
        if answer == "cancel" {
            #expect(result.status == 130)
            #expect(result.err == "paste: cancelled; nothing was uploaded\n")
            #expect(try mock.requests().isEmpty)
            #expect(try paste.outboxIDs().isEmpty)
        } else {
            #expect(result.status == 0, "stderr: \(result.err)")
            #expect(try mock.pastes().map(\.data) == [Data("from a hotkey\n".utf8)])
        }
        #expect(config.contains("service = dpaste") == (answer == "always"))
    }
}
