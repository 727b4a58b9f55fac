import Foundation
import PasteCore
import Testing
import TestSupport

@testable import PasteCLI

/// `--redact` and the `redact` keys in process (`PipelineHarness`): what is sent, said, kept in
/// the outbox and the history when the guard's findings are masked instead of refused (issue
/// 42, item 3). The binary against a real pinnwand: `RedactEndToEndTests`.
@Suite("In process: --redact masks the guard's findings", .temporaryHome)
struct InProcessRedactTests: ScopedSuite {
    static let token = "ghp_" + "R7b2K9xQ4mN8vL3cT6yH1pZ5wJ0sD24BzMYC"
    static let text = "deploy log 日本語\n  export GH=\(token) # ci\npassword = \"s3cr3t!Pw\"\nend\n"
    static let masked =
        "deploy log 日本語\n  export GH=[redacted: github-token] # ci\npassword = \"[redacted: password]\"\nend\n"
    static let maskedLine =
        "paste: masked 2 secrets in stdin: github-token at line 2, column 13, password at line 3, column 1\n"

    /// Every file under the home's state folder, whole: nothing there may hold a value.
    func stateFiles() throws -> [String] {
        let root = home.stateHome.path
        guard let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] else { return [] }
        return names.compactMap { name in
            (try? Data(contentsOf: URL(fileURLWithPath: root + "/" + name))).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    @Test("--redact: the masked text is sent, stderr lists kind, line and column, history keeps only places")
    func made() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(
            ["--no-copy", "--redact"], stdin: .pipe(Array(Self.text.utf8)), answers: [.created("https://m.test/p/1")])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "https://m.test/p/1\n")
        #expect(run.err == Self.maskedLine)
        #expect(run.requests.map(\.text) == [Self.masked])
        let history = try harness.history()
        #expect(history.count == 1)
        let redacted = try #require(history.first?["redacted"] as? [[String: Any]])
        #expect(redacted.map { $0["kind"] as? String } == ["github-token", "password"])
        #expect(redacted.map { $0["line"] as? Int } == [2, 3])
        #expect(redacted.map { $0["column"] as? Int } == [13, 1])
        #expect(history.first?["bytes"] as? Int == Self.masked.utf8.count)
        #expect(try stateFiles().allSatisfy { !$0.contains(Self.token) && !$0.contains("s3cr3t") })
    }

    @Test("--json: the object lists each replacement (kind, line, column), never a value")
    func json() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(
            ["--no-copy", "--redact", "--json"], stdin: .text(Self.text), answers: [.created("https://m.test/p/2")])
        #expect(run.status == 0)
        #expect(run.err == "")
        #expect(
            run.out.hasSuffix(
                ",\"redacted\":[{\"kind\":\"github-token\",\"line\":2,\"column\":13},"
                    + "{\"kind\":\"password\",\"line\":3,\"column\":1}]}\n"), "\(run.out)")
        #expect(!run.out.contains(Self.token))
    }

    /// Stdin piped: without `--redact` it is spliced into the outbox as it is read; with it,
    /// nothing is journaled before the mask, and a failure keeps only the masked text.
    @Test(
        "a failed upload keeps only the masked text in the outbox; --retry sends that",
        arguments: [PipelineHarness.Input.pipe(Array(text.utf8)), .text(text)])
    func outboxHoldsMasked(_ input: PipelineHarness.Input) throws {
        try harness.writeConfig(harnessConfig())
        let failed = try harness.run(["--no-copy", "--redact"], stdin: input, answers: [.http(503, body: "busy")])
        #expect(failed.status == 75)
        #expect(failed.requests.map(\.text) == [Self.masked])
        #expect(try harness.outboxContents() == [Self.masked])
        #expect(try stateFiles().allSatisfy { !$0.contains(Self.token) && !$0.contains("s3cr3t") })
        let retried = try harness.run(["--retry", "--no-copy"], answers: [.created("https://m.test/p/3")])
        #expect(retried.status == 0, "\(retried.err)")
        #expect(retried.requests.map(\.text) == [Self.masked])
        #expect(try harness.outboxContents().isEmpty)
        // The retry's history line says what was masked, as a fresh paste's does.
        let redacted = try #require(try harness.history().first?["redacted"] as? [[String: Any]])
        #expect(redacted.map { $0["kind"] as? String } == ["github-token", "password"])
        #expect(redacted.map { $0["line"] as? Int } == [2, 3])
    }

    /// The guard stops at 100 findings: a text with more masks the first 100, and the scan of
    /// the masked text finds the rest, so nothing is sent.
    @Test("a masked text that still trips the guard is not sent (77), and nothing is kept")
    func stillTrips() throws {
        try harness.writeConfig(harnessConfig())
        let text = String(repeating: "key AKIAY026A4N7VAPKLNWR\n", count: 130)
        let run = try harness.run(["--no-copy", "--redact"], stdin: .pipe(Array(text.utf8)))
        #expect(run.status == 77)
        #expect(
            run.err
                == "paste: refusing to upload stdin: after masking, it still looks like it holds a secret "
                + "(an AWS access key id at line 101, column 5); nothing was sent\n")
        #expect(run.requests.isEmpty)
        #expect(try harness.outboxEntries().isEmpty)
        #expect(try harness.history().isEmpty)
    }

    /// Stdin past what is held in memory: a secret on its first line and one on its last, a
    /// few hundred kilobytes past the 8 MiB the guard holds.
    static let fillerLines = (PasteInput.inMemoryLimit + (512 << 10)) / 32
    static let filler = Array(String(repeating: "2026-12-06 worker: served 12 ms\n", count: fillerLines).utf8)
    static let bigText = Array("GH=\(token)\n".utf8) + filler + Array("password = \"s3cr3t!Pw\"\nend\n".utf8)
    static let bigMasked =
        Array("GH=[redacted: github-token]\n".utf8) + filler + Array("password = \"[redacted: password]\"\nend\n".utf8)
    static let bigMaskedLine =
        "paste: masked 2 secrets in stdin: github-token at line 1, column 4, "
        + "password at line \(fillerLines + 2), column 1\n"

    /// Every file in the outbox folder, hidden ones too: nothing is left behind.
    func outboxFolderNames() -> [String] {
        let folder = home.stateHome.appendingPathComponent("paste/outbox").path
        return (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }

    @Test("stdin past what is held in memory is held whole in the outbox, scanned and masked; nothing raw is kept")
    func streamMasked() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(
            ["--no-copy", "--redact"], stdin: .pipe(Self.bigText), answers: [.created("https://m.test/p/7")])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "https://m.test/p/7\n")
        #expect(run.err == Self.bigMaskedLine)
        #expect(run.requests.count == 1)
        let isMasked = run.requests.first?.content == Self.bigMasked
        #expect(isMasked)
        #expect(outboxFolderNames().isEmpty)
        let history = try harness.history()
        #expect(history.first?["bytes"] as? Int == Self.bigMasked.count)
        let redacted = try #require(history.first?["redacted"] as? [[String: Any]])
        #expect(redacted.map { $0["line"] as? Int } == [1, Self.fillerLines + 2])
    }

    /// The outbox keeps only the masked copy of a large stdin, and its entry says what was
    /// masked: `--retry` sends that copy and its history line lists the replacements.
    @Test("a large masked stdin that fails waits masked in the outbox; --retry's history line lists what was masked")
    func streamFailedThenRetried() throws {
        try harness.writeConfig(harnessConfig())
        let failed = try harness.run(
            ["--no-copy", "--redact"], stdin: .pipe(Self.bigText), answers: [.http(503, body: "busy")])
        #expect(failed.status == 75)
        let contents = try harness.outboxContents()
        #expect(contents.count == 1)
        let isMasked = contents.first.map { Array($0.utf8) == Self.bigMasked } ?? false
        #expect(isMasked)
        #expect(try stateFiles().allSatisfy { !$0.contains(Self.token) && !$0.contains("s3cr3t") })
        let entry = try #require(try harness.outboxEntries().first)
        let kept = try #require(entry["redacted"] as? [[String: Any]])
        #expect(kept.map { $0["kind"] as? String } == ["github-token", "password"])
        let retried = try harness.run(["--retry", "--no-copy"], answers: [.created("https://m.test/p/8")])
        #expect(retried.status == 0, "\(retried.err)")
        let isSent = retried.requests.first?.content == Self.bigMasked
        #expect(isSent)
        let redacted = try #require(try harness.history().first?["redacted"] as? [[String: Any]])
        #expect(redacted.map { $0["kind"] as? String } == ["github-token", "password"])
        #expect(redacted.map { $0["line"] as? Int } == [1, Self.fillerLines + 2])
        #expect(outboxFolderNames().isEmpty)
    }

    @Test("a large clean stdin with --redact goes byte-exact from its entry; a failure keeps it whole")
    func streamClean() throws {
        try harness.writeConfig(harnessConfig())
        let clean = Self.filler + Array("no secret here\n".utf8)
        let made = try harness.run(
            ["--no-copy", "--redact"], stdin: .pipe(clean), answers: [.created("https://m.test/p/9")])
        #expect(made.status == 0, "\(made.err)")
        #expect(made.err == "")
        let isSame = made.requests.first?.content == clean
        #expect(isSame)
        #expect(outboxFolderNames().isEmpty)
        let failed = try harness.run(
            ["--no-copy", "--redact"], stdin: .pipe(clean), answers: [.http(503, body: "busy")])
        #expect(failed.status == 75)
        let kept = try harness.outboxContents()
        #expect(kept.count == 1 && kept.first.map { Array($0.utf8) == clean } == true)
        #expect(try harness.outboxEntries().first?["state"] as? String == "retryable")
    }

    @Test("a large stdin held for --redact stops at the service's max-size: 65, nothing sent, nothing kept")
    func streamPastMaximum() throws {
        try harness.writeConfig(
            harnessConfig().replacingOccurrences(of: "result = body\n", with: "result = body\nmax-size = 8400000\n"))
        let run = try harness.run(["--no-copy", "--redact"], stdin: .pipe(Self.bigText))
        #expect(run.status == 65)
        #expect(run.err.hasPrefix("paste: the text is more than "), "\(run.err)")
        #expect(run.err.hasSuffix(" bytes but 'm' accepts at most 8400000; nothing was uploaded\n"), "\(run.err)")
        #expect(run.requests.isEmpty)
        #expect(outboxFolderNames().isEmpty)
    }

    /// A service's literal field (not named like a credential, which is meant to hold one) with
    /// a token in it: masked for a service that masks, refused for one that does not.
    @Test("a service's literal field with a token is masked for a service that masks, and named")
    func field() throws {
        let config = harnessConfig().replacingOccurrences(
            of: "result = body\n", with: "result = body\nfield = note=deployed by \(Self.token)\n")
        try harness.writeConfig(config)
        let run = try harness.run(
            ["--no-copy", "--redact", "--json"], stdin: .text("clean text\n"),
            answers: [.created("https://m.test/p/13")])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.requests.first?.fields["note"] == "deployed by [redacted: github-token]")
        #expect(
            run.out.hasSuffix(
                ",\"redacted\":[\(Self.maskedField)]}\n"),
            "\(run.out)")
        let said = try harness.run(
            ["--no-copy", "--redact"], stdin: .text("another clean text\n"), answers: [.created("https://m.test/p/14")])
        #expect(said.err == "paste: masked 1 secret in the field note: github-token at column 13\n")
        let refused = try harness.run(["--no-copy"], stdin: .text("clean text\n"))
        #expect(refused.status == 77)
        #expect(refused.requests.isEmpty)
    }

    // MARK: - A fallback's values

    /// `--json`'s item for the `note` field's masked token (the harness's `field note`).
    /// A history record of a paste made on the fallback `b` with its field note masked: the
    /// masked item listed (kind, field, column).
    static func expectMaskedFieldListed(
        in record: [String: Any], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(record["service"] as? String == "b", sourceLocation: sourceLocation)
        let redacted = try #require(record["redacted"] as? [[String: Any]], sourceLocation: sourceLocation)
        #expect(redacted.map { $0["kind"] as? String } == ["github-token"], sourceLocation: sourceLocation)
        #expect(redacted.map { $0["field"] as? String } == ["field note"], sourceLocation: sourceLocation)
        #expect(redacted.map { $0["column"] as? Int } == [13], sourceLocation: sourceLocation)
    }

    /// A `--json` run that fell back to `b` with its field note masked: its object lists the
    /// masked item and names `b`.
    static func expectFellBackMasked(
        _ json: PipelineHarness.Run, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(json.status == 0, "\(json.err)", sourceLocation: sourceLocation)
        #expect(json.err == fellBack, sourceLocation: sourceLocation)
        #expect(json.out.hasSuffix(",\"redacted\":[\(maskedField)]}\n"), "\(json.out)", sourceLocation: sourceLocation)
        #expect(json.out.contains("\"service\":\"b\""), "\(json.out)", sourceLocation: sourceLocation)
    }

    static let maskedField = "{\"kind\":\"github-token\",\"line\":1,\"column\":13,\"field\":\"field note\"}"

    static let fellBack =
        "paste: m failed (cannot connect to m.test:443: connection refused): the text went to 'b' instead\n"

    /// The harness's `m` falling back to `b`, with `extra` added to `m`'s section and to `b`'s.
    func fallbackConfig(m: String = "", b: String = "") -> String {
        harnessConfig(fallbacks: ["b"])
            .replacingOccurrences(of: "url = https://m.test/upload\n", with: "url = https://m.test/upload\n" + m)
            .replacingOccurrences(of: "url = https://b.test/upload\n", with: "url = https://b.test/upload\n" + b)
    }

    /// A fallback's literal field with a token, when the run masks on that service (`--redact`,
    /// or the fallback's own `redact` key): masked as the run's own service's field is, the same
    /// stderr line, `--json` and history items, through `GuardStage.maskFields`.
    @Test(
        "a fallback's literal field with a token is masked, said and listed, when the run masks on it",
        arguments: [(["--redact"], ""), ([], "redact = true\n")] as [([String], String)])
    func fallbackField(_ arguments: [String], _ key: String) throws {
        try harness.writeConfig(fallbackConfig(b: "field = note=deployed by \(Self.token)\n" + key))
        let said = try harness.run(
            ["--no-copy"] + arguments, stdin: .text("clean text\n"),
            answers: [.refused(), .created("https://b.test/p/1")])
        #expect(said.status == 0, "\(said.err)")
        #expect(said.out == "https://b.test/p/1\n")
        #expect(said.err == "paste: masked 1 secret in the field note: github-token at column 13\n" + Self.fellBack)
        #expect(said.requests.map(\.url) == ["https://m.test/upload", "https://b.test/upload"])
        #expect(said.requests.last?.fields["note"] == "deployed by [redacted: github-token]")
        try Self.expectMaskedFieldListed(in: try #require(try harness.history().first))
        #expect(try stateFiles().allSatisfy { !$0.contains(Self.token) })

        let json = try harness.run(
            ["--no-copy", "--json"] + arguments, stdin: .text("another clean text\n"),
            answers: [.refused(), .created("https://b.test/p/2")])
        Self.expectFellBackMasked(json)
    }

    @Test("a fallback that does not mask still refuses its field with a token: the text waits for its own service")
    func fallbackFieldRefused() throws {
        try harness.writeConfig(fallbackConfig(b: "field = note=deployed by \(Self.token)\nredact = false\n"))
        let run = try harness.run(
            ["--no-copy"], stdin: .text("clean text\n"), answers: [.refused(), .created("https://b.test/p/3")])
        #expect(run.status == 75)
        #expect(run.requests.map(\.url) == ["https://m.test/upload"])
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        #expect(
            run.err
                == "paste: not falling back to 'b': refusing to upload: the field 'note' of service 'b' looks like "
                + "it holds a GitHub token; use --force to upload anyway\n"
                + "paste: cannot connect to m.test:443: connection refused\n" + whereLine(id: id, isHeld: false) + "\n")
    }

    @Test("the run's own service's masked field is not listed for the fallback's paste, which does not carry it")
    func fallbackLeavesFirstField() throws {
        try harness.writeConfig(fallbackConfig(m: "field = note=deployed by \(Self.token)\n"))
        let run = try harness.run(
            ["--no-copy", "--redact", "--json", "-t", "release \(Self.token)"], stdin: .text("clean text\n"),
            answers: [.refused(), .created("https://b.test/p/4")])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.requests.first?.fields["note"] == "deployed by [redacted: github-token]")
        #expect(run.requests.last?.fields["note"] == nil)
        #expect(run.requests.last?.fields["title"] == "release [redacted: github-token]")
        #expect(
            run.out.hasSuffix(
                ",\"redacted\":[{\"kind\":\"github-token\",\"line\":1,\"column\":9,\"field\":\"title\"}]}\n"),
            "\(run.out)")
        let redacted = try #require(try harness.history().first?["redacted"] as? [[String: Any]])
        #expect(redacted.map { $0["field"] as? String } == ["title"])
    }

    /// Stdin held whole for `--redact`, and its masked copy, are read by their descriptor
    /// (`/proc/self/fd/N`): a refusal of what they hold still names them `stdin`.
    @Test("a large held or masked stdin that a form cannot carry is refused as stdin", arguments: [false, true])
    func streamRefusedAsStdin(_ hasSecret: Bool) throws {
        try harness.writeConfig(
            harnessConfig().replacingOccurrences(of: "result = body\n", with: "result = body\nformat = form\n"))
        let start = Array((hasSecret ? "GH=\(Self.token)\n" : "GH=unset\n").utf8)
        let run = try harness.run(["--no-copy", "--redact"], stdin: .pipe(start + Self.filler + [0xFF, 0x0A]))
        #expect(run.status == 65)
        let sent = hasSecret ? Array("GH=[redacted: github-token]\n".utf8) : start
        #expect(
            run.err
                == (hasSecret ? "paste: masked 1 secret in stdin: github-token at line 1, column 4\n" : "")
                + "paste: stdin is not UTF-8 (byte offset \(sent.count + Self.filler.count)), and format = form "
                + "sends only UTF-8 text; nothing was pasted\n"
                + "paste: convert it (iconv -t UTF-8), or use a service whose format is multipart or raw\n")
        #expect(run.requests.isEmpty)
    }

    @Test("-n --redact on a large stdin: what would be masked is said, the masked size shown, nothing kept")
    func streamDryRun() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["-n", "--redact"], stdin: .pipe(Self.bigText))
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err == Self.bigMaskedLine)
        #expect(run.out.contains("\(Self.bigMasked.count) bytes"), "\(run.out.prefix(2000))")
        #expect(run.requests.isEmpty)
        #expect(outboxFolderNames().isEmpty)
    }

    @Test("-f past what is held in memory: masked from the file a chunk at a time")
    func largeFile() throws {
        try harness.writeConfig(harnessConfig())
        let path = home.root.appendingPathComponent("big.log").path
        try Data(Self.bigText).write(to: URL(fileURLWithPath: path))
        let run = try harness.run(
            ["--no-copy", "--redact", "-f", path], answers: [.created("https://m.test/p/10")])
        #expect(run.status == 0, "\(run.err)")
        #expect(
            run.err
                == "paste: masked 2 secrets in '\(path)': github-token at line 1, column 4, "
                + "password at line \(Self.fillerLines + 2), column 1\n")
        let isMasked = run.requests.first?.content == Self.bigMasked
        #expect(isMasked)
        #expect(outboxFolderNames().isEmpty)
    }

    @Test("a title with a token is masked as the text is: sent, said and recorded with its place")
    func title() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(
            ["--no-copy", "--redact", "-t", "release \(Self.token)"], stdin: .text("clean text\n"),
            answers: [.created("https://m.test/p/11")])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err == "paste: masked 1 secret in the title: github-token at column 9\n")
        #expect(run.requests.first?.fields["title"] == "release [redacted: github-token]")
        #expect(run.requests.first?.text == "clean text\n")
        let record = try #require(try harness.history().first)
        #expect(record["title"] as? String == "release [redacted: github-token]")
        let redacted = try #require(record["redacted"] as? [[String: Any]])
        #expect(redacted.count == 1)
        #expect(redacted.first?["field"] as? String == "title")
        #expect(redacted.first?["column"] as? Int == 9)
        #expect(try stateFiles().allSatisfy { !$0.contains(Self.token) })
        let json = try harness.run(
            ["--no-copy", "--redact", "--json", "-t", "release \(Self.token)"], stdin: .text(Self.text),
            answers: [.created("https://m.test/p/12")])
        #expect(json.status == 0)
        #expect(json.err == "")
        #expect(
            json.out.hasSuffix(
                ",\"redacted\":[{\"kind\":\"github-token\",\"line\":2,\"column\":13},"
                    + "{\"kind\":\"password\",\"line\":3,\"column\":1},"
                    + "{\"kind\":\"github-token\",\"line\":1,\"column\":9,\"field\":\"title\"}]}\n"), "\(json.out)")
        // Without --redact the title is refused, as ever.
        let refused = try harness.run(["--no-copy", "-t", "release \(Self.token)"], stdin: .text("clean text\n"))
        #expect(refused.status == 77)
        #expect(refused.requests.isEmpty)
    }

    @Test("--redact with --force is a usage error (64)")
    func withForce() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["--redact", "--force"], stdin: .text(Self.text))
        #expect(run.status == 64)
        #expect(run.err.hasPrefix("paste: --redact masks what --force would send as it is; choose one\n"))
        #expect(run.requests.isEmpty)
    }

    /// Which of the command line, `[paste]` and the service's section decides, and what
    /// happens: masked (0), refused (77), or sent as it is (`--force` beats a config key).
    @Test(
        "--redact, [paste] redact and a service's redact: who decides",
        arguments: [
            ([], "redact = true\n", "", "masked"),
            ([], "", "redact = true\n", "masked"),
            ([], "redact = true\n", "redact = false\n", "refused"),
            (["--redact"], "", "redact = false\n", "masked"),
            (["--force"], "redact = true\n", "", "sent"),
            ([], "", "", "refused"),
        ] as [([String], String, String, String)])
    func keys(_ arguments: [String], _ paste: String, _ service: String, _ outcome: String) throws {
        try harness.writeConfig(
            harnessConfig(extra: paste).replacingOccurrences(of: "result = body\n", with: "result = body\n" + service))
        let run = try harness.run(
            ["--no-copy"] + arguments, stdin: .text(Self.text), answers: [.created("https://m.test/p/4")])
        switch outcome {
        case "masked":
            #expect(run.status == 0, "\(run.err)")
            #expect(run.requests.map(\.text) == [Self.masked])
        case "sent":
            #expect(run.status == 0, "\(run.err)")
            #expect(run.requests.map(\.text) == [Self.text])
        default:
            #expect(run.status == 77)
            #expect(run.requests.isEmpty)
        }
    }

    @Test("-n --redact: the dry run shows the masked request and lists what would be masked; nothing is sent")
    func dryRun() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["-n", "--redact"], stdin: .text(Self.text))
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err == Self.maskedLine)
        // A form's content is shown by its size: the masked text's.
        #expect(run.out.contains("content=<stdin, \(Self.masked.utf8.count) bytes>"), "\(run.out)")
        #expect(Self.masked.utf8.count != Self.text.utf8.count)
        #expect(!run.out.contains(Self.token))
        #expect(run.requests.isEmpty)
    }

    @Test("-f: each file is masked on its own; a clean file goes as it is, byte-exact")
    func files() throws {
        try harness.writeConfig(harnessConfig())
        let secret = try home.write(Self.text, to: "secret.txt")
        let clean = try home.write("nothing to see\n", to: "clean.txt")
        let run = try harness.run(
            ["--no-copy", "--redact", "-f", secret, "-f", clean],
            answers: [.created("https://m.test/p/5"), .created("https://m.test/p/6")])
        #expect(run.status == 0, "\(run.err)")
        #expect(Set(run.requests.map(\.text)) == [Self.masked, "nothing to see\n"])
        #expect(
            run.err
                == "paste: masked 2 secrets in '\(secret)': github-token at line 2, column 13, "
                + "password at line 3, column 1\n")
    }
}
