// Only where Swift Testing can be imported: scripts/install builds every target, this one too,
// with --static-swift-stdlib, whose resource folder holds no Testing module.
#if canImport(Testing)
    import Foundation
    import Testing

    extension Tag {
        /// Tests that need a Wayland compositor: they start a private headless sway (`Sway`, the
        /// `.sway` trait) and talk to it natively, with wl-clipboard, and through XWayland.
        ///
        /// Every suite or test with this tag also carries `.needsCompositor`.
        @Tag public static var wayland: Self
    }

    extension Trait where Self == ConditionTrait {
        /// Runs a `.wayland` test only where sway is installed; under `scripts/test`
        /// (`PASTE_TEST_REQUIRE_DISPLAY=1`) a missing sway is a failure of every such test, never a
        /// skip, as for `.needsXServer`.
        public static var needsCompositor: Self {
            .enabled("needs sway, which is not installed (scripts/bootstrap installs it)") {
                if Sway.executable != nil { return true }
                guard ProcessInfo.processInfo.environment[XServerRequirement.requiredVariable] == "1" else {
                    return false
                }
                throw SwayError(
                    reason: "\(XServerRequirement.requiredVariable)=1 but sway is not installed (scripts/bootstrap)")
            }
        }
    }

    /// A private sway for each test, killed when the test ends; inside it the compositor is
    /// `Sway.current` (`sway` in a `ScopedSuite`). One that cannot start fails the test.
    public struct SwayScope: TestTrait, SuiteTrait, TestScoping {
        public var isRecursive: Bool { true }

        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let compositor = try Sway()
            defer { compositor.stop() }
            try await Sway.$scoped.withValue(compositor) { try await function() }
        }
    }

    extension Trait where Self == SwayScope {
        /// A private sway for each test (and each case of a parameterized test).
        public static var sway: Self { Self() }
    }

    extension Sway {
        /// The compositor of the enclosing `.sway` scope, if any.
        @TaskLocal public static var scoped: Sway?

        /// The compositor of the enclosing `.sway` scope; reading it outside one stops the run.
        public static var current: Sway {
            guard let scoped else { preconditionFailure("no sway here: the suite or test needs the .sway trait") }
            return scoped
        }
    }

    extension ScopedSuite {
        /// The test's compositor (`.sway`).
        public var sway: Sway { .current }
    }
#endif
