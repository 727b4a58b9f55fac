import Foundation
import Testing
import TestSupport

/// `--json` end to end against paste-mock's services: a made paste's object, several files,
/// a streamed stdin. A failure's object, for each class of failure, is
/// `InProcessJSONFailureTests`'s.
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
}
