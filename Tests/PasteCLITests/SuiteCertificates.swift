import Foundation
import Testing
import TestSupport

/// Two throw-away CAs, each with its server and client certificates, for all the tests of a
/// suite (`.suiteCertificates`): made once when the suite starts, removed when it ends.
///
/// A `TestCertificates` is ten `openssl` runs; made per test (and twice or three times in
/// some), they were half of `TrustAndProxyTests`' CPU. Tests only read the files; one that
/// changes one (a key's mode) makes a set of its own.
final class SuiteCertificates: Sendable {
    /// The CA the tests' servers and proxies use.
    let main: TestCertificates
    /// Another CA: trusted where the servers' is not, to show what is then refused.
    let other: TestCertificates

    init() throws {
        main = try TestCertificates()
        other = try TestCertificates()
    }

    /// The sets of the enclosing `.suiteCertificates` scope, if any.
    @TaskLocal static var scoped: SuiteCertificates?

    /// The sets of the enclosing `.suiteCertificates` scope.
    ///
    /// Reading them outside one is a mistake in the test, and stops the run.
    static var current: SuiteCertificates {
        guard let scoped else { preconditionFailure("no certificates here: the suite needs .suiteCertificates") }
        return scoped
    }
}

/// One `SuiteCertificates` for all the tests of a suite: `SuiteCertificates.current` inside it.
struct SuiteCertificatesScope: SuiteTrait, TestScoping {
    /// It wraps the suite, once.
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await SuiteCertificates.$scoped.withValue(try SuiteCertificates()) { try await function() }
    }
}

extension Trait where Self == SuiteCertificatesScope {
    /// Two CAs made once for the whole suite.
    static var suiteCertificates: Self { Self() }
}
