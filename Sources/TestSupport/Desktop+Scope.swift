// Only where Swift Testing can be imported (see Sway+Scope.swift).
#if canImport(Testing)
    import Foundation
    import Testing

    extension Tag {
        /// Tests on a KDE or GNOME compositor (`Desktop`, the `.desktop(_:)` trait): each starts
        /// a kwin_wayland or mutter of its own. scripts/test runs them in a phase of their own.
        ///
        /// Every suite or test with this tag also carries `.needsDesktop(_:)`.
        @Tag public static var desktops: Self

        /// Tests on Debian sid's compositors (sway 1.12, kwin_wayland 6.7, labwc, mutter 51), run
        /// from the root scripts/test-desktops-sid makes (`RootFileSystem.sid`): a phase of
        /// their own (`scripts/test --desktops-sid`).
        ///
        /// Every suite or test with this tag also carries `.needsSidRoot`.
        @Tag public static var desktopsSid: Self
    }

    extension Trait where Self == ConditionTrait {
        /// Runs a `.desktops` test only where the desktop's compositor is installed; under
        /// `scripts/test` (`PASTE_TEST_REQUIRE_DISPLAY=1`) a missing one is a failure of every
        /// such test, never a skip, as for `.needsCompositor`.
        public static func needsDesktop(_ kind: Desktop.Kind) -> Self {
            .enabled("needs \(kind.executable), which is not installed (scripts/bootstrap installs it)") {
                if kind.isInstalled { return true }
                guard ProcessInfo.processInfo.environment[XServerRequirement.requiredVariable] == "1" else {
                    return false
                }
                throw DesktopError(
                    reason: "\(XServerRequirement.requiredVariable)=1 but \(kind.executable) is not installed")
            }
        }
    }

    extension Trait where Self == ConditionTrait {
        /// Runs a `.desktopsSid` test only where the sid desktops' root is named
        /// (`PASTE_SID_ROOT`, set by scripts/test-desktops-sid); under `scripts/test`
        /// (`PASTE_TEST_REQUIRE_DISPLAY=1`) a missing one is a failure, never a skip.
        public static var needsSidRoot: Self {
            .enabled("needs the sid desktops' root (scripts/test-desktops-sid makes it and sets PASTE_SID_ROOT)") {
                if let root = RootFileSystem.sid {
                    guard FileManager.default.fileExists(atPath: root + "/usr/bin/sway") else {
                        throw DesktopError(reason: "\(RootFileSystem.sidVariable)=\(root) holds no usr/bin/sway")
                    }
                    return true
                }
                guard ProcessInfo.processInfo.environment[XServerRequirement.requiredVariable] == "1" else {
                    return false
                }
                throw DesktopError(
                    reason: "\(XServerRequirement.requiredVariable)=1 but \(RootFileSystem.sidVariable) is not set "
                        + "(run the sid desktops through scripts/test --desktops-sid)")
            }
        }
    }

    /// A private compositor of one desktop for each test, stopped when the test ends; inside it
    /// the compositor is `Desktop.current`. One that cannot start fails the test.
    public struct DesktopScope: TestTrait, SuiteTrait, TestScoping {
        /// Which desktop.
        public var kind: Desktop.Kind
        public var isRecursive: Bool { true }

        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let compositor = try Desktop(kind)
            defer { compositor.stop() }
            try await Desktop.$scoped.withValue(compositor) { try await function() }
        }
    }

    extension Trait where Self == DesktopScope {
        /// A private compositor of `kind` for each test (and each case of a parameterized test).
        public static func desktop(_ kind: Desktop.Kind) -> Self { Self(kind: kind) }
    }

    extension Desktop {
        /// The compositor of the enclosing `.desktop(_:)` scope, if any.
        @TaskLocal public static var scoped: Desktop?

        /// The compositor of the enclosing scope; reading it outside one stops the run.
        public static var current: Desktop {
            guard let scoped else { preconditionFailure("no desktop here: the suite or test needs .desktop(_:)") }
            return scoped
        }
    }

    extension ScopedSuite {
        /// The test's KDE or GNOME compositor (`.desktop(_:)`).
        public var desktop: Desktop { .current }
    }
#endif
