import Foundation
import PasteCore
import Stores
import Testing
import TestSupport

/// The second adversarial round's findings (issue 29), each as the person sees it: exact
/// stdout, stderr, status and files.
///
/// Those that are the pipeline's decisions (a future-dated entry, ShareX's old syntax and other
/// schemes, an outbox text edited by hand, an ideographic full stop in an answer's host, escapes
/// inside a token) are `InProcessAdversarialTests`'s; here stay those that need the wire, a real
/// process, a real PrivateBin exchange or the real transport (an entry's URL edited to file://
/// is refused by libcurl's `Uploader`, which the scripted transport stands in for).
@Suite("Second adversarial round: what still broke it", .temporaryHome, .mock, .serialized)
struct AdversarialRoundTests: ScopedSuite {
    /// The URL of the mock's newest paste.
    func newestPasteURL() throws -> String {
        let id = try #require(try mock.pastes().map(\.id).max())
        return mock.url("/pastes/\(id)")
    }

    // MARK: - Finding 2: redaction by value

    @Test("a plain configured header value never erases the link: stdout, --json and history keep /pastes/N whole")
    func plainHeaderKeepsLink() throws {
        try paste.writeConfig(pastieConfig(mock, extra: "header = X-Client: pastes\nheader = X-Kind: plain\n"))
        let result = try paste.run(["-S", "m", "--no-copy"], stdin: "a link to keep\n")
        let url = try newestPasteURL()
        #expect(result.status == 0)
        #expect(result.out == url + "\n")
        #expect(result.err == "")
        let json = try paste.run(["-S", "m", "--no-copy", "--json", "--new"], stdin: "a link to keep, as JSON\n")
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["url"] as? String == (try newestPasteURL()))
        let records = try paste.historyLines().map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.compactMap { $0["url"] as? String } == [url, try newestPasteURL()])
        #expect(try paste.run(["--history"]).out.contains("  \(url)  "))
    }

    // MARK: - Finding 5: a PrivateBin server picks the host

    @Test(
        "a PrivateBin answer whose url is on another host never gets the key: the link is the service's own",
        arguments: ["http://evil.example/?0123456789abcdef", "//evil.example/?0123456789abcdef"])
    func privateBinOtherHost(_ url: String) throws {
        try paste.writeConfig("[service \"privatebin\"]\n    url = \(mock.url("/privatebin/"))\n")
        let answer = #"{"status":0,"id":"0123456789abcdef","url":"\#(url)","deletetoken":"token"}"#
        try mock.addFault(.status(200, body: answer), path: "/privatebin/")
        let result = try paste.run(["-S", "privatebin", "--no-copy"], stdin: "a secret note\n")
        #expect(result.status == 0)
        #expect(result.err == "")
        let prefix = mock.url("/privatebin/?0123456789abcdef#")
        #expect(result.out.hasPrefix(prefix), "\(result.out)")
        #expect(!result.out.contains("evil"))
        #expect(try paste.historyLines().allSatisfy { !$0.contains("evil") })
    }

    // MARK: - Finding 7: a FIFO where a file is read by name

    @Test(
        "a FIFO as --config, PASTE_CONFIG, sxcu, ${file:} or --import-sxcu is refused at once with 78, never waited on",
        arguments: ["--config", "PASTE_CONFIG", "sxcu", "file", "--import-sxcu"])
    func fifoFiles(_ place: String) throws {
        let fifo = paste.home.root.appendingPathComponent("fifo-\(place)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        var paste = paste
        var arguments = ["--no-copy"]
        var prefix = ""
        switch place {
        case "--config": arguments += ["--config", fifo]
        case "PASTE_CONFIG": paste.extraEnvironment["PASTE_CONFIG"] = fifo
        case "sxcu":
            let config = try paste.writeConfig("[service \"x\"]\nsxcu = \(fifo)\n")
            arguments += ["-S", "x"]
            prefix = "\(config):2: "
        case "file":
            let config = try paste.writeConfig(
                pastieConfig(mock, extra: "header = Authorization: Bearer ${file:\(fifo)}\n"))
            arguments += ["-S", "m"]
            prefix = "\(config):7: "
        default: arguments = ["--import-sxcu", fifo]
        }
        let result = try paste.run(arguments, input: .bytes(Data("text\n".utf8)), timeout: 20)
        let what =
            switch place {
            case "sxcu", "--import-sxcu": "ShareX uploader"
            case "file": "secret file"
            default: "config"
            }
        #expect(result.status == 78)
        #expect(result.out == "")
        #expect(
            result.err
                == "paste: \(prefix)cannot read \(what) '\(fifo)': not a regular file (a FIFO, socket or device)\n")
    }

    // MARK: - Finding 11: an entry's URL edited by hand (checked by the transport: the real one)

    @Test("an outbox entry whose URL was edited to file:///etc/passwd is held by --retry with a true line, not retried")
    func editedEntryURL() throws {
        try paste.writeConfig(pastieConfig(mock))
        try mock.addFault(.status(503), path: "/pastes/create")
        let failed = try paste.run(["--url", mock.url("/pastes/create"), "--no-copy"], stdin: "edited entry\n")
        #expect(failed.status == 75)
        let id = try #require(try paste.outboxIDs().first)
        let name = try #require(paste.outboxFiles().first { $0.hasSuffix(".json") })
        let path = paste.outboxFolder.appendingPathComponent(name)
        var metadata = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
        metadata["service_url"] = "file:///etc/passwd"
        try JSONSerialization.data(withJSONObject: metadata).write(to: path)
        let retry = try paste.run(["--retry", "--no-copy"])
        #expect(retry.status == 78)
        #expect(retry.out == "")
        #expect(
            retry.err
                == "paste: unsupported URL 'file:///etc/passwd': use http://, https:// or tcp://host:port\n"
                + "paste: the text is held in the outbox (\(id)): its URL can never be sent; "
                + "'paste --outbox show \(id)' prints the text, 'paste --outbox drop \(id)' drops it\n"
                + "paste: 1 outbox entry is held: 'paste --outbox' lists it; 'paste --outbox send ID' sends one\n")
        #expect(try paste.outboxStates() == ["held"])
        let again = try paste.run(["--retry", "--no-copy"])
        #expect(again.status == 0)
        #expect(again.err.hasSuffix("'paste --outbox send ID' sends one\n"))
    }

    // MARK: - Finding 10: a long history

    @Test("with an 80 MB history a paste reads only its recent end: the repeat still found, peak RSS under 64 MiB")
    func longHistory() throws {
        try paste.writeConfig(pastieConfig(mock))
        // 80 MB of records a year old, then the paste whose repeat the next run must find.
        let old =
            #"{"bytes":12,"options":"","service":"m","sha256":"\#(String(repeating: "0", count: 64))","#
            + #""time":"2025-01-01T00:00:00Z","url":"http://old.example/pastes/1"}"# + "\n"
        var history = Data()
        history.reserveCapacity(81 << 20)
        let block = Data(String(repeating: old, count: 1000).utf8)
        while history.count < 80_000_000 { history.append(block) }
        let path = paste.home.stateHome.appendingPathComponent("paste/history")
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try history.write(to: path)
        let first = try paste.run(["-S", "m", "--no-copy"], stdin: "said twice\n")
        #expect(first.status == 0, "stderr: \(first.err)")
        let (again, peakKiB) = try paste.runMeasuringPeak("printf 'said twice\\n'", "-S m --no-copy", timeout: 120)
        #expect(again.status == 0, "stderr: \(again.err)")
        #expect(again.out == first.out)
        let peak = try #require(peakKiB)
        #expect(peak <= StreamingTests.memoryCeilingKiB, "peak RSS \(peak) KiB")
    }

    // MARK: - Finding 15: -f - reads the names from stdin

    @Test(
        "-f - takes the file names from stdin, one a line or NUL-separated with -0; URLs in order",
        arguments: [false, true])
    func fileNamesFromStandardInput(_ endsWithNUL: Bool) throws {
        try paste.writeConfig(pastieConfig(mock))
        let names = ["one.txt", "two words.txt", "three.txt"]
        var paths: [String] = []
        for (index, name) in names.enumerated() {
            paths.append(try paste.home.write("file \(index)\n", to: "list/\(name)"))
        }
        let separator = endsWithNUL ? "\0" : "\n"
        let result = try paste.run(
            ["-S", "m", "--no-copy", "-f", "-"] + (endsWithNUL ? ["-0"] : []),
            stdin: paths.joined(separator: separator) + separator)
        #expect(result.status == 0, "stderr: \(result.err)")
        #expect(result.err == "")
        let urls = result.out.split(separator: "\n").map(String.init)
        #expect(urls.count == 3)
        let sent = try urls.map { try mock.rawPaste(id: try #require(pasteID($0))) }
        #expect(sent == (0..<3).map { Data("file \($0)\n".utf8) })
    }

    @Test("-0 without -f - is a usage error")
    func nullWithoutList() throws {
        let result = try paste.run(["-0", "--no-copy"], stdin: "text\n")
        #expect(result.status == 64)
        #expect(result.out == "")
        #expect(
            result.err
                == "paste: -0 goes with '-f -' (the names of the files read from stdin)\npaste: try 'paste --help'\n")
    }

    // MARK: - Finding 9: PrivateBin's size limit

    @Test("100 MB piped to PrivateBin is refused past its 10 MiB limit: 65, nothing sent, peak RSS under 64 MiB")
    func privateBinSizeLimit() throws {
        try paste.writeConfig("[service \"privatebin\"]\n    url = \(mock.url("/privatebin/"))\n")
        try mock.clearRequests()
        let (result, peakKiB) = try paste.runMeasuringPeak(
            "head -c 100000000 /dev/zero | tr '\\0' a", "-S privatebin --no-copy")
        #expect(result.status == 65)
        #expect(result.out == "")
        #expect(result.err.hasPrefix("paste: the text is more than "))
        #expect(result.err.hasSuffix(" bytes but 'privatebin' accepts at most 10485760; nothing was uploaded\n"))
        #expect(result.err.split(separator: "\n").count == 1)
        #expect(try mock.requests().allSatisfy { $0.path != "/privatebin/" })
        #expect(paste.outboxFiles().isEmpty)
        // (After "Command exited with non-zero status 65", the figure.)
        let peak = try #require(peakKiB)
        #expect(peak <= StreamingTests.memoryCeilingKiB, "peak RSS \(peak) KiB")
    }

    @Test(
        "a section of another name with format = privatebin has the same limit, or its max-size (issue 45, item 11)",
        arguments: [("", 10_485_760), ("    max-size = 1M\n", 1_048_576)])
    func privateBinSectionLimit(maxSize: String, limit: Int) throws {
        try paste.writeConfig(
            "[service \"selfhosted\"]\n\(maxSize)    url = \(mock.url("/privatebin/"))\n    format = privatebin\n")
        try mock.clearRequests()
        let (result, peakKiB) = try paste.runMeasuringPeak(
            "head -c 100000000 /dev/zero | tr '\\0' a", "-S selfhosted --no-copy")
        #expect(result.status == 65)
        #expect(result.out == "")
        #expect(result.err.hasPrefix("paste: the text is more than "))
        #expect(result.err.hasSuffix(" bytes but 'selfhosted' accepts at most \(limit); nothing was uploaded\n"))
        #expect(result.err.split(separator: "\n").count == 1)
        #expect(try mock.requests().allSatisfy { $0.path != "/privatebin/" })
        #expect(paste.outboxFiles().isEmpty)
        let peak = try #require(peakKiB)
        #expect(peak <= StreamingTests.memoryCeilingKiB, "peak RSS \(peak) KiB")
    }
}
