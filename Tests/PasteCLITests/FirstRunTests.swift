import Foundation
import PasteCore
import Testing
import TestSupport

/// A newcomer's first run (issue 27): `--help` names the default; `--init-config` writes a
/// commented starter config and never replaces one. (The question before the first public
/// upload: `ConsentTests`.)
@Suite("A newcomer's first run: the default service named, a starter config", .temporaryHome)
struct FirstRunTests: ScopedSuite {
    @Test("--help names the default service and --init-config")
    func helpNamesDefault() throws {
        let help = try paste.run(["--help"])
        #expect(help.status == 0)
        #expect(
            help.out.contains(
                "With no service chosen it asks before sending to dpaste (dpaste.com, public);\n"
                    + "-S NAME sends elsewhere, and --init-config writes a config that chooses.\n"))
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
