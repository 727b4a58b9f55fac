import Foundation
import Testing
import TestSupport

@testable import PasteCLI

/// Each class of config error in process: exit 78, the one line naming file:line, nothing
/// sent or kept. `ConfigErrorTests` keeps one class, the unknown and mistyped names and a
/// literal secret end to end.
@Suite("In process: config errors, one line naming file:line, exit 78, nothing sent", .temporaryHome)
struct InProcessConfigErrorTests: ScopedSuite {
    @Test("each error class", arguments: ConfigErrorTests.cases)
    func errorClass(_ item: ConfigErrorTests.Case) throws {
        let path = try home.write(
            item.text.replacingOccurrences(of: "MOCK", with: "https://mock.test"), to: "config/paste/config",
            mode: item.mode)
        let run = try harness.run(["--no-copy"], stdin: .pipe(Array("never sent\n".utf8)))
        #expect(run.status == 78)
        let expected = item.stderr.replacingOccurrences(of: "CONFIG", with: path)
        if expected.hasSuffix("\n") {
            #expect(run.err == expected)
        } else {
            // A message that ends in text from Regex, which the test does not pin down.
            #expect(run.err.hasPrefix(expected), "\(run.err)")
            #expect(run.err.split(separator: "\n").count == 1)
        }
        #expect(run.out == "")
        #expect(run.requests.isEmpty)
        #expect(try harness.outboxEntries().isEmpty)
    }
}
