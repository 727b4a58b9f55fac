import Foundation
import Testing
import TestSupport

/// `--pick` and `--prompt` where no X display is there: a dmenu-style program (`[paste]
/// picker`, else one found on PATH) gets the list on stdin and prints the choice; without one,
/// one line naming the key to set.
@Suite("Picker without X: a dmenu-style program, or one line naming the key", .temporaryHome, .mock)
struct PickerTests: ScopedSuite {
    /// `paste` with no display and PATH holding only a folder of stand-in programs.
    func runner() throws -> PasteRunner {
        var paste = PasteRunner(home: home)
        let bin = home.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        paste.extraEnvironment["PATH"] = bin.path
        return paste
    }

    /// A picker that writes its stdin to `picker-input` (`$INPUT` for `answer`), then runs the
    /// shell command `answer` (nil: prints nothing) and exits with `status`.
    func writePicker(answer: String?, status: Int = 0) throws -> String {
        let input = home.root.appendingPathComponent("picker-input").path
        return try home.write(
            "#!/bin/sh\nINPUT='\(input)'\n/bin/cat > \"$INPUT\"\n" + (answer.map { $0 + "\n" } ?? "")
                + "exit \(status)\n",
            to: "bin/stand-in-picker", mode: 0o755)
    }

    var pickerInput: String {
        (try? String(contentsOf: home.root.appendingPathComponent("picker-input"), encoding: .utf8)) ?? ""
    }

    @Test("no picker set and none on PATH: one line naming the key, status 69, at once")
    func noPicker() throws {
        let paste = try runner()
        #expect(try paste.run(["--url", mock.url("/pastes/create"), "-q"], stdin: "in the history\n").status == 0)
        try mock.clearRequests()
        let started = ContinuousClock.now
        for arguments in [["--pick"], ["--prompt", "--url", mock.url("/pastes/create")]] {
            let result = try paste.run(arguments, stdin: "some text\n")
            #expect(result.status == 69)
            #expect(
                result.err
                    == "paste: no X display and no picker: set 'picker' in [paste] (such as picker = fuzzel --dmenu)\n")
        }
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(try mock.posts().isEmpty)
    }

    @Test("--pick: the history on the picker's stdin, newest first; the line chosen is printed")
    func pick() throws {
        let paste = try runner()
        let first = try paste.run(["--url", mock.url("/pastes/create"), "-q", "-t", "first"], stdin: "one\n")
        let second = try paste.run(["--url", mock.url("/pastes/create"), "-q", "-t", "second"], stdin: "two\n")
        let firstURL = first.out.trimmingCharacters(in: .newlines)
        let secondURL = second.out.trimmingCharacters(in: .newlines)
        // The stand-in chooses the first line, as a person pressing Enter would.
        let picker = try writePicker(answer: "/usr/bin/head -n 1 \"$INPUT\"")
        try paste.writeConfig("[paste]\npicker = \(picker)\n")
        let result = try paste.run(["--pick", "--no-copy"])
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.out == secondURL + "\n")
        let lines = pickerInput.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("second · 127.0.0.1:\(mock.port) · ") == true)
        #expect(lines.first?.hasSuffix(" · \(secondURL)") == true)
        #expect(lines.last?.hasSuffix(" · \(firstURL)") == true)
    }

    @Test("--prompt: the title typed in the picker goes with the paste; the title given is its line")
    func prompt() throws {
        let paste = try runner()
        let picker = try writePicker(answer: "echo 'typed title'")
        try paste.writeConfig("[paste]\npicker = \(picker)\n")
        let result = try paste.run(["--prompt", "-t", "given", "--url", mock.url("/pastes/create")], stdin: "text\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(pickerInput == "given\n")
        #expect(try mock.posts().last?.field("paste[title]")?.text == "typed title")
    }

    @Test("a picker left with Escape (status 1, nothing printed) cancels: 130, nothing sent")
    func cancelled() throws {
        let paste = try runner()
        let picker = try writePicker(answer: nil, status: 1)
        try paste.writeConfig("[paste]\npicker = \(picker)\n")
        let result = try paste.run(["--prompt", "--url", mock.url("/pastes/create")], stdin: "text\n")
        #expect(result.status == 130)
        #expect(try mock.posts().isEmpty)
    }
}
