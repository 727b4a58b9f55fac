import Foundation
import Testing
import TestSupport

@Suite("Which service and which config file: flags > PASTE_SERVICE > config > built-ins", .temporaryHome, .mock)
struct ConfigPrecedenceTests: ScopedSuite {
    /// Four services, each on its own mock route, so the route a request reached tells which
    /// service sent it; dpaste (the built-in default) is pointed at the mock too.
    static func services(_ mock: MockServer, defaultService: String? = nil) -> String {
        var text = defaultService.map { "[paste]\n    service = \($0)\n" } ?? ""
        text += """
            [service "dpaste"]
                url = \(mock.url("/api/v2/"))
            [service "by-config"]
                url = \(mock.url("/json"))
                result = json:/data/url
            [service "by-env"]
                url = \(mock.url("/location"))
                format = form
                result = location
            [service "by-flag"]
                url = \(mock.url("/pasters/"))
                format = raw
                result = body

            """
        return text
    }

    /// Uploads once and returns the path the mock saw.
    static func route(_ paste: PasteRunner, _ mock: MockServer, _ arguments: [String] = [], text: String) throws
        -> String?
    {
        try mock.clearRequests()
        let result = try paste.run(arguments + ["--no-copy"], stdin: text)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        return try mock.requests().first?.path
    }

    @Test("the built-in default, then [paste] service, then PASTE_SERVICE, then -S")
    func precedence() throws {
        var paste = paste
        // The built-in default, once chosen (with nothing chosen paste asks first: ConsentTests).
        try paste.writeConfig(Self.services(mock, defaultService: "dpaste"))
        #expect(try Self.route(paste, mock, text: "default\n") == "/api/v2/")

        try paste.writeConfig(Self.services(mock, defaultService: "by-config"))
        #expect(try Self.route(paste, mock, text: "config\n") == "/json")

        paste.extraEnvironment["PASTE_SERVICE"] = "by-env"
        #expect(try Self.route(paste, mock, text: "environment\n") == "/location")
        #expect(try Self.route(paste, mock, ["-S", "by-flag"], text: "flag\n") == "/pasters/")
        #expect(try Self.route(paste, mock, ["--service", "by-config"], text: "long flag\n") == "/json")
        #expect(
            try Self.route(paste, mock, ["--url", mock.url("/pastes/create")], text: "url flag\n") == "/pastes/create")
    }

    @Test("an empty PASTE_SERVICE counts as unset")
    func emptyEnvironment() throws {
        var paste = paste
        try paste.writeConfig(Self.services(mock, defaultService: "by-config"))
        paste.extraEnvironment["PASTE_SERVICE"] = ""
        #expect(try Self.route(paste, mock, text: "x\n") == "/json")
    }

    @Test("--config FILE is read instead of the default file")
    func configFlag() throws {
        try paste.writeConfig("[paste]\nservice = by-config\n" + Self.services(mock))
        let other = try paste.home.write(Self.services(mock, defaultService: "by-flag"), to: "elsewhere.conf")
        #expect(try Self.route(paste, mock, ["--config", other], text: "x\n") == "/pasters/")
    }

    @Test("PASTE_CONFIG names the file; --config wins over it")
    func configEnvironment() throws {
        var paste = paste
        let fromEnvironment = try paste.home.write(Self.services(mock, defaultService: "by-env"), to: "env.conf")
        let fromFlag = try paste.home.write(Self.services(mock, defaultService: "by-flag"), to: "flag.conf")
        paste.extraEnvironment["PASTE_CONFIG"] = fromEnvironment
        #expect(try Self.route(paste, mock, text: "env\n") == "/location")
        #expect(try Self.route(paste, mock, ["--config", fromFlag], text: "flag\n") == "/pasters/")
    }

    @Test("a missing --config or PASTE_CONFIG file is an error; a missing default file is not")
    func missingFiles() throws {
        var paste = paste
        let missing = paste.home.root.appendingPathComponent("nope.conf").path
        let flag = try paste.run(["--config", missing], stdin: "x\n")
        #expect(flag.status == 78)
        #expect(flag.err == "paste: cannot read config '\(missing)': no such file or directory\n")

        paste.extraEnvironment["PASTE_CONFIG"] = missing
        let environment = try paste.run([], stdin: "x\n")
        #expect(environment.status == 78)
        #expect(environment.err == "paste: cannot read config '\(missing)': no such file or directory\n")

        paste.extraEnvironment["PASTE_CONFIG"] = nil
        let listed = try paste.run(["--list-services"])
        #expect(listed.status == 0)
        #expect(listed.err == "")
    }
}
