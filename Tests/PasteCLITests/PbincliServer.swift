import Foundation
import Testing
import TestSupport

/// pbincli's `get` for a whole suite in one Python process (`Fixtures/pbincli_get.py`), on
/// 127.0.0.1 on a port the OS picks, in a home of its own (pbincli reads ~/.config/pbincli)
/// with no proxy in the way; stopped, and its home removed, when the suite ends.
///
/// One `pbincli get` as a program of its own cost about 2 s of CPU, most of it the key's
/// derivation by a Python PRF; the fixture says what it runs in its place and why.
final class PbincliServer: Sendable {
    private let server: ServerProcess
    private let home: URL

    /// Raised when the server answers other than 200.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init() throws {
        let python = ServerProcess.packageRoot.appendingPathComponent(".build/venv/bin/python").path
        try #require(
            FileManager.default.isExecutableFile(atPath: python), "\(python) is missing: run scripts/bootstrap")
        home = FileManager.default.temporaryDirectory.appendingPathComponent("pbincli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            environment[name] = nil
        }
        environment["NO_PROXY"] = "127.0.0.1,localhost"
        environment["HOME"] = home.path
        do {
            server = try ServerProcess(
                python, [FixtureServer.folder.appendingPathComponent("pbincli_get.py").path],
                environment: environment, currentDirectory: home.path)
        } catch {
            try? FileManager.default.removeItem(at: home)
            throw error
        }
    }

    /// Stops the server and removes its home.
    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: home)
    }

    /// `pbincli get -o FOLDER LINK` in `folder`: its exit status and what it printed.
    func get(_ link: String, into folder: String) throws -> (status: Int32, output: String) {
        let request = try JSONSerialization.data(withJSONObject: ["link": link, "folder": folder])
        let result = try runProcess(
            "/usr/bin/curl",
            [
                "-sS", "--fail", "--noproxy", "*", "--max-time", "120", "-H", "Content-Type: application/json",
                "--data-binary", "@-", server.baseURL + "/",
            ], input: .bytes(request), timeout: 130)
        guard result.status == 0,
            let answer = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
            let status = answer["status"] as? Int, let output = answer["output"] as? String
        else {
            throw Failure(description: "pbincli_get.py: curl \(result.status): \(result.err)\n\(server.log)")
        }
        return (Int32(status), output)
    }
}

/// One `PbincliServer` for all the tests of a suite: `PbincliServer.current` inside it.
struct PbincliScope: SuiteTrait, TestScoping {
    /// It wraps the suite, once.
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try PbincliServer()
        defer { server.stop() }
        try await PbincliServer.$scoped.withValue(server) { try await function() }
    }
}

extension Trait where Self == PbincliScope {
    /// One pbincli `get` server for the whole suite.
    static var pbincli: Self { Self() }
}

extension PbincliServer {
    /// The server of the enclosing `.pbincli` scope, if any.
    @TaskLocal static var scoped: PbincliServer?

    /// The server of the enclosing `.pbincli` scope.
    ///
    /// Reading it outside one is a mistake in the test, and stops the run.
    static var current: PbincliServer {
        guard let scoped else { preconditionFailure("no pbincli server here: the suite needs the .pbincli trait") }
        return scoped
    }
}
