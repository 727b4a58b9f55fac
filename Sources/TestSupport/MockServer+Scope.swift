// Only where Swift Testing can be imported: scripts/install builds every target, this one too,
// with --static-swift-stdlib, whose resource folder holds no Testing module.
#if canImport(Testing)
    import Foundation
    import Testing

    /// A `paste-mock` for each test (and each case of a parameterized test), stopped when the test
    /// ends.
    ///
    /// Inside the scope the mock is `MockServer.current` (`mock` in a `ScopedSuite`). A test's own
    /// `.mock(…)` replaces its suite's, so a suite can say `.mock` once and the one test that needs
    /// a fault from the start says `.mock(arguments: ["--fault", …])`. A mock that cannot start
    /// fails the test with the reason.
    public struct MockServerScope: SuiteTrait, TestTrait, TestScoping, Equatable {
        /// Command-line arguments after `--port 0` (see `MockServer.init`).
        public var arguments: [String]
        /// Whether the termbin-style listener is opened too.
        public var tcp: Bool
        /// Tells this application of the trait from another with the same arguments.
        private let identity = UUID()

        /// Each test of a suite gets a mock of its own.
        public var isRecursive: Bool { true }

        /// Scopes each test case, with the innermost `.mock` only: a test's own replaces its suite's.
        public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
            guard testCase != nil, !test.isSuite else { return nil }
            // A test's traits list its suites' recursive traits first, then its own.
            return test.traits.last { $0 is Self } as? Self == self ? self : nil
        }

        /// Starts the mock, runs `function` with it as `MockServer.current`, then stops it.
        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let mock = try MockServer(arguments: arguments, tcp: tcp)
            // As when a test's own mock was released: a mock that will not stop is not the test's failure.
            defer { _ = try? mock.stop() }
            try await MockServer.$scoped.withValue(mock) { try await function() }
        }
    }

    extension Trait where Self == MockServerScope {
        /// A `paste-mock --port 0` for each test.
        public static var mock: Self { Self(arguments: [], tcp: false) }

        /// A `paste-mock --port 0 ARGUMENTS…` for each test; with `tcp`, also `--tcp-port 0`.
        public static func mock(arguments: [String] = [], tcp: Bool = false) -> Self {
            Self(arguments: arguments, tcp: tcp)
        }
    }

    extension MockServer {
        /// The mock of the enclosing `.mock` scope, if any.
        @TaskLocal public static var scoped: MockServer?

        /// The mock of the enclosing `.mock` scope.
        ///
        /// Reading it outside one is a mistake in the test, and stops the run.
        public static var current: MockServer {
            guard let scoped else { preconditionFailure("no paste-mock here: the suite or test needs the .mock trait") }
            return scoped
        }
    }
#endif
