import PasteCLI
import Testing

/// The option table against `OptionID`: the parser switches over every case, so a case the
/// table lacks could never be typed, and a row twice would shadow the second.
@Suite("Option table")
struct OptionTableTests {
    @Test("lists every option once, in the order of OptionID's cases")
    func everyOptionOnce() {
        #expect(optionTable.map(\.id) == OptionID.allCases)
    }

    @Test("gives no short letter to two options")
    func shortLettersAreUnique() {
        let letters = optionTable.compactMap(\.short)
        #expect(Set(letters).count == letters.count)
    }
}
