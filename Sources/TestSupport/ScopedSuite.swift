// Only where Swift Testing can be imported: scripts/install builds every target, this one too,
// with --static-swift-stdlib, whose resource folder holds no Testing module.
#if canImport(Testing)
    /// A suite whose tests use, by name, what its scoping traits provide.
    ///
    /// `home` comes from `.temporaryHome`, `mock` from `.mock`, `xvfb` from `.xvfb` or
    /// `.sharedXvfb`, each made for the test and cleaned up after it. The suite's `init` runs inside
    /// those scopes too, so it may use them. Reading one whose trait the suite and test lack is a
    /// mistake in the test, and stops the run with a message naming the trait.
    ///
    /// They are task-local values: a thread the test starts itself does not see them, so it
    /// captures them first (`Thread.detachNewThread { [mock] in … }`).
    public protocol ScopedSuite {}

    extension ScopedSuite {
        /// The test's temporary home (`.temporaryHome`).
        public var home: TemporaryHome { .current }
        /// The test's paste-mock (`.mock`).
        public var mock: MockServer { .current }
        /// The test's (or the suite's) X server (`.xvfb`, `.sharedXvfb`).
        public var xvfb: Xvfb { .current }
    }
#endif
