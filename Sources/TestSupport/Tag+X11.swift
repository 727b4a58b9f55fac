// Only where Swift Testing can be imported: scripts/install builds every target, this one too,
// with --static-swift-stdlib, whose resource folder holds no Testing module.
#if canImport(Testing)
    import Foundation
    import Testing

    extension Tag {
        /// Tests that need an X server (STYLE rule 26): they start a private Xvfb (`Xvfb`, the
        /// `.xvfb` trait) and talk to it through Xlib, xclip, xsel or xdotool.
        ///
        /// Every suite or test with this tag also carries `.needsXServer`, which decides whether it
        /// runs.
        @Tag public static var x11: Self
    }

    extension Trait where Self == ConditionTrait {
        /// Runs an `.x11` test only where an X server can be had; under `scripts/test` a missing one
        /// is a failure, never a skip.
        ///
        /// "A display is present" means here that Xvfb is installed: every X test starts a private
        /// server of its own (`Xvfb`), none uses the caller's `DISPLAY`. Where Xvfb is missing, as on
        /// a laptop without it, `swift test` skips these tests. `scripts/test` (which CI runs) sets
        /// `PASTE_TEST_REQUIRE_DISPLAY=1`: there the condition throws instead, and Swift Testing
        /// records the thrown error as a failure of every `.x11` test, so a machine without Xvfb can
        /// never pass by skipping them.
        public static var needsXServer: Self {
            .enabled("needs an X server, and Xvfb is not installed (scripts/bootstrap installs it)") {
                try XServerRequirement.isMet(environment: ProcessInfo.processInfo.environment)
            }
        }
    }

    /// Whether `.x11` tests can run here, and whether they must.
    public enum XServerRequirement {
        /// The variable `scripts/test` sets to `1`, turning a missing X server into a failure.
        public static let requiredVariable = "PASTE_TEST_REQUIRE_DISPLAY"

        /// Whether an X server can be started: whether `xvfb` (the installed Xvfb, if any) is there.
        ///
        /// - Throws: `XvfbError` when it cannot but `environment` says it must
        ///   (`PASTE_TEST_REQUIRE_DISPLAY=1`).
        public static func isMet(environment: [String: String], xvfb: String? = Xvfb.executable) throws -> Bool {
            if xvfb != nil { return true }
            guard environment[requiredVariable] == "1" else { return false }
            throw XvfbError(
                reason:
                    "\(requiredVariable)=1 but Xvfb is not installed: the X11 tests must run here (scripts/bootstrap)")
        }
    }
#endif
