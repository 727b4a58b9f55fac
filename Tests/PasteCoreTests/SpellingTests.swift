import PasteCore
import Testing

@Suite("Spelling: the one edit-distance helper behind every \"did you mean\"")
struct SpellingTests {
    @Test(
        "distance counts insertions, deletions, substitutions and neighbour swaps as one each",
        arguments: [
            ("servce", "service", 1), ("sevrice", "service", 1), ("service", "service", 0), ("Service", "service", 0),
            ("", "url", 3), ("url", "uri", 1), ("kitten", "sitting", 3),
        ])
    func distance(_ first: String, _ second: String, _ expected: Int) {
        #expect(Spelling.distance(first, second) == expected)
        #expect(Spelling.distance(second, first) == expected)
    }

    @Test("a suggestion is close (two edits at most, under half the length), never the word itself")
    func suggestion() {
        #expect(Spelling.suggestion(for: "servce", among: Settings.configKeys) == "service")
        #expect(Spelling.suggestion(for: "proxi", among: Settings.configKeys) == "proxy")
        #expect(Spelling.suggestion(for: "colour", among: Settings.configKeys) == nil)
        #expect(Spelling.suggestion(for: "service", among: Settings.configKeys) == nil)
        #expect(Spelling.suggestion(for: "ab", among: ["xy", "url"]) == nil)
        #expect(Spelling.suggestion(for: String(repeating: "x", count: 100_000), among: ["service"]) == nil)
    }

    @Test("the key lists are the keys the config accepts, in paste-config(5)'s order")
    func keyLists() {
        #expect(Settings.configKeys.count == Set(Settings.configKeys).count)
        #expect(ServiceProfile.configKeys.count == Set(ServiceProfile.configKeys).count)
    }
}
