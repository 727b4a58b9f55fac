// Only where Swift Testing can be imported: scripts/install builds every target, this one too,
// with --static-swift-stdlib, whose resource folder holds no Testing module.
#if canImport(Testing)
    import Testing

    /// A fresh `TemporaryHome` for each test (and each case of a parameterized test), removed when
    /// the test ends (STYLE rule 27).
    ///
    /// Inside the scope the home is `TemporaryHome.current` (`home` in a `ScopedSuite`). Its XDG
    /// variables are set in the environment it hands to children and to `Context`
    /// (`TemporaryHome.environment`), never in the test process's own, which tests running in
    /// parallel share.
    public struct TemporaryHomeScope: SuiteTrait, TestTrait, TestScoping {
        /// Each test of a suite gets a home of its own.
        public var isRecursive: Bool { true }

        /// Makes a home, runs `function` with it as `TemporaryHome.current`, then removes it.
        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let home = try TemporaryHome()
            defer { home.remove() }
            try await TemporaryHome.$scoped.withValue(home) { try await function() }
        }
    }

    extension Trait where Self == TemporaryHomeScope {
        /// A temporary home with its own XDG folders for each test, removed afterwards.
        public static var temporaryHome: Self { Self() }
    }

    extension TemporaryHome {
        /// The home of the enclosing `.temporaryHome` scope, if any.
        @TaskLocal public static var scoped: TemporaryHome?

        /// The home of the enclosing `.temporaryHome` scope.
        ///
        /// Reading it outside one is a mistake in the test, and stops the run.
        public static var current: TemporaryHome {
            guard let scoped else {
                preconditionFailure("no home here: the suite or test needs the .temporaryHome trait")
            }
            return scoped
        }
    }
#endif
