import Testing
import TestSupport

/// The gate in front of every `.x11` test (`.needsXServer`): skip where no X server can be had,
/// except under `scripts/test`, where that is a failure.
@Suite("When the X11 tests run")
struct XServerRequirementTests {
    @Test("with Xvfb installed they run, whatever the environment")
    func installed() throws {
        #expect(try XServerRequirement.isMet(environment: [:], xvfb: "/usr/bin/Xvfb"))
        #expect(try XServerRequirement.isMet(environment: ["PASTE_TEST_REQUIRE_DISPLAY": "1"], xvfb: "/usr/bin/Xvfb"))
    }

    @Test("without Xvfb a plain swift test skips them")
    func skippedOutsideScripts() throws {
        #expect(try !XServerRequirement.isMet(environment: [:], xvfb: nil))
        #expect(try !XServerRequirement.isMet(environment: ["PASTE_TEST_REQUIRE_DISPLAY": "0"], xvfb: nil))
    }

    @Test("without Xvfb under scripts/test (PASTE_TEST_REQUIRE_DISPLAY=1) they fail, with the reason")
    func failsUnderScriptsTest() {
        let error = #expect(throws: XvfbError.self) {
            try XServerRequirement.isMet(environment: ["PASTE_TEST_REQUIRE_DISPLAY": "1"], xvfb: nil)
        }
        #expect(error?.reason.hasPrefix("PASTE_TEST_REQUIRE_DISPLAY=1 but Xvfb is not installed") == true)
    }
}
