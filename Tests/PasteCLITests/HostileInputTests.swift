import Foundation
import Testing
import TestSupport

/// Whether text may reach a terminal: no C0 control but the line feeds between lines, no DEL,
/// no C1 control (U+0080–009F: U+009B is a one-character CSI), no bidirectional or other format
/// character (U+202E would reorder what follows).
func isTerminalSafe(_ data: Data) -> Bool {
    String(decoding: data, as: UTF8.self).unicodeScalars.allSatisfy { scalar in
        if scalar == "\n" { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return false
        default: return true
        }
    }
}

/// Issue 16: values from argv, the config and servers reach stderr escaped and bounded; numbers
/// are range-checked; server URLs that hide where they lead are refused; binary input and text
/// that is not UTF-8 are refused as they stream, before the request completes.
@Suite("Hostile input: shown escaped and bounded, ranges checked, refused as it streams", .temporaryHome, .mock)
struct HostileInputTests: ScopedSuite {
    /// A config with the mock's form, JSON, raw and multipart services (no retries).
    static func config(_ mock: MockServer, extra: String = "") -> String {
        """
        [paste]
        retries = 0
        \(extra)
        [service "form"]
        url = \(mock.url("/pastes/create"))
        format = form
        content-field = content
        result = redirect
        [service "json"]
        url = \(mock.url("/json"))
        format = json
        json = {"content": "{content}", "title": "{title:untitled}"}
        result = json:/data/url
        [service "raw"]
        url = \(mock.url("/pasters/"))
        format = raw
        result = body

        """
    }

    // MARK: - Numbers

    // Every value out of range, and every numeric config key, runs in process
    // (`InProcessHostileInputTests`); one of each here, on the built binary.

    @Test("a --timeout out of range exits 64 stating the range, before anything is read or sent", arguments: ["1e308"])
    func timeoutOutOfRange(_ value: String) throws {
        let result = try paste.run(
            ["--timeout", value, "--url", mock.url("/pastes/create"), "--no-copy"], stdin: "x\n")
        #expect(result.status == 64)
        #expect(
            result.err
                == "paste: bad timeout '\(value)': expected a duration from 0.001s to 7d, such as 30 or 2.5\n"
                + "paste: try 'paste --help'\n")
        #expect(try mock.requests().isEmpty)
    }

    @Test("-e out of range exits 64 stating the range")
    func expiryOutOfRange() throws {
        let result = try paste.run(["-e", "1e308w", "--url", "http://127.0.0.1:9/", "--no-copy"], stdin: "x\n")
        #expect(result.status == 64)
        #expect(result.err.hasPrefix("paste: bad expiry '1e308w': expected a duration from 1s to 36500d"))
    }

    static let numericKeys = [
        "timeout", "connect-timeout", "stall-timeout", "response-timeout", "retries", "max-retry-after",
        "repeat-window", "notify-timeout", "clipboard-timeout",
    ]

    @Test(
        "a number out of range in the config exits 78 naming file:line and the range; nothing traps",
        arguments: [("timeout", "1e308"), ("retries", "-1")])
    func configOutOfRange(_ key: String, _ value: String) throws {
        let path = try paste.home.write("[paste]\n\(key) = \(value)\n", to: "config/paste/config")
        let result = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy"], stdin: "x\n")
        #expect(result.status == 78, "stderr: \(result.err)")
        let range = key == "retries" ? "a whole number from 0 to 10" : "a duration from "
        #expect(result.err.hasPrefix("paste: \(path):2: bad value '\(value)' for '\(key)': expected \(range)"))
        #expect(try mock.requests().isEmpty)
    }

    @Test("max-size out of range, or overflowing its unit, exits 78 stating the range")
    func maximumSizeOutOfRange() throws {
        for value in ["9223372036854775807K"] {
            let path = try paste.home.write(
                "[service \"x\"]\nurl = http://127.0.0.1:9/\nmax-size = \(value)\n", to: "config/paste/config")
            let result = try paste.run(["-S", "x", "--no-copy"], stdin: "x\n")
            #expect(result.status == 78)
            #expect(
                result.err
                    == "paste: \(path):3: bad value '\(value)' for 'max-size': expected a size from 1 to 1024G "
                    + "(such as 512K, 10M)\n")
        }
    }

    // MARK: - What reaches the terminal

    /// The escape-laden name of issue 16: an OSC that retitles the terminal, ended by BEL.
    static let hostileName = "\u{1B}]0;PWNED\u{07}\u{9B}31m\u{202E}gpj.exe"

    @Test("an escape-laden file name never reaches stderr raw: escaped visibly, the rest kept")
    func hostileFileName() throws {
        let missing = try paste.run(["-f", Self.hostileName, "--no-copy"])
        #expect(missing.status == 66)
        #expect(
            missing.err == "paste: cannot read '\\e]0;PWNED\\a\\u{9B}31m\\u{202E}gpj.exe': no such file or directory\n")
        #expect(isTerminalSafe(missing.stderr))

        // An empty file of that name, given relative to the folder it is in.
        try paste.home.write("", to: Self.hostileName)
        let refused = try runProcess(
            BuiltProducts.path(of: "paste"), ["-f", Self.hostileName, "--no-copy"], environment: paste.environment,
            currentDirectory: home.root.path)
        #expect(refused.status == 65)
        #expect(refused.err == "paste: nothing to paste: '\\e]0;PWNED\\a\\u{9B}31m\\u{202E}gpj.exe' is empty\n")
        #expect(isTerminalSafe(refused.stderr))

        // A name too long for the system: the message stays one short line.
        let long = String(repeating: "\u{1B}[2J", count: 30_000)
        let tooLong = try paste.run(["-f", long, "--no-copy"])
        #expect(tooLong.status != 0)
        #expect(tooLong.stderr.count < 500, "stderr: \(tooLong.err.prefix(600))")
        #expect(isTerminalSafe(tooLong.stderr))
    }

    @Test("a 100 kB unknown option and a hostile -S name are cut and escaped")
    func hostileArguments() throws {
        let option = try paste.run(["--" + String(repeating: "x", count: 100_000)])
        #expect(option.status == 64)
        #expect(
            option.err == "paste: unknown option '--" + String(repeating: "x", count: 80) + "…'\n"
                + "paste: try 'paste --help'\n")
        let escaped = try paste.run(["--\u{1B}[2J\u{07}"])
        #expect(escaped.status == 64)
        #expect(escaped.err.hasPrefix("paste: unknown option '--\\e[2J\\a'\n"))
        let service = try paste.run(["-S", Self.hostileName, "--no-copy"], stdin: "x\n")
        #expect(service.status == 78)
        #expect(service.err.hasPrefix("paste: unknown service '\\e]0;PWNED\\a\\u{9B}31m\\u{202E}gpj.exe'; known: "))
        for result in [option, escaped, service] { #expect(isTerminalSafe(result.stderr)) }
    }

    @Test("config values holding escapes, and a 1 MB config line, reach stderr escaped and short")
    func hostileConfig() throws {
        let megabyte = String(repeating: "y", count: 1 << 20)
        let configs: [(text: String, shows: String)] = [
            // A url holding an OSC sequence, before and after its scheme.
            ("[service \"x\"]\nurl = \u{1B}]0;PWNED\u{07}http://x/\n", "'\\e]0;PWNED\\ahttp://x/'"),
            ("[paste]\nretries = 0\n[service \"x\"]\nurl = http://127.0.0.1:9/\u{1B}]0;PWNED\u{07}\n", "PWNED"),
            // A service named with escapes, and its unknown key.
            (
                "[service \"\u{1B}[31mred\u{07}\"]\nurl = http://127.0.0.1:9/\ncolour = 1\n",
                "[service \"\\e[31mred\\a\"]"
            ),
            // A 1 MB line: as an unknown key, as a value, as a section name.
            ("[paste]\n\(megabyte) = 1\n", "unknown key 'yyy"),
            ("[paste]\ntimeout = \(megabyte)\n", "bad value 'yyy"),
            ("[\(megabyte)]\n", "unknown section [yyy"),
        ]
        for (text, shows) in configs {
            try paste.home.write(text, to: "config/paste/config")
            let result = try paste.run(["-S", "x", "--no-copy", "--timeout", "2"], stdin: "x\n")
            #expect(result.status != 0)
            #expect(isTerminalSafe(result.stderr), "stderr: \(result.err.prefix(300).debugDescription)")
            #expect(result.stderr.count < 400, "stderr: \(result.err.prefix(500))")
            #expect(result.err.contains(shows), "stderr: \(result.err.prefix(300).debugDescription)")
        }
        // --list-services shows configured names and URLs escaped too.
        try paste.home.write(
            "[service \"\u{1B}[31mred\u{07}\"]\nurl = http://127.0.0.1:9/\u{202E}x\n", to: "config/paste/config")
        let list = try paste.run(["--list-services"])
        #expect(list.status == 0)
        #expect(isTerminalSafe(list.stdout))
        #expect(list.out.contains("\\e[31mred\\a"))
        #expect(list.out.contains("http://127.0.0.1:9/\\u{202E}x"))
    }

    // MARK: - URLs from servers

    @Test(
        "a server URL with a bidi control, a zero-width character or user information: exit 69, one line",
        arguments: [
            ("bidi", "it holds the bidirectional control U+202E, which makes it read as another address"),
            ("zero-width", "it holds the invisible character U+200B, which hides what it leads to"),
            ("userinfo", "it puts a user name before the host (user@host), which hides where it leads"),
        ])
    func spoofedURL(_ spoof: String, _ problem: String) throws {
        try paste.writeConfig(Self.config(mock))
        try mock.addFault(.spoofURL(spoof: spoof), path: "/pasters/")
        let result = try paste.run(["-S", "raw", "--no-copy"], stdin: "spoof me\n")
        #expect(result.status == 69)
        #expect(result.out.isEmpty)
        // The server took the text before it answered: the paste may exist, so it is held.
        let id = try #require(try paste.outboxIDs().first)
        #expect(result.err == "paste: raw gave an unusable URL: \(problem)\n" + keptLine(id: id, isHeld: true) + "\n")
        #expect(try paste.historyLines().isEmpty)
    }

    // MARK: - Binary and non-UTF-8 input

    /// 9 MiB of text, past the 8 MiB read into memory first, so the rest streams.
    static let nineMiB = Data(repeating: UInt8(ascii: "a"), count: 9 << 20)

    @Test("a NUL 9 MiB into stdin: exit 65 naming its offset, no paste on the server, nothing kept")
    func nulInStream() throws {
        try paste.writeConfig(Self.config(mock))
        for service in [["--url", mock.url("/pastes/create")], ["-S", "raw"], ["-S", "json"]] {
            let input = Self.nineMiB + Data([0x62, 0x00, 0x63]) + Data(repeating: 0x64, count: 4096)
            let result = try paste.run(service + ["--no-copy"], input: .bytes(input))
            #expect(result.status == 65, "\(service): \(result.err)")
            #expect(
                result.err
                    == "paste: stdin looks like binary data (a NUL byte at byte offset \((9 << 20) + 1)); "
                    + "only text is pasted\n")
            #expect(try mock.pastes().isEmpty, "\(service): the server made a paste")
            #expect(try paste.outboxContents().isEmpty)
        }
        // The requests began (the start streamed) but never completed: some arrived, and none
        // made a paste.
        let requests = try mock.requests()
        #expect(!requests.isEmpty, "no request reached the server: nothing was streamed")
        #expect(requests.allSatisfy { $0.dropped || $0.pasteId == nil })
    }

    @Test("a NUL 9 MiB into stdin to a tcp service: exit 65, the connection reset, nothing kept", .mock(tcp: true))
    func nulInStreamOverTCP() throws {
        try paste.home.write(
            "[service \"t\"]\nurl = tcp://127.0.0.1:\(mock.tcpPort!)\nformat = tcp\nresult = body\n",
            to: "config/paste/config")
        let input = Self.nineMiB + Data([0x62, 0x00, 0x63])
        let result = try paste.run(["-S", "t", "--no-copy"], input: .bytes(input))
        #expect(result.status == 65, "stderr: \(result.err)")
        #expect(result.out.isEmpty)
        #expect(
            result.err
                == "paste: stdin looks like binary data (a NUL byte at byte offset \((9 << 20) + 1)); only text is pasted\n"
        )
        #expect(try paste.outboxContents().isEmpty)
        // A raw TCP paste has no framing: what a netcat-style server received before the reset
        // may still be kept (this mock keeps it, as fiche would), never the NUL or what follows.
        // The mock keeps it when it sees the reset, which may come after paste has exited.
        var pastes: [MockStoredPaste] = []
        try? waitUntil("the server to keep what it received before the reset") {
            pastes = try mock.pastes()
            return !pastes.isEmpty
        }
        #expect(!pastes.isEmpty, "the server received nothing: the start was not streamed")
        #expect(pastes.allSatisfy { $0.size <= 9 << 20 })
    }

    @Test("a NUL at the very end of a 9 MiB -f file: exit 65, the last bytes never go, no paste")
    func nulAtEndOfFile() throws {
        try paste.writeConfig(Self.config(mock))
        let file = home.root.appendingPathComponent("big.log")
        try (Self.nineMiB + Data([0x00])).write(to: file)
        for service in [["--url", mock.url("/pastes/create")], ["-S", "raw"], ["-S", "json"]] {
            let result = try paste.run(service + ["--no-copy", "-f", file.path])
            #expect(result.status == 65, "\(service): \(result.err)")
            #expect(
                result.err
                    == "paste: '\(file.path)' looks like binary data (a NUL byte at byte offset \(9 << 20)); "
                    + "only text is pasted\n")
        }
        #expect(try mock.pastes().isEmpty)
        #expect(try paste.outboxContents().isEmpty)
    }

    @Test("caf\\xe9: refused by form and json at byte offset 3, sent byte-exact by multipart and raw")
    func notUTF8() throws {
        try paste.writeConfig(Self.config(mock))
        let latin1 = Data([0x63, 0x61, 0x66, 0xE9])
        for format in ["form", "json"] {
            let result = try paste.run(["-S", format, "--no-copy"], input: .bytes(latin1))
            #expect(result.status == 65)
            #expect(
                result.err
                    == "paste: the text is not UTF-8 (byte offset 3), and format = \(format) sends only UTF-8 text; "
                    + "nothing was pasted\n"
                    + "paste: convert it (iconv -t UTF-8), or use a service whose format is multipart or raw\n")
        }
        #expect(try mock.pastes().isEmpty)
        for service in [["--url", mock.url("/pastes/create")], ["-S", "raw"]] {
            let result = try paste.run(service + ["--no-copy"], input: .bytes(latin1))
            #expect(result.status == 0, "stderr: \(result.err)")
            let id = try #require(pasteID(result.out))
            #expect(try mock.rawPaste(id: id) == latin1)
        }
        #expect(try paste.outboxContents().isEmpty)
    }

    @Test("a stream that stops being UTF-8 past 9 MiB is refused mid-way by a JSON service: no paste")
    func notUTF8InStream() throws {
        try paste.writeConfig(Self.config(mock))
        // A sequence cut short at the very end: only the end of the stream can tell.
        let input = Self.nineMiB + Data("é\"\n".utf8) + Data([0xC3])
        let result = try paste.run(["-S", "json", "--no-copy"], input: .bytes(input))
        #expect(result.status == 65)
        #expect(result.err.hasPrefix("paste: stdin is not UTF-8 (byte offset \((9 << 20) + 4)), and format = json"))
        #expect(try mock.pastes().isEmpty)
        #expect(try paste.outboxContents().isEmpty)
    }

    @Test("9 MiB piped to a JSON service arrive whole: escaped as they stream, chunked, byte-exact once decoded")
    func jsonStream() throws {
        try paste.writeConfig(Self.config(mock))
        // Quotes, backslashes, controls and multi-byte characters, repeated so that chunks
        // split them at every alignment.
        var text = Data()
        let piece = Data("line \"quoted\" \\ back\ttab\u{1}\u{1F} café 日本語 🎉\r\n".utf8)
        while text.count < (9 << 20) + 12_345 { text += piece }
        let result = try paste.run(["-S", "json", "-t", "big \"one\"", "--no-copy"], input: .bytes(text))
        #expect(result.status == 0, "stderr: \(result.err)")
        let id = try #require(pasteID(result.out))
        #expect(try mock.rawPaste(id: id) == text)
        let request = try #require(try mock.requests().first { $0.method == "POST" })
        #expect(request.chunked)
        #expect(request.bodyKind == "json")
    }

    // MARK: - The answer's deadline

    @Test("a server trickling its answer above the stall limit is cut at response-timeout: exit 75, text kept")
    func responseTimeout() throws {
        // [paste] says 10 minutes; the service's own says 1 s, and wins.
        try paste.home.write(
            Self.config(mock, extra: "response-timeout = 10m")
                + "[service \"slow\"]\nurl = \(mock.url("/pasters/"))\nformat = raw\nresult = body\n"
                + "response-timeout = 1\n",
            to: "config/paste/config")
        // 20 bytes a second: twice the stall floor, so only the answer's deadline ends it.
        try mock.addFault(.trickle(bytes: 2, seconds: 0.1), count: 0, path: "/pasters/")
        let result = try paste.run(["-S", "slow", "--no-copy"], stdin: "trickled\n")
        #expect(result.status == 75)
        // The body went out before the deadline: the paste may exist, so it is held.
        let id = try #require(try paste.outboxIDs().first)
        #expect(
            result.err
                == "paste: no complete answer from 127.0.0.1:\(mock.port) within 1s of sending the text "
                + "(response-timeout)\n" + keptLine(id: id, isHeld: true) + "\n")
        #expect(try paste.outboxContents() == [Data("trickled\n".utf8)])
    }

    // MARK: - Memory

    @Test(
        "100 MB of stdin to a JSON service is escaped as it streams: peak RSS at most 64 MiB",
        .mock(arguments: ["--discard-bodies"]), .tags(.slow))
    func jsonStreamMemory() throws {
        try paste.writeConfig(Self.config(mock))
        let (result, peakKiB) = try paste.runMeasuringPeak(
            "head -c 100000000 /dev/zero | tr '\\0' '\"'", "-S json --no-copy --json")
        #expect(result.status == 0, "stderr: \(result.err)")
        let peak = try #require(peakKiB)
        #expect(peak <= StreamingTests.memoryCeilingKiB, "peak RSS \(peak) KiB")
        #expect(result.out.contains("\"bytes\":100000000"))
        // Every quote was escaped: the body is the template around 200 MB of `\"`.
        let request = try #require(try mock.requests().first { $0.method == "POST" })
        #expect(request.chunked)
        #expect(request.bodySize == 200_000_000 + #"{"content": "", "title": "untitled"}"#.utf8.count)
    }
}
