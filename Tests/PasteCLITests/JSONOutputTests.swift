import Foundation
import Testing
import TestSupport

@Suite("--json: one object per paste", .temporaryHome, .mock)
struct JSONOutputTests: ScopedSuite {
    @Test("url, service, bytes, sha256 (of the content), title, deletion, type")
    func oneObject() throws {
        try paste.writeConfig("[service \"bpa.st\"]\nurl = \(mock.url("/api/v1/paste"))\n")
        let result = try paste.run(["--json", "-S", "bpa.st", "-t", "Build log"], stdin: awkwardText)
        #expect(result.status == 0)
        // --json keeps stderr quiet: no "not copied" note.
        #expect(result.err == "")
        #expect(result.out.hasSuffix("}\n"))
        #expect(result.out.split(separator: "\n").count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(Set(object.keys) == ["url", "service", "bytes", "sha256", "title", "deletion", "repeat", "type"])
        let url = try #require(object["url"] as? String)
        #expect(try fetch(url + ".txt") == Data(awkwardText.utf8))
        #expect(object["service"] as? String == "bpa.st")
        #expect(object["bytes"] as? Int == awkwardText.utf8.count)
        #expect(object["sha256"] as? String == (try sha256sum(Data(awkwardText.utf8))))
        #expect(object["title"] as? String == "Build log")
        let token = try mock.paste(id: try #require(pasteID(url))).token ?? "?"
        #expect(object["deletion"] as? String == mock.url("/remove/\(token)"))
        #expect(object["repeat"] as? Bool == false)
        #expect(object["type"] as? String == "text/plain")
    }

    @Test("several files: one object each, in order, with the file name; null title and deletion")
    func files() throws {
        try paste.writeConfig("[paste]\nservice = dpaste\n[service \"dpaste\"]\nurl = \(mock.url("/api/v2/"))\n")
        let texts = ["first file\n", "zweite Datei — ü\n", String(repeating: "big line\n", count: 5000)]
        let paths = try texts.enumerated().map { try paste.home.write($1, to: "f\($0).txt") }
        let result = try paste.run(["--json"] + paths.flatMap { ["-f", $0] })
        #expect(result.status == 0)
        #expect(result.err == "")
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 3)
        for (index, line) in lines.enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let data = Data(texts[index].utf8)
            #expect(object["file"] as? String == "f\(index).txt")
            #expect(object["service"] as? String == "dpaste")
            #expect(object["bytes"] as? Int == data.count)
            #expect(object["sha256"] as? String == (try sha256sum(data)))
            #expect(object["title"] is NSNull)
            #expect(object["deletion"] is NSNull)
            #expect(try fetch(try #require(object["url"] as? String) + ".txt") == data)
        }
    }

    @Test("streamed stdin: bytes and sha256 of everything sent")
    func streamedStdin() throws {
        try paste.writeConfig("[service \"paste.rs\"]\nurl = \(mock.url("/pasters/"))\n")
        let text = String(repeating: "streamed — line\n", count: 100_000)
        let result = try paste.run(["--json", "-S", "paste.rs"], input: .bytes(Data(text.utf8)))
        #expect(result.status == 0, "stderr: \(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(object["bytes"] as? Int == text.utf8.count)
        #expect(object["sha256"] as? String == (try sha256sum(Data(text.utf8))))
    }

    // MARK: - Failures

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
        let config = pastieConfig(mock, isDefault: failure.name != "no service chosen, nobody to ask")
        try paste.writeConfig(config + "[service \"dpaste\"]\nurl = \(mock.url("/api/v2/"))\n")
        var arguments = ["--json"]
        var stdin = "some text\n"
        var file: String?
        switch failure.name {
        case "an option the service cannot honour": arguments += ["-S", "dpaste", "-p"]
        case "empty input": stdin = ""
        case "a missing file": arguments += ["-f", home.root.appendingPathComponent("missing.txt").path]
        case "a 400 refusal: held": try mock.addFault(.status(400), path: "/pastes/create")
        case "a 500 after the body: held": try mock.addFault(.status(500), path: "/pastes/create")
        case "a 503: waits":
            try mock.addFault(.status(503), path: "/pastes/create")
            arguments += ["-f", try home.write("a note\n", to: "note.txt")]
            file = "note.txt"
        case "a private key": stdin = DesktopNotificationTests.privateKey
        case "an unknown service": arguments += ["-S", "nowhere"]
        default: break
        }
        let result = try paste.run(arguments, stdin: stdin)
        #expect(result.status == failure.status, "stderr: \(result.err)")
        #expect(result.out.split(separator: "\n").count == 1, "stdout: \(result.out)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(Set(object.keys) == ["error", "message", "status", "outbox", "file"])
        #expect(object["error"] as? String == failure.kind)
        #expect(object["status"] as? Int == Int(failure.status))
        // The message is stderr's first line, without the program's name.
        let firstLine = result.err.split(separator: "\n").first.map { String($0.dropFirst("paste: ".count)) }
        #expect(object["message"] as? String == firstLine)
        if let state = failure.outboxState {
            let outbox = try #require(object["outbox"] as? [String: Any])
            #expect(outbox["state"] as? String == state)
            #expect(outbox["id"] as? String == (try paste.outboxIDs().first))
        } else {
            #expect(object["outbox"] is NSNull)
            #expect(try paste.outboxIDs().isEmpty)
        }
        if let file {
            #expect(object["file"] as? String == file)
        } else {
            #expect(object["file"] is NSNull)
        }
    }
}
