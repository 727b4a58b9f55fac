import Testing

@testable import PasteCore

@Suite("The config key tables")
struct ConfigKeyTableTests {
    @Test("each table's rows are of its section, named once, each with a line of doc")
    func rows() {
        #expect(Settings.keys.allSatisfy { $0.section == .paste && !$0.doc.isEmpty })
        #expect(ServiceProfile.keys.allSatisfy { $0.section == .service && !$0.doc.isEmpty })
        #expect(Settings.keysByName.count == Settings.keys.count)
        #expect(ServiceProfile.keysByName.count == ServiceProfile.keys.count)
    }

    @Test("did-you-mean reads the same table that applies the keys")
    func spellingReadsTheTable() throws {
        #expect(Settings.configKeys == Settings.keys.map(\.name))
        #expect(ServiceProfile.configKeys == ServiceProfile.keys.map(\.name))
        let error = ConfigError.unknownKey(path: "c", line: 2, section: "service \"x\"", key: "pinned-pubkye")
        #expect(error.message.contains("did you mean 'pinned-pubkey'?"), "\(error.message)")
    }

    @Test("every key of the table is applied by its row")
    func everyRowApplies() throws {
        var settings = Settings()
        let entry = ConfigFile.Entry(section: "paste", subsection: nil, key: "timeout", value: "7", line: 3)
        try settings.apply(entry, path: "c")
        #expect(settings.timeouts.total == .seconds(7))
        #expect(throws: ConfigError.unknownKey(path: "c", line: 3, section: "paste", key: "timeuot")) {
            var copy = settings
            try copy.apply(
                ConfigFile.Entry(section: "paste", subsection: nil, key: "timeuot", value: "7", line: 3), path: "c")
        }
    }
}
