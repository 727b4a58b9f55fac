import Testing
import TestSupport

/// A `TestServer` (HTTP mode) for each test, stopped when the test ends.
///
/// Inside the scope the server is `TestServer.current` (`server` in a `ScopedSuite`).
struct TestServerScope: SuiteTrait, TestTrait, TestScoping {
    /// Each test of a suite gets a server of its own.
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try TestServer()
        try await TestServer.$scoped.withValue(server) { try await function() }
    }
}

extension Trait where Self == TestServerScope {
    /// A Python test server for each test.
    static var testServer: Self { Self() }
}

extension TestServer {
    /// The server of the enclosing `.testServer` scope, if any.
    @TaskLocal static var scoped: TestServer?
}

extension ScopedSuite {
    /// The test's server (`.testServer`); reading it outside that scope stops the run.
    var server: TestServer {
        guard let server = TestServer.scoped else {
            preconditionFailure("no test server here: the suite or test needs the .testServer trait")
        }
        return server
    }
}
