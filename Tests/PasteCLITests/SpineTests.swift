import Foundation
import Testing
import TestSupport

@Suite("The spine: stdin and files to a pastie-style endpoint", .temporaryHome, .mock)
struct SpineTests: ScopedSuite {
    @Test("piped stdin is uploaded with the classic fields and the URL printed")
    func uploadsStdin() throws {
        let result = try paste.run(["--url", mock.url("/pastes/create")], stdin: "hello world\n")
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix(mock.baseURL + "/pastes/"))
        #expect(result.out == url + "\n")
        // No display, and no copy asked for: a pipeline is not told each time (issue 27).
        #expect(result.err == "")
        let id = try #require(pasteID(url))
        #expect(try mock.rawPaste(id: id) == Data("hello world\n".utf8))
        // The first request the mock saw must be the upload (the read of the paste above came after).
        let request = try #require(try mock.requests().first)
        #expect(request.method == "POST")
        #expect(request.path == "/pastes/create")
        #expect(request.header("Expect") == nil)
        #expect(request.field("paste[parser]")?.text == "plaintext")
        #expect(request.field("paste[authorization]")?.text == "burger")
        #expect(request.header("Content-Type")?.hasPrefix("multipart/form-data") == true)
    }

    @Test("a run with no display says the URL was not copied only when the config asked for the copy")
    func notCopiedSaidWhenAsked() throws {
        let quiet = try paste.run(["--url", mock.url("/pastes/create")], stdin: "a\n")
        #expect(quiet.status == 0)
        #expect(quiet.err == "")
        try paste.writeConfig("[paste]\ncopy = true\n")
        let asked = try paste.run(["--url", mock.url("/pastes/create")], stdin: "b\n")
        #expect(asked.status == 0)
        #expect(asked.out.hasPrefix(mock.baseURL + "/pastes/"))
        #expect(asked.err == "paste: no display: the URL was printed but not copied\n")
    }

    static let awkwardTexts: [String] = [
        "日本語のテキスト 中文 한국어\n",
        "emoji 🎉👩‍👩‍👧‍👦 and RTL עברית العربية\n",
        "quotes \" ' and backslashes \\ \\\\ \\n",
        "$(rm -rf /) `echo pwned` ${HOME} %s %n",
        "windows\r\nline\r\nendings\r\n",
        "no trailing newline",
        "\ttabs\tand  spaces   \n\n\n",
        "paste[body]=<- -F 'x=y' --data @/etc/passwd",
    ]

    @Test("content is sent byte-exact", arguments: awkwardTexts)
    func byteExact(_ text: String) throws {
        let result = try paste.run(["--url", mock.url("/pastes/create"), "-q"], stdin: text)
        #expect(result.status == 0, "stderr: \(result.err)")
        let id = try #require(pasteID(result.out))
        #expect(try mock.rawPaste(id: id) == Data(text.utf8))
    }

    @Test("10 MiB of text arrives byte-exact")
    func tenMebibytes() throws {
        var text = ""
        var line = 0
        while text.utf8.count < 10 << 20 {
            text += "line \(line) — ünïcödé and ascii filler to make the line longer than most\n"
            line += 1
        }
        let result = try paste.run(["--url", mock.url("/pastes/create"), "-q"], input: .bytes(Data(text.utf8)))
        #expect(result.status == 0, "stderr: \(result.err)")
        let id = try #require(pasteID(result.out))
        #expect(try mock.rawPaste(id: id) == Data(text.utf8))
    }

    @Test("stdin from a regular file is read like a pipe")
    func stdinFromFile() throws {
        let path = try paste.home.write("from a file\n", to: "in.txt")
        let result = try paste.run(["--url", mock.url("/pastes/create"), "-q"], input: .file(path))
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try mock.rawPaste(id: try #require(pasteID(result.out))) == Data("from a file\n".utf8))
    }

    @Test("without a display the copy is skipped quietly under -q and --json")
    func quietWithoutDisplay() throws {
        let quiet = try paste.run(["--url", mock.url("/pastes/create"), "-q"], stdin: "quiet\n")
        #expect(quiet.status == 0)
        #expect(quiet.err.isEmpty)
        let json = try paste.run(["--url", mock.url("/pastes/create"), "--json", "--new"], stdin: "json\n")
        #expect(json.status == 0)
        #expect(json.err.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect((object["url"] as? String)?.hasPrefix(mock.baseURL + "/pastes/") == true)
        #expect(object["bytes"] as? Int == 5)
        #expect(object["sha256"] as? String == "e6d4186a938579ceed4ed5b2fccd42a32448dcda6b0ddbcfd49fc70177bbe9ae")
        #expect(object["service"] as? String == "127.0.0.1:\(mock.port)")
    }

    @Test("empty input sends nothing and exits 65 with one line")
    func emptyInput() throws {
        let result = try paste.run(["--url", mock.url("/pastes/create")], stdin: "")
        #expect(result.status == 65)
        #expect(result.err == "paste: nothing to paste: stdin is empty\n")
        #expect(result.out.isEmpty)
        #expect(try mock.requests().isEmpty)
    }

    @Test("stdin from /dev/null with no display: 66, one line that says what to do (not 'stdin is a terminal')")
    func nothingToRead() throws {
        let result = try paste.run(["--url", mock.url("/pastes/create")], input: .null)
        #expect(result.status == 66)
        #expect(
            result.err
                == "paste: nothing to paste: no text on stdin, and no display to read a clipboard from\n"
                + "paste: pipe text in (cmd | paste), or use -f FILE\n")
        #expect(result.out.isEmpty)
        #expect(try mock.requests().isEmpty)
    }

    @Test("binary input to a text-only service is refused with 65, naming accepts")
    func binaryInput() throws {
        let result = try paste.run(
            ["--url", mock.url("/pastes/create")], input: .bytes(Data([0x89, 0x50, 0x4E, 0x47, 0, 0, 1])))
        #expect(result.status == 65)
        let service = mock.baseURL.replacingOccurrences(of: "http://", with: "")
        #expect(
            result.err
                == "paste: stdin holds binary data (application/octet-stream), but service '\(service)' takes text "
                + "only, so nothing was uploaded: name a service that takes files with -S NAME\n")
        #expect(try mock.requests().isEmpty)
    }

    @Test("each -f file is its own paste, URLs in the order given")
    func files() throws {
        let first = try paste.home.write("first file\n", to: "a.txt")
        let second = try paste.home.write("second file\n", to: "b.txt")
        let result = try paste.run(["--url", mock.url("/pastes/create"), "-q", "-f", first, "-f", second])
        #expect(result.status == 0, "stderr: \(result.err)")
        let urls = result.out.split(separator: "\n").map(String.init)
        #expect(urls.count == 2)
        #expect(try mock.rawPaste(id: try #require(pasteID(urls[0]))) == Data("first file\n".utf8))
        #expect(try mock.rawPaste(id: try #require(pasteID(urls[1]))) == Data("second file\n".utf8))
    }

    @Test("a missing -f file exits 66 before anything is sent")
    func missingFile() throws {
        let first = try paste.home.write("exists\n", to: "a.txt")
        let result = try paste.run(["--url", mock.url("/pastes/create"), "-f", first, "-f", "/nonexistent/b.txt"])
        #expect(result.status == 66)
        #expect(result.err == "paste: cannot read '/nonexistent/b.txt': no such file or directory\n")
        #expect(try mock.requests().isEmpty)
    }

    @Test(
        "a service error exits 69, and the text waits in the outbox",
        .mock(arguments: ["--fault", "status:status=500,body=boom"]))
    func serviceError() throws {
        let result = try paste.run(["--url", mock.url("/pastes/create")], stdin: "keep me\n")
        #expect(result.status == 69)
        #expect(result.err.hasPrefix("paste: 127.0.0.1:\(mock.port) answered HTTP 500: boom\n"))
        #expect(try paste.outboxContents() == [Data("keep me\n".utf8)])
    }

    @Test("usage errors exit 64 and point to --help")
    func usage() throws {
        let result = try paste.run(["--frobnicate"])
        #expect(result.status == 64)
        #expect(result.err == "paste: unknown option '--frobnicate'\npaste: try 'paste --help'\n")
        let badURL = try paste.run(["--url", "ftp://x"])
        #expect(badURL.status == 64)
    }

    @Test("--help and --version write to stdout and exit 0")
    func helpAndVersion() throws {
        let help = try paste.run(["--help"])
        #expect(help.status == 0)
        #expect(help.out.hasPrefix("Usage: paste [OPTIONS]"))
        #expect(help.out.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let version = try paste.run(["--version"])
        #expect(version.status == 0)
        #expect(version.out.hasPrefix("paste 0.1.0\nlibcurl/"))
        // Only what is really in use: rtmp:// is never allowed, and librtmp is a stub.
        #expect(!version.out.contains("rtmp"))
        #expect(version.out.contains(" OpenSSL/"))
    }
}

@Suite("coreutils paste(1) keeps working", .temporaryHome)
struct CoreutilsTests: ScopedSuite {
    static let cases: [[String]] = [
        ["-d,", "a", "b"],
        ["-s", "a"],
        ["-sd+", "a"],
        ["--serial", "--delimiters=:", "a", "b"],
        ["a", "b"],
        ["-z", "a"],
        ["-", "-"],
        ["--", "a"],
        ["a", "missing-file"],
        // The words of --outbox are ours only after --outbox: as operands they are files.
        ["show", "a"],
        ["a", "--outbox"],
    ]

    @Test("the same output and status as coreutils", arguments: cases)
    func sameAsCoreutils(_ arguments: [String]) throws {
        try paste.home.write("1\n2\n3\n", to: "a")
        try paste.home.write("x\ny\n", to: "b")
        let stdin = try paste.home.write("l1\nl2\nl3\nl4\n", to: "stdin")
        let directory = paste.home.root.path
        // Both are found on PATH as `paste`, so both see argv[0] == "paste" (it names them in errors).
        var ourEnvironment = paste.environment
        ourEnvironment["PATH"] = BuiltProducts.directory.path + ":/usr/bin:/bin"
        var theirEnvironment = paste.environment
        theirEnvironment["PATH"] = "/usr/bin:/bin"
        let ours = try runProcess(
            "/usr/bin/env", ["paste"] + arguments, input: .file(stdin), environment: ourEnvironment,
            currentDirectory: directory)
        let theirs = try runProcess(
            "/usr/bin/env", ["paste"] + arguments, input: .file(stdin), environment: theirEnvironment,
            currentDirectory: directory)
        #expect(ours.status == theirs.status)
        #expect(ours.stdout == theirs.stdout)
        #expect(ours.err == theirs.err)
    }

    @Test(
        "bytes that are not UTF-8 reach coreutils unchanged: a Latin-1 delimiter, a file name (issue 45, item 10)",
        arguments: [["-d", "\\247", "a", "b"], ["-d", ",", "caf\\351", "a"], ["caf\\351", "missing-\\351"]])
    func bytesAsGiven(_ arguments: [String]) throws {
        try paste.home.write("1\n2\n3\n", to: "a")
        try paste.home.write("x\ny\n", to: "b")
        try Data("latin\n".utf8).write(to: URL(fileURLWithPath: paste.home.root.path + "/caf\u{E9}"))
        // The file named by the byte 0xE9 (Latin-1 é), which no Swift string spells.
        try runProcess(
            "/bin/sh", ["-c", "mv \"$(printf 'caf\\303\\251')\" \"$(printf 'caf\\351')\""],
            currentDirectory: paste.home.root.path)
        // printf turns each octal escape into its byte; sh passes the bytes on as they are.
        let script = "exec paste " + arguments.map { "\"$(printf '\($0)')\"" }.joined(separator: " ")
        var ourEnvironment = paste.environment
        ourEnvironment["PATH"] = BuiltProducts.directory.path + ":/usr/bin:/bin"
        var theirEnvironment = paste.environment
        theirEnvironment["PATH"] = "/usr/bin:/bin"
        let ours = try runProcess(
            "/bin/sh", ["-c", script], environment: ourEnvironment, currentDirectory: paste.home.root.path)
        let theirs = try runProcess(
            "/bin/sh", ["-c", script], environment: theirEnvironment, currentDirectory: paste.home.root.path)
        #expect(theirs.stdout.count > 0 || theirs.status != 0)
        #expect(ours.status == theirs.status)
        #expect(ours.stdout == theirs.stdout)
        #expect(ours.stderr == theirs.stderr)
    }
}
