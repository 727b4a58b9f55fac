import Foundation
import Testing
import TestSupport

/// `-f` sends the file's name where a service has a name for it, and its language where the
/// service has a language field, unless `-l` says otherwise.
@Suite("-f: the file's name and its language", .temporaryHome, .mock)
struct FileNameLanguageTests: ScopedSuite {
    @Test("bpa.st gets the file's name and the lexer of its extension; -l and -t still win")
    func pinnwand() throws {
        try paste.writeConfig("[service \"bpa.st\"]\n    url = \(mock.url("/api/v1/paste"))\n")
        let file = try paste.home.write("print('hi')\n", to: "src/x.py")
        #expect(try paste.run(["-S", "bpa.st", "-f", file, "--no-copy"]).status == 0)
        #expect(
            try paste.run(["-S", "bpa.st", "-f", file, "-l", "text", "-t", "Mine", "--new", "--no-copy"]).status == 0)
        #expect(try paste.run(["-S", "bpa.st", "--no-copy"], stdin: "stdin text\n").status == 0)
        let files = try mock.requests().map { request -> [String: String] in
            let body = try JSONSerialization.jsonObject(with: request.bodyData ?? Data()) as? [String: Any]
            return ((body?["files"] as? [[String: String]])?.first ?? [:]).filter { $0.key != "content" }
        }
        #expect(
            files == [
                ["name": "x.py", "lexer": "python"], ["name": "Mine", "lexer": "text"],
                ["name": "paste.txt", "lexer": "text"],
            ])
    }

    @Test("dpaste gets the syntax of the extension; an unknown extension sends none")
    func dpaste() throws {
        try paste.writeConfig(
            "[paste]\n    service = dpaste\n[service \"dpaste\"]\n    url = \(mock.url("/api/v2/"))\n")
        let rust = try paste.home.write("fn main() {}\n", to: "main.rs")
        let odd = try paste.home.write("data\n", to: "notes.unknownext")
        #expect(try paste.run(["-f", rust, "-f", odd, "--no-copy"]).status == 0)
        let requests = try mock.requests().sorted {
            ($0.field("content")?.text ?? "") < ($1.field("content")?.text ?? "")
        }
        #expect(requests.map { $0.field("syntax")?.text } == [nil, "rust"])
    }

    @Test("0x0 names the file part after the file, so the paste keeps its extension")
    func nullPointer() throws {
        try paste.writeConfig("[service \"0x0\"]\n    url = \(mock.url("/0x0/"))\n")
        let file = try paste.home.write("a: 1\n", to: "conf.yaml")
        let result = try paste.run(["-S", "0x0", "-f", file, "--no-copy"])
        #expect(result.status == 0)
        #expect(result.out.hasSuffix(".yaml\n"))
        #expect(try mock.requests().first?.field("file")?.filename == "conf.yaml")
    }
}
