import Foundation
import Testing
import TestSupport

/// The whole job under a real X server: xclip puts text on the clipboard, `paste` uploads it to
/// a pastie-style server that is not ours (a Python implementation of the classic API), and the
/// URL is then what xclip reads from the clipboard.
@Suite(
    "Clipboard to URL to clipboard, against an independent pastie server", .tags(.x11), .needsXServer, .xvfb,
    .temporaryHome, .serialized)
struct ClipboardEndToEndTests: ScopedSuite {
    let server: ServerProcess

    init() throws {
        server = try ServerProcess("/usr/bin/python3", [fixtures.appendingPathComponent("pastie_server.py").path])
    }

    static let texts = [
        "plain clipboard text",
        "日本語 «quotes\" 'single' $(not run) `nor this` 🎉\r\nsecond line\n",
    ]

    @Test("paste -c uploads the clipboard; the server holds the bytes; the URL replaces the text", arguments: texts)
    func clipboardRoundTrip(_ text: String) throws {
        try xvfb.putOnClipboard(text)
        let result = try paste.run(
            ["-c", "--url", server.baseURL + "/pastes/create", "--no-notify"], stdin: "stdin is ignored with -c")
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err.isEmpty)
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix(server.baseURL + "/pastes/"))
        #expect(try fetch(url + ".txt") == Data(text.utf8))
        #expect(try xvfb.clipboardText() == url)
    }

    @Test("with stdin a terminal or /dev/null, paste reads the clipboard by itself")
    func launcherReadsClipboard() throws {
        try xvfb.putOnClipboard("from a launcher")
        let result = try paste.run(["--url", server.baseURL + "/pastes/create", "--no-notify"], input: .null)
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(try fetch(url + ".txt") == Data("from a launcher".utf8))
        #expect(try xvfb.clipboardText() == url)
    }

    @Test("piped stdin goes up, and its URL lands on the clipboard")
    func stdinRoundTrip() throws {
        try xvfb.putOnClipboard("old clipboard text")
        let text = "dmesg | paste\nline two\n"
        let result = try paste.run(["--url", server.baseURL + "/pastes/create"], stdin: text)
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(try fetch(url + ".txt") == Data(text.utf8))
        #expect(try xvfb.clipboardText() == url)
    }

    @Test("url=$(paste …) returns at once: the owner holds none of the caller's stdio")
    func commandSubstitutionReturns() throws {
        // runProcess waits for stdout and stderr to close: a helper holding them would hang here.
        let started = Date()
        let result = try runProcess(
            "/bin/sh",
            [
                "-c", "url=$(\"$0\" --url \"$1\" -q); echo \"got $url\"", BuiltProducts.path(of: "paste"),
                server.baseURL + "/pastes/create",
            ],
            input: .bytes(Data("x".utf8)), environment: paste.environment, timeout: 20)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.out.hasPrefix("got " + server.baseURL))
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(try xvfb.clipboardText() == String(result.out.dropFirst(4)).trimmingCharacters(in: .newlines))
    }

    @Test("url=$(paste -c) returns at once; the owner forked from the reader leaves when the clipboard is taken")
    func clipboardCommandSubstitution() throws {
        try xvfb.putOnClipboard("from the clipboard, in a script")
        let (result, url, ownerCommand) = try pasteClipboardInScript(timeout: 20)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(url.hasPrefix(server.baseURL + "/pastes/"))
        #expect(try fetch(url + ".txt") == Data("from the clipboard, in a script".utf8))
        #expect(try xvfb.clipboardText() == url)
        // The owner is a fork of that run (its command line, the arguments blanked): alive while
        // it holds the URL, gone once another client takes the clipboard.
        #expect(!Self.processes(withCommandLine: ownerCommand).isEmpty)
        try xvfb.putOnClipboard("taken by xclip")
        try waitUntil("the owner to leave", timeout: 10) { Self.processes(withCommandLine: ownerCommand).isEmpty }
        #expect(try xvfb.clipboardText() == "taken by xclip")
    }

    /// ASCII lines, exactly `count` bytes.
    static func filler(_ count: Int) -> Data {
        let line = Data("an ordinary line of the clipboard, nothing secret in it at all\n".utf8)
        var text = Data()
        while text.count < count { text += line }
        return text.prefix(count)
    }

    @Test("a large clipboard is scanned while it is read, and the owner is still forked from the reader")
    func largeClipboardStillForks() throws {
        // 3 MiB: several INCR increments, so the guard's scan runs on a second thread. That
        // thread must be gone when the read returns, or the owner would be spawned, not forked.
        let text = Self.filler(3 << 20)
        try xvfb.startXclip(text)
        let (result, url, ownerCommand) = try pasteClipboardInScript(timeout: 60)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(try fetch(url + ".txt") == text)
        #expect(try xvfb.clipboardText() == url)
        #expect(!Self.processes(withCommandLine: ownerCommand).isEmpty, "the owner was spawned, not forked")
        try xvfb.putOnClipboard("taken by xclip")
        try waitUntil("the owner to leave", timeout: 10) { Self.processes(withCommandLine: ownerCommand).isEmpty }
    }

    @Test("a secret across an INCR increment of a large clipboard is refused at the place -f names")
    func largeClipboardSecret() throws {
        // xclip's increments are XExtendedMaxRequestSize / 4 bytes (1048575 under Xvfb): the
        // token straddles the first boundary.
        let token = Data(" 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 ".utf8)
        let text = Self.filler(1_048_575 - 20) + token + Self.filler(2 << 20)
        try xvfb.startXclip(text)
        let endpoint = server.baseURL + "/pastes/create"
        let refused = try paste.run(["-c", "-n", "--no-notify", "--url", endpoint])
        #expect(refused.status == 77, "stderr: \(refused.err)")
        // The token's first byte is at 1_048_556; the filler's lines are 63 bytes.
        let (line, column) = (1_048_556 / 63 + 1, 1_048_556 % 63 + 1)
        #expect(
            refused.err
                == "paste: refusing to upload: it looks like it holds a GitHub token (line \(line), column \(column)); "
                + "use --force to upload anyway\n")
        // The same text from a file, scanned from disk: the same place.
        let path = home.root.appendingPathComponent("clip.txt").path
        try text.write(to: URL(fileURLWithPath: path))
        let file = try paste.run(["-n", "-f", path, "--url", endpoint])
        #expect(file.status == 77)
        #expect(file.err == refused.err.replacingOccurrences(of: "upload:", with: "upload 'clip.txt':"))
        let forced = try paste.run(["-c", "-n", "--force", "--no-notify", "--url", endpoint])
        #expect(forced.status == 0, "stderr: \(forced.err)")
        #expect(forced.out.contains("<the clipboard, \(text.count) bytes>"))
    }

    @Test("a clipboard over max-clipboard exits 65 with one line; nothing is read past the limit")
    func clipboardLimit() throws {
        try xvfb.startXclip(Self.filler(3 << 20))
        try home.write("[paste]\nmax-clipboard = 2M\n", to: "config/paste/config")
        let result = try paste.run(["-c", "--no-notify", "--url", server.baseURL + "/pastes/create"])
        #expect(result.status == 65)
        #expect(result.err == "paste: the clipboard holds more than 2 MiB; paste reads at most max-clipboard = 2M\n")
        #expect(try paste.outboxContents().isEmpty)
    }

    /// Runs `url=$(paste -c --no-notify -q --url ENDPOINT); echo "got $url"` as a script would:
    /// the shell's result, the URL it got, and the command line paste's forked owner shows (the
    /// arguments blanked: `erasedCommandLine`).
    func pasteClipboardInScript(timeout: Double) throws -> (result: ProcessResult, url: String, ownerCommand: Data) {
        let executable = BuiltProducts.path(of: "paste")
        let endpoint = server.baseURL + "/pastes/create"
        let result = try runProcess(
            "/bin/sh", ["-c", "url=$(\"$0\" -c --no-notify -q --url \"$1\"); echo \"got $url\"", executable, endpoint],
            input: .null, environment: paste.environment, timeout: timeout)
        let url = String(result.out.dropFirst(4)).trimmingCharacters(in: .newlines)
        return (result, url, Self.erasedCommandLine(executable, ["-c", "--no-notify", "-q", "--url", endpoint]))
    }

    /// The command line a forked owner shows: `executable`, then each argument's bytes blanked
    /// to NUL where the run's were (`CurrentProcess.eraseArguments`).
    static func erasedCommandLine(_ executable: String, _ arguments: [String]) -> Data {
        Data((executable + "\0").utf8) + Data(count: (arguments.joined(separator: "\0") + "\0").utf8.count)
    }

    /// The pids whose command line (/proc/PID/cmdline) is exactly `wanted` (no procps needed).
    static func processes(withCommandLine wanted: Data) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = Int32(entry),
                let commandLine = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                commandLine == wanted
            else { return nil }
            return pid
        }
    }

    @Test("a failed upload leaves the clipboard holding the text, and the text in the outbox")
    func failureKeepsClipboard() throws {
        try xvfb.putOnClipboard("precious text")
        try paste.writeConfig("[paste]\nretries = 0\n")
        // Nothing listens on the discard port: the connection is refused.
        let result = try paste.run(["-c", "--url", "http://127.0.0.1:9/pastes/create", "--no-notify"])
        #expect(result.status == 75, "stderr: \(result.err)")
        #expect(result.err.hasPrefix("paste: cannot connect to 127.0.0.1:9: connection refused\n"))
        #expect(try xvfb.clipboardText() == "precious text")
        #expect(try paste.outboxContents() == [Data("precious text".utf8)])
        // The owner started ahead of the upload had nothing to own: it is gone.
        try waitUntil("the early selection owner to leave") { ownersOnOurDisplay() == 0 }
    }

    /// How many `paste` processes (after the run: owners, spawned or forked) serve this suite's
    /// display.
    func ownersOnOurDisplay() -> Int { ownerIDs().count }

    /// The `paste` processes (after the run: owners, spawned or forked) serving this suite's display.
    func ownerIDs() -> [Int32] { xvfb.pasteProcesses() }

    @Test("the clipboard owner's command line carries none of the run's arguments: no title, no URL password")
    func ownerCommandLineErased() throws {
        try xvfb.putOnClipboard("owner text")
        let executable = BuiltProducts.path(of: "paste")
        let password = "owner-pw-4417"
        let title = "title-words-8812"
        let endpoint = server.baseURL.replacingOccurrences(of: "://", with: "://bob:\(password)@") + "/pastes/create"
        let arguments = ["-c", "--no-notify", "-q", "-t", title, "--url", endpoint]
        let result = try paste.run(arguments)
        #expect(result.status == 0, "stderr: \(result.err)")
        let url = result.out.trimmingCharacters(in: .newlines)
        #expect(try xvfb.clipboardText() == url)
        // The owner serving the URL is a fork of that run; its command line is blanked.
        let owners = ownerIDs()
        #expect(owners.count == 1)
        #expect(Self.processes(withCommandLine: Self.erasedCommandLine(executable, arguments)) == owners)
        for pid in owners {
            let commandLine = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
            for secret in [password, title, "owner text", "--url"] {
                #expect(commandLine.range(of: Data(secret.utf8)) == nil, "'\(secret)' in the owner's command line")
            }
        }
        try xvfb.putOnClipboard("taken back")
        try waitUntil("the owner to leave", timeout: 10) { ownersOnOurDisplay() == 0 }
    }

    @Test("a failed upload whose text cannot be saved: 74, said so, and the clipboard still holds it")
    func failureNotSaved() throws {
        try xvfb.putOnClipboard("precious text")
        try paste.writeConfig("[paste]\nretries = 0\n")
        let outbox = try paste.home.write("not a folder", to: "state/paste/outbox")
        let result = try paste.run(["-c", "--url", "http://127.0.0.1:9/pastes/create", "--no-notify"])
        #expect(result.status == 74)
        #expect(
            result.err == "paste: cannot connect to 127.0.0.1:9: connection refused\n"
                + "paste: the text could not be saved: '\(outbox)' is a regular file, not a folder\n"
                + "paste: the clipboard still holds the text\n"
                + "paste: move it away; paste makes its own files there\n")
        #expect(try xvfb.clipboardText() == "precious text")
        try waitUntil("the early selection owner to leave") { ownersOnOurDisplay() == 0 }
    }

    @Test("the clipboard's owner, forked after the upload, catches none of SIGINT, SIGTERM, SIGHUP; SIGTERM ends it")
    func ownerTakesSignalsAsAnyProcess() throws {
        try xvfb.putOnClipboard("a text whose URL is then served")
        let result = try paste.run(["-c", "--url", server.baseURL + "/pastes/create", "--no-notify"])
        #expect(result.status == 0, "stderr: \(result.err)")
        let owner = try #require(ownerIDs().first)
        let status = try String(contentsOfFile: "/proc/\(owner)/status", encoding: .utf8)
        let caught = try #require(
            status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }.flatMap {
                UInt64($0.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
            })
        for signal in [SIGHUP, SIGINT, SIGTERM] {
            #expect(caught & (1 << UInt64(signal - 1)) == 0, "the owner catches signal \(signal)")
        }
        kill(owner, SIGTERM)
        try waitUntil("the owner to end on SIGTERM") { !ownerIDs().contains(owner) }
    }

    @Test("an empty clipboard exits 66; an image to a text-only endpoint 65, naming image-service")
    func clipboardErrors() throws {
        let empty = try paste.run(["-P", "--no-notify", "--url", server.baseURL + "/pastes/create"])
        #expect(empty.status == 66)
        #expect(empty.err == "paste: the primary selection is empty\n")
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])
        try xvfb.startXclip(png, type: "image/png")
        let image = try paste.run(["-c", "--no-notify", "--url", server.baseURL + "/pastes/create"])
        #expect(image.status == 65)
        #expect(image.err.hasPrefix("paste: the clipboard holds an image (PNG), but service '"))
        #expect(image.err.contains("image-service"))
    }
}
