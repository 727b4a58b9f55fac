import Foundation
import Testing
import TestSupport

@testable import PasteCLI

/// `--json` on a failure, in process: one object on stdout naming the error's kind, its
/// message (stderr's first line), the exit status, the outbox entry and the file, for each
/// class of failure. `JSONOutputTests` keeps the made pastes' objects end to end.
@Suite("In process: --json, a failure's object", .temporaryHome)
struct InProcessJSONFailureTests: ScopedSuite {
    /// A failure's case: what makes it, and what its object must say.
    struct FailureCase: Sendable, CustomTestStringConvertible {
        var name: String
        var status: Int32
        var kind: String
        /// The outbox state the text is left in, nil for none.
        var outboxState: String?
        var testDescription: String { "\(status) \(name)" }
    }

    static let failureCases = [
        FailureCase(name: "an option the service cannot honour", status: 64, kind: "usage"),
        FailureCase(name: "empty input", status: 65, kind: "bad-input"),
        FailureCase(name: "a missing file", status: 66, kind: "no-input"),
        FailureCase(name: "a 400 refusal: held", status: 69, kind: "unavailable", outboxState: "held"),
        FailureCase(name: "a 500 after the body: held", status: 69, kind: "unavailable", outboxState: "held"),
        FailureCase(name: "a 503: waits", status: 75, kind: "temporary", outboxState: "retryable"),
        FailureCase(name: "a private key", status: 77, kind: "refused"),
        FailureCase(name: "an unknown service", status: 78, kind: "config"),
        FailureCase(name: "no service chosen, nobody to ask", status: 78, kind: "config"),
    ]

    @Test("a failure prints one object on stdout: error, message, status, outbox, file", arguments: failureCases)
    func failureObject(_ failure: FailureCase) throws {
        let service =
            "[service \"m\"]\nurl = https://m.test/upload\ncontent-field = content\nresult = body\n"
            + "[service \"dpaste\"]\nurl = https://dpaste.test/api/v2/\n"
        let isDefault = failure.name != "no service chosen, nobody to ask"
        try harness.writeConfig("[paste]\nretries = 0\n" + (isDefault ? "service = m\n" : "") + service)
        var arguments = ["--json", "--no-copy"]
        var stdin = "some text\n"
        var answers: [ScriptedTransport.Answer] = []
        var file: String?
        switch failure.name {
        case "an option the service cannot honour": arguments += ["-S", "dpaste", "-p"]
        case "empty input": stdin = ""
        case "a missing file": arguments += ["-f", home.root.appendingPathComponent("missing.txt").path]
        case "a 400 refusal: held": answers = [.http(400, body: "bad request")]
        case "a 500 after the body: held": answers = [.http(500, body: "boom")]
        case "a 503: waits":
            answers = [.http(503, body: "busy")]
            arguments += ["-f", try home.write("a note\n", to: "note.txt")]
            file = "note.txt"
        case "a private key": stdin = DesktopNotificationTests.privateKey
        case "an unknown service": arguments += ["-S", "nowhere"]
        default: break
        }
        let run = try harness.run(arguments, stdin: .text(stdin), answers: answers)
        #expect(run.status == failure.status, "stderr: \(run.err)")
        #expect(run.out.split(separator: "\n").count == 1, "stdout: \(run.out)")
        #expect(run.unused == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["error", "message", "status", "outbox", "file"])
        #expect(object["error"] as? String == failure.kind)
        #expect(object["status"] as? Int == Int(failure.status))
        // The message is stderr's first line, without the program's name.
        let firstLine = run.err.split(separator: "\n").first.map { String($0.dropFirst("paste: ".count)) }
        #expect(object["message"] as? String == firstLine)
        let entries = try harness.outboxEntries()
        if let state = failure.outboxState {
            let outbox = try #require(object["outbox"] as? [String: Any])
            #expect(outbox["state"] as? String == state)
            #expect(outbox["id"] as? String == entries.first?["id"] as? String)
            #expect(entries.count == 1)
        } else {
            #expect(object["outbox"] is NSNull)
            #expect(entries.isEmpty)
        }
        if let file {
            #expect(object["file"] as? String == file)
        } else {
            #expect(object["file"] is NSNull)
        }
    }
}
