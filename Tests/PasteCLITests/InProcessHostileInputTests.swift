import Foundation
import Testing
import TestSupport

@testable import PasteCLI

/// Issue 16's range checks in process: every out-of-range `--timeout` is 64 and every numeric
/// config key out of range is 78, each with the one line stating the range, before anything is
/// read or sent. `HostileInputTests` keeps one of each end to end, on the built `paste`.
@Suite("In process: numbers out of range, one line stating the range, nothing sent", .temporaryHome)
struct InProcessHostileInputTests: ScopedSuite {
    @Test(
        "a --timeout out of range exits 64 stating the range, before anything is read or sent",
        arguments: ["1e308", "1e16", "9.3e15", "inf", "nan", "-0", "0", "-1", "1e400", "8d"])
    func timeoutOutOfRange(_ value: String) throws {
        let run = try harness.run(
            ["--timeout", value, "--url", "https://m.test/upload", "--no-copy"], stdin: .pipe(Array("x\n".utf8)))
        #expect(run.status == 64)
        #expect(
            run.err
                == "paste: bad timeout '\(value)': expected a duration from 0.001s to 7d, such as 30 or 2.5\n"
                + "paste: try 'paste --help'\n")
        #expect(run.out == "")
        #expect(run.requests.isEmpty)
    }

    @Test(
        "a number out of range in the config exits 78 naming file:line and the range; nothing traps",
        arguments: HostileInputTests.numericKeys, ["1e16", "1e308", "inf", "nan", "9.3e15", "-1"])
    func configOutOfRange(_ key: String, _ value: String) throws {
        let path = try harness.writeConfig("[paste]\n\(key) = \(value)\n")
        let run = try harness.run(["--url", "https://m.test/upload", "--no-copy"], stdin: .pipe(Array("x\n".utf8)))
        #expect(run.status == 78, "stderr: \(run.err)")
        let range = key == "retries" ? "a whole number from 0 to 10" : "a duration from "
        #expect(run.err.hasPrefix("paste: \(path):2: bad value '\(value)' for '\(key)': expected \(range)"))
        #expect(run.requests.isEmpty)
        #expect(try harness.outboxEntries().isEmpty)
    }

    @Test(
        "max-size out of range, or overflowing its unit, exits 78 stating the range",
        arguments: [
            "0", "9223372036854775807K", "2048G", "1e3",
        ])
    func maximumSizeOutOfRange(_ value: String) throws {
        let path = try harness.writeConfig("[service \"x\"]\nurl = https://x.test/upload\nmax-size = \(value)\n")
        let run = try harness.run(["-S", "x", "--no-copy"], stdin: .pipe(Array("x\n".utf8)))
        #expect(run.status == 78)
        #expect(
            run.err
                == "paste: \(path):3: bad value '\(value)' for 'max-size': expected a size from 1 to 1024G "
                + "(such as 512K, 10M)\n")
        #expect(run.requests.isEmpty)
    }
}
