import Foundation
import PasteCore
import Testing
import TestSupport

@testable import PasteCLI

/// The runner behind `${cmd:…}`: real processes, no shell of its own.
@Suite("Running ${cmd:…} commands")
struct CommandRunnerTests {
    let runner = CommandRunner()
    let environment = ["PATH": "/usr/bin:/bin"]

    @Test("stdout comes back; the program is found on PATH; arguments arrive as words, not shell text")
    func output() {
        let result = runner.run(
            ["printf", "%s|", "a b", "$HOME", "*"], environment: environment, timeout: .seconds(10))
        #expect(result == .success(Array("a b|$HOME|*|".utf8)))
    }

    @Test("stdin is /dev/null and stderr is not captured")
    func streams() {
        // cat ends at once on /dev/null; what goes to stderr never comes back.
        #expect(runner.run(["cat"], environment: environment, timeout: .seconds(10)) == .success([]))
        let result = runner.run(
            ["sh", "-c", "echo secret-on-stderr >&2; echo out"], environment: environment, timeout: .seconds(10))
        #expect(result == .success(Array("out\n".utf8)))
    }

    @Test("not found, a non-zero status and a signal are told apart")
    func failures() {
        #expect(
            runner.run(["no-such-program-xyz"], environment: environment, timeout: .seconds(10)) == .failure(.notFound))
        #expect(
            runner.run(["/nonexistent/tool"], environment: environment, timeout: .seconds(10)) == .failure(.notFound))
        #expect(
            runner.run(["sh", "-c", "exit 3"], environment: environment, timeout: .seconds(10))
                == .failure(.exited(status: 3)))
        #expect(
            runner.run(["sh", "-c", "kill -TERM $$"], environment: environment, timeout: .seconds(10))
                == .failure(.killed(signal: SIGTERM)))
    }

    @Test("a command past its time limit is stopped with what it started")
    func timeout() throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("cmd-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        // The grandchild writes its pid; the group kill must take it too.
        let result = runner.run(
            ["sh", "-c", "sleep 30 & echo $! > '\(pidFile)'; wait"], environment: environment,
            timeout: .seconds(2))
        #expect(result == .failure(.timedOut(seconds: 2)))
        let text = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(Int32(text))
        // Dead means gone, or a zombie waiting for its reaper.
        try waitUntil("the grandchild \(pid) is dead", timeout: 10) {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
        }
    }

    @Test("a command that exits while something it started holds its stdout returns at once")
    func backgroundHolder() {
        // The child exits after printing; the grandchild keeps stdout open and prints later.
        let result = runner.run(
            ["sh", "-c", "(sleep 5; echo late) & echo token"], environment: environment, timeout: .seconds(10))
        #expect(result == .success(Array("token\n".utf8)))
    }
}
