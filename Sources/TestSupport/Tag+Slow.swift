// Only where Swift Testing can be imported (see Tag+X11.swift).
#if canImport(Testing)
    import Testing

    extension Tag {
        /// Tests that take more than about 20 seconds alone (a static release build, the random
        /// kill harness, streams of hundreds of megabytes): `scripts/test` runs them in a second
        /// phase, after every other test has given its verdict.
        ///
        /// `swift test` (6.3) cannot select by tag, so `scripts/test` asks the test binary: its
        /// `--list-tests` event stream names each test and suite with its tags (`tests_tagged`
        /// there), and the slow phase selects those ids. Tag a test or a whole suite.
        @Tag public static var slow: Self
    }
#endif
