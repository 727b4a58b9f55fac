import Testing

@testable import PasteCLI

/// The output funnel masks registered values wherever paste prints or stores them.
@Suite("Output funnel: the redactor")
struct RedactorTests {
    @Test("masks every registered value wherever it appears, the longest first; text passes unchanged until one is")
    func masks() {
        let redactor = Redactor()
        #expect(redactor.redact("token abcd1234 here") == "token abcd1234 here")
        redactor.register("abcd")
        redactor.register("abcd1234")
        redactor.register("xy")  // too short to mask: it would garble every line
        #expect(
            redactor.redact("token abcd1234 here, abcd there, xy") == "token [redacted] here, [redacted] there, xy")
    }

    @Test("every copy of an Output masks what any copy registered")
    func shared() {
        var output = Output(environment: [:])
        let copy = output
        output.isQuiet = true
        output.redactor.register("secret-value")
        #expect(copy.shown("a secret-value, twice: secret-value") == "a [redacted], twice: [redacted]")
    }
}
