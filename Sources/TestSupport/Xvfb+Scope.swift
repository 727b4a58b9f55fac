// Only where Swift Testing can be imported: scripts/install builds every target, this one too,
// with --static-swift-stdlib, whose resource folder holds no Testing module.
#if canImport(Testing)
    import Testing

    /// A private Xvfb for each test, or one for a whole suite, killed when its scope ends.
    ///
    /// Inside the scope the server is `Xvfb.current` (`xvfb` in a `ScopedSuite`). A server that
    /// cannot start fails the test (or the suite) with the reason. Pair it with `.tags(.x11)` and
    /// `.needsXServer` (STYLE rule 26).
    public struct XvfbScope: SuiteTrait, TestTrait, TestScoping {
        /// Whether one server serves every test of the suite, rather than one per test (and per
        /// case of a parameterized test).
        public var isShared: Bool

        /// A per-test server reaches each test of the suite; a shared one wraps the suite itself.
        public var isRecursive: Bool { !isShared }

        /// Starts a server, runs `function` with it as `Xvfb.current`, then kills it.
        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let server = try Xvfb()
            defer { server.stop() }
            try await Xvfb.$scoped.withValue(server) { try await function() }
        }
    }

    extension Trait where Self == XvfbScope {
        /// A private Xvfb for each test (and each case of a parameterized test).
        public static var xvfb: Self { Self(isShared: false) }

        /// One private Xvfb for all the tests of a suite (which then should be `.serialized`).
        public static var sharedXvfb: Self { Self(isShared: true) }
    }

    extension Xvfb {
        /// The server of the enclosing `.xvfb` or `.sharedXvfb` scope, if any.
        @TaskLocal public static var scoped: Xvfb?

        /// The server of the enclosing `.xvfb` or `.sharedXvfb` scope.
        ///
        /// Reading it outside one is a mistake in the test, and stops the run.
        public static var current: Xvfb {
            guard let scoped else { preconditionFailure("no Xvfb here: the suite or test needs the .xvfb trait") }
            return scoped
        }
    }
#endif
