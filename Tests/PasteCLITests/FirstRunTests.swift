import Foundation
import PasteCore
import Testing
import TestSupport

/// A newcomer's first run (issue 27): with no config, the first upload names its public
/// destination once, before the request; `--help` names the default; `--init-config` writes a
/// commented starter config and never replaces one.
@Suite("A newcomer's first run: the default service said once, a starter config", .temporaryHome)
struct FirstRunTests: ScopedSuite {
    /// The line the first upload with no config says before its request.
    static let noticeLine =
        "paste: no config: this goes to dpaste.com, a public pastebin (said once); -S NAME sends it elsewhere, "
        + "'paste --init-config' writes a config to choose\n"

    /// A runner whose uploads to any outside host stop at a SOCKS5 proxy on 127.0.0.1 that
    /// resolves no name: nothing leaves the machine and no name is looked up.
    func offline(_ socks: FixtureServer) -> PasteRunner {
        var paste = paste
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY", "PASTE_SERVICE"] {
            paste.extraEnvironment[name] = .some(nil)
        }
        paste.extraEnvironment["all_proxy"] = "socks5h://127.0.0.1:\(socks.port)"
        return paste
    }

    @Test("the first upload with no config names dpaste.com before the request, once per machine")
    func defaultServiceSaidOnce() throws {
        let socks = try FixtureServer.socks5Proxy()
        let paste = offline(socks)
        let first = try paste.run(["--no-copy"], stdin: "first\n")
        #expect(first.status == 75)
        let refused =
            "paste: proxy 127.0.0.1:\(socks.port) failed: Can't complete SOCKS5 connection to dpaste.com. (4)\n"
        let ids = try paste.outboxIDs()
        #expect(ids.count == 1)
        #expect(first.err == Self.noticeLine + refused + keptLine(id: ids[0], isHeld: false) + "\n")
        // Said before the request: the proxy saw the connection after it.
        try socks.waitForLog("the request") { $0.contains("dpaste.com:443") }
        let mark = home.stateHome.appendingPathComponent("paste/default-service-told").path
        #expect(FileManager.default.fileExists(atPath: mark))

        let second = try paste.run(["--no-copy"], stdin: "second\n")
        #expect(second.status == 75)
        let id = try #require(try paste.outboxIDs().last)
        #expect(second.err == refused + keptLine(id: id, isHeld: false) + "\n")
    }

    @Test("nothing is said when -S, PASTE_SERVICE, a config or a dry run is there", arguments: [0, 1, 2, 3])
    func notSaidWhenChosen(_ variant: Int) throws {
        let socks = try FixtureServer.socks5Proxy()
        var paste = offline(socks)
        var arguments = ["--no-copy"]
        switch variant {
        case 0: arguments += ["-S", "dpaste"]
        case 1: paste.extraEnvironment["PASTE_SERVICE"] = "dpaste"
        case 2: try paste.writeConfig("[paste]\nretries = 0\n")
        default: arguments += ["-n"]
        }
        let result = try paste.run(arguments, stdin: "chosen\n")
        #expect(!result.err.contains("no config:"), "stderr: \(result.err)")
        let mark = home.stateHome.appendingPathComponent("paste/default-service-told").path
        #expect(!FileManager.default.fileExists(atPath: mark))
    }

    @Test("--help names the default service and --init-config")
    func helpNamesDefault() throws {
        let help = try paste.run(["--help"])
        #expect(help.status == 0)
        #expect(
            help.out.contains(
                "With no config it goes to dpaste (dpaste.com, public): -S NAME sends\n"
                    + "it elsewhere, and --init-config writes a config that chooses for good.\n"))
        #expect(help.out.contains("  --init-config"))
    }

    @Test("--init-config writes the commented starter config, 0600, and never replaces a file")
    func initConfig() throws {
        let written = try paste.run(["--init-config"])
        #expect(written.status == 0)
        #expect(written.out == "")
        #expect(
            written.err
                == "paste: wrote a starter config to '\(paste.configPath)': 'service =' there chooses where pastes go\n"
        )
        let text = try String(contentsOfFile: paste.configPath, encoding: .utf8)
        #expect(text == StarterConfig.text)
        let mode = try FileManager.default.attributesOfItem(atPath: paste.configPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        for profile in BuiltInServices.all {
            #expect(text.contains("#   \(profile.name)"), "names \(profile.name)")
        }
        #expect(text.contains("\n    service = dpaste\n"))

        // It is a config paste reads as it is: the default marked, no error.
        let listed = try paste.run(["--list-services"])
        #expect(listed.status == 0, "stderr: \(listed.err)")
        #expect(listed.err == "")
        #expect(listed.out.hasPrefix("* dpaste "))

        try paste.writeConfig("[paste]\nservice = mine\n")
        let again = try paste.run(["--init-config"])
        #expect(again.status == 78)
        #expect(
            again.err
                == "paste: config '\(paste.configPath)' exists already; --init-config leaves it as it is\n"
                + "paste: 'paste --init-config --config FILE' writes one elsewhere to compare\n")
        #expect(try String(contentsOfFile: paste.configPath, encoding: .utf8) == "[paste]\nservice = mine\n")

        let elsewhere = home.configHome.appendingPathComponent("paste/starter").path
        let other = try paste.run(["--init-config", "--config", elsewhere, "-q"])
        #expect(other.status == 0)
        #expect(other.err == "")
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == StarterConfig.text)
    }

    @Test("the starter config parses and chooses the built-in default")
    func starterConfigParses() throws {
        let file = try ConfigFile(parsing: StarterConfig.text, path: "starter")
        let configuration = try Configuration(file: file)
        #expect(configuration.settings.service == BuiltInServices.defaultName)
        #expect(configuration.services.map(\.name) == BuiltInServices.all.map(\.name))
    }
}
