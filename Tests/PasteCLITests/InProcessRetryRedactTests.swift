import Foundation
import PasteCore
import Testing
import TestSupport
import Upload

@testable import PasteCLI
@testable import Stores

/// `--retry` (and `--outbox send`) mask and check the values that go with an outbox entry as a
/// first send does (issue 42, item 3): its service's literal fields, a fallback's, the title.
/// The entry keeps whether its run asked for masking (`redact` in its metadata); an entry
/// written before that key existed is refused, never masked, as it was. `--force` sends the
/// values as they are, a fallback's too, except what the entry's own `--redact` masked.
@Suite("In process: --retry masks and checks an entry's values as a first send does", .temporaryHome)
struct InProcessRetryRedactTests: ScopedSuite {
    static let token = InProcessRedactTests.token
    static let field = "field = note=deployed by \(token)\n"
    static let maskedNote = "deployed by [redacted: github-token]"
    static let maskedLine = "paste: masked 1 secret in the field note: github-token at column 13\n"
    static let fellBack = InProcessRedactTests.fellBack
    static let maskedField = InProcessRedactTests.maskedField

    /// The harness with a person at the terminal: `--retry` sends every retryable entry now.
    var attended: PipelineHarness {
        var harness = harness
        harness.terminals = [2]
        return harness
    }

    /// The harness's `m` (falling back to `b` when `hasFallback`), with `m`, `b` and `paste`
    /// added to `m`'s section, `b`'s and `[paste]`.
    func config(m: String = "", b: String = "", paste: String = "", hasFallback: Bool = true) -> String {
        harnessConfig(fallbacks: hasFallback ? ["b"] : [], extra: paste)
            .replacingOccurrences(of: "url = https://m.test/upload\n", with: "url = https://m.test/upload\n" + m)
            .replacingOccurrences(of: "url = https://b.test/upload\n", with: "url = https://b.test/upload\n" + b)
    }

    /// Leaves `text` in the outbox: a run with `arguments` whose service `m` (no fallback yet,
    /// `m` added to its section) refused the connection; the entry's id.
    func leaveEntry(_ arguments: [String] = [], m: String = "", text: String = "clean text\n") throws -> String {
        try harness.writeConfig(config(m: m, hasFallback: false))
        let run = try harness.run(["--no-copy"] + arguments, stdin: .text(text), answers: [.refused()])
        #expect(run.status == 75, "\(run.err)")
        return try #require(try harness.outboxEntries().last?["id"] as? String)
    }

    /// Every file under the home's state folder: none may hold the token.
    func stateHoldsToken() -> Bool {
        let root = home.stateHome.path
        let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        return names.contains { name in
            (try? Data(contentsOf: URL(fileURLWithPath: root + "/" + name)))
                .map { String(decoding: $0, as: UTF8.self).contains(Self.token) } ?? false
        }
    }

    /// The refusal of `service`'s field `note`, as the guard says it.
    static func refusal(of service: String) -> String {
        "refusing to upload: the field 'note' of service '\(service)' looks like it holds a GitHub token; "
            + "use --force to upload anyway"
    }

    /// Where a text the guard holds is, as stderr says it.
    static func heldByGuard(_ id: String) -> String {
        "paste: the text is held in the outbox (\(id)): 'paste --outbox send \(id) --force' sends it anyway, "
            + "'paste --outbox drop \(id)' drops it\n"
    }

    static let heldNote =
        "paste: 1 outbox entry is held: 'paste --outbox' lists it; 'paste --outbox send ID' sends one\n"

    // MARK: - The entry's plan

    @Test("an entry keeps whether its run asked for masking: redact true with --redact, false without")
    func recorded() throws {
        _ = try leaveEntry(["--redact"])
        _ = try leaveEntry()
        #expect(try harness.outboxEntries().map { $0["redact"] as? Bool } == [true, false])
    }

    // MARK: - A fallback's field

    /// As `InProcessRedactTests.fallbackField` for a first send: `--redact` kept with the
    /// entry, or the fallback's own `redact` key as the config stands at the retry.
    @Test(
        "retry to a fallback that masks: its field is masked, said, and listed in the history and --json",
        arguments: [(["--redact"], ""), ([], "redact = true\n")] as [([String], String)])
    func fallbackFieldMasked(_ arguments: [String], _ key: String) throws {
        _ = try leaveEntry(arguments)
        try harness.writeConfig(config(b: Self.field + key))
        let retry = try attended.run(["--retry"], answers: [.refused(), .created("https://b.test/p/1")])
        #expect(retry.status == 0, "\(retry.err)")
        #expect(retry.out == "https://b.test/p/1\n")
        #expect(retry.err == Self.maskedLine + Self.fellBack)
        #expect(retry.requests.map(\.url) == ["https://m.test/upload", "https://b.test/upload"])
        #expect(retry.requests.last?.fields["note"] == Self.maskedNote)
        #expect(retry.requests.last?.text == "clean text\n")
        try InProcessRedactTests.expectMaskedFieldListed(in: try #require(try harness.history().first))
        #expect(try harness.outboxEntries().isEmpty)
        #expect(!stateHoldsToken())

        _ = try leaveEntry(arguments, text: "another clean text\n")
        try harness.writeConfig(config(b: Self.field + key))
        let json = try attended.run(["--retry", "--json"], answers: [.refused(), .created("https://b.test/p/2")])
        InProcessRedactTests.expectFellBackMasked(json)
    }

    @Test("--retry --redact on an entry kept with --force: the masked copy goes to its service and on to a fallback")
    func retryRedactFallsBack() throws {
        let text = "deploy with \(Self.token)\n"
        let masked = "deploy with [redacted: github-token]\n"
        let id = try leaveEntry(["--force"], text: text)
        try harness.writeConfig(config(b: Self.field))
        let retry = try attended.run(["--retry", "--redact"], answers: [.refused(), .created("https://b.test/p/4")])
        #expect(retry.status == 0, "\(retry.err)")
        #expect(retry.out == "https://b.test/p/4\n")
        #expect(
            retry.err
                == "paste: masked 1 secret in outbox entry \(id): github-token at line 1, column 13\n"
                + Self.maskedLine + Self.fellBack)
        #expect(retry.requests.map(\.text) == [masked, masked])
        #expect(retry.requests.last?.fields["note"] == Self.maskedNote)
        let record = try #require(try harness.history().first)
        let redacted = try #require(record["redacted"] as? [[String: Any]])
        #expect(redacted.map { $0["field"] as? String } == [nil, "field note"])
        #expect(try harness.outboxEntries().isEmpty)
        #expect(!stateHoldsToken())
    }

    @Test("retry to a fallback that does not mask: its field is refused, the entry waits for its own service (75)")
    func fallbackFieldRefused() throws {
        let id = try leaveEntry()
        try harness.writeConfig(config(b: Self.field))
        let retry = try attended.run(["--retry"], answers: [.refused(), .created("https://b.test/p/3")])
        #expect(retry.status == 75)
        #expect(retry.out == "")
        #expect(retry.requests.map(\.url) == ["https://m.test/upload"])
        #expect(
            retry.err
                == "paste: not falling back to 'b': \(Self.refusal(of: "b"))\n"
                + "paste: cannot connect to m.test:443: connection refused\n" + whereLine(id: id, isHeld: false) + "\n")
        #expect(try harness.outboxStates() == ["retryable"])
        #expect(try harness.history().isEmpty)
    }

    // MARK: - The entry's own service's field

    @Test("retry with a secret in its own service's field: held by the guard, said; --outbox send is 77")
    func ownFieldRefused() throws {
        let id = try leaveEntry()
        try harness.writeConfig(config(m: Self.field, hasFallback: false))
        let retry = try attended.run(["--retry"], answers: [.created("https://m.test/p/never")])
        #expect(retry.status == 0, "\(retry.err)")
        #expect(retry.requests.isEmpty)
        #expect(retry.err == "paste: \(Self.refusal(of: "m"))\n" + Self.heldByGuard(id) + Self.heldNote)
        #expect(try harness.outboxStates() == ["held"])
        let send = try harness.run(["--outbox", "send", id], answers: [.created("https://m.test/p/never")])
        #expect(send.status == 77)
        #expect(send.requests.isEmpty)
        #expect(send.err == "paste: \(Self.refusal(of: "m"))\n" + Self.heldByGuard(id))
        #expect(try harness.outboxStates() == ["held"])
    }

    /// `--redact` kept with the entry, or `m`'s own `redact` as the config stands now.
    @Test(
        "retry with a secret in its own service's field, masking: masked, said, listed",
        arguments: [(["--redact"], ""), ([], "redact = true\n")] as [([String], String)])
    func ownFieldMasked(_ arguments: [String], _ key: String) throws {
        _ = try leaveEntry(arguments)
        try harness.writeConfig(config(m: Self.field + key, hasFallback: false))
        let retry = try attended.run(["--retry"], answers: [.created("https://m.test/p/4")])
        #expect(retry.status == 0, "\(retry.err)")
        #expect(retry.out == "https://m.test/p/4\n")
        #expect(retry.err == Self.maskedLine)
        #expect(retry.requests.first?.fields["note"] == Self.maskedNote)
        let redacted = try #require(try harness.history().first?["redacted"] as? [[String: Any]])
        #expect(redacted.map { $0["field"] as? String } == ["field note"])
        #expect(try harness.outboxEntries().isEmpty)
        #expect(!stateHoldsToken())
    }

    /// The entry's metadata lists its service's field as masked by the first send; the retry
    /// masks it again from the config and lists it once, beside the title's kept mask.
    @Test("an entry whose first send masked its title and its service's field lists each once when retried")
    func maskedOnceEach() throws {
        _ = try leaveEntry(["--redact", "-t", "release \(Self.token)"], m: Self.field)
        let kept = try #require(try harness.outboxEntries().first?["redacted"] as? [[String: Any]])
        #expect(kept.map { $0["field"] as? String } == ["title", "field note"])
        let retry = try attended.run(["--retry", "--json"], answers: [.created("https://m.test/p/5")])
        #expect(retry.status == 0, "\(retry.err)")
        #expect(retry.requests.first?.fields["title"] == "release [redacted: github-token]")
        #expect(retry.requests.first?.fields["note"] == Self.maskedNote)
        #expect(
            retry.out.hasSuffix(
                ",\"redacted\":[{\"kind\":\"github-token\",\"line\":1,\"column\":9,\"field\":\"title\"},"
                    + "\(Self.maskedField)]}\n"),
            "\(retry.out)")
        let redacted = try #require(try harness.history().first?["redacted"] as? [[String: Any]])
        #expect(redacted.map { $0["field"] as? String } == ["title", "field note"])
    }

    // MARK: - An entry written before the key

    /// Removes the `redact` key from every entry's metadata, as an older paste wrote it.
    func dropMaskingKey() throws {
        let folder = home.stateHome.appendingPathComponent("paste/outbox")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
            let url = folder.appendingPathComponent(name)
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            let old = text.replacingOccurrences(
                of: #""redact"\s*:\s*(true|false)\s*,?"#, with: "", options: .regularExpression)
            #expect(old != text)
            try Data(old.utf8).write(to: url)
        }
    }

    @Test("an entry without the redact key loads and is refused, never masked, as before; clean, it goes")
    func oldEntry() throws {
        let id = try leaveEntry()
        try dropMaskingKey()
        #expect(try harness.outboxEntries().first?["redact"] == nil)
        try harness.writeConfig(config(b: Self.field + "redact = true\n", paste: "redact = true\n"))
        let refused = try attended.run(["--retry"], answers: [.refused(), .created("https://b.test/p/6")])
        #expect(refused.status == 75)
        #expect(refused.requests.map(\.url) == ["https://m.test/upload"])
        #expect(
            refused.err
                == "paste: not falling back to 'b': \(Self.refusal(of: "b"))\n"
                + "paste: cannot connect to m.test:443: connection refused\n" + whereLine(id: id, isHeld: false) + "\n")
        #expect(try harness.outboxStates() == ["retryable"])
        try harness.writeConfig(config())
        let sent = try attended.run(["--retry"], answers: [.refused(), .created("https://b.test/p/7")])
        #expect(sent.status == 0, "\(sent.err)")
        #expect(sent.err == Self.fellBack)
        #expect(sent.requests.last?.text == "clean text\n")
        #expect(try harness.history().first?["redacted"] == nil)
        #expect(try harness.outboxEntries().isEmpty)
    }

    // MARK: - --force

    @Test("--force on a first send: a fallback's field goes as it is, as the run's own service's would")
    func forcedFirstSend() throws {
        try harness.writeConfig(config(b: Self.field))
        let run = try harness.run(
            ["--no-copy", "--force"], stdin: .text("clean text\n"),
            answers: [.refused(), .created("https://b.test/p/8")])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err == Self.fellBack)
        #expect(run.requests.last?.fields["note"] == "deployed by \(Self.token)")
        #expect(try harness.history().first?["redacted"] == nil)
    }

    /// `--retry --force`: the values go as they are (the fallback's and its own service's
    /// field), but what an entry's own `--redact` asked to mask stays masked.
    @Test(
        "--retry --force sends the values as they are, except what the entry's --redact masks",
        arguments: [[], ["--redact"]])
    func forcedRetry(_ arguments: [String]) throws {
        _ = try leaveEntry(arguments)
        try harness.writeConfig(config(m: Self.field, b: Self.field))
        let retry = try attended.run(["--retry", "--force"], answers: [.refused(), .created("https://b.test/p/9")])
        #expect(retry.status == 0, "\(retry.err)")
        let isMasked = !arguments.isEmpty
        #expect(retry.err == (isMasked ? Self.maskedLine + Self.maskedLine : "") + Self.fellBack)
        let sent = isMasked ? Self.maskedNote : "deployed by \(Self.token)"
        #expect(retry.requests.map { $0.fields["note"] } == [sent, sent])
        #expect(try harness.outboxEntries().isEmpty)
    }

    // MARK: - Names

    /// Latin-1 text: a multipart service takes it, a form (`format = form`) does not.
    static let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(" au lait\n".utf8)

    static func notUTF8(_ id: String) -> String {
        "outbox entry \(id) is not UTF-8 (byte offset 3), and format = form sends only UTF-8 text; nothing was pasted"
    }

    @Test("a refusal of an entry's text names the entry, never the descriptor it is read through")
    func refusalNamesEntry() throws {
        try harness.writeConfig(config(hasFallback: false))
        let failed = try harness.run(["--no-copy"], stdin: .file(Self.latin1), answers: [.refused()])
        #expect(failed.status == 75, "\(failed.err)")
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        // Its fallback a form: the fallback's refusal names it.
        try harness.writeConfig(config(b: "format = form\n"))
        let fallback = try attended.run(["--retry"], answers: [.refused()])
        #expect(fallback.status == 75)
        #expect(
            fallback.err
                == "paste: not falling back to 'b': \(Self.notUTF8(id))\n"
                + "paste: cannot connect to m.test:443: connection refused\n" + whereLine(id: id, isHeld: false) + "\n")
        // Its own service a form.
        try harness.writeConfig(config(m: "format = form\n", hasFallback: false))
        let own = try attended.run(["--retry"])
        #expect(own.requests.isEmpty)
        #expect(!own.err.contains("/proc/self/fd"), "\(own.err)")
        #expect(
            own.err
                == "paste: \(Self.notUTF8(id))\n"
                + "paste: convert it (iconv -t UTF-8), or use a service whose format is multipart or raw\n"
                + "paste: the text is held in the outbox (\(id)): nothing of it was sent; "
                + "'paste --outbox send \(id)' tries it again, 'paste --outbox drop \(id)' drops it\n"
                + Self.heldNote)
        #expect(try harness.outboxStates() == ["held"])
    }
}

/// `RetryPlan.masking(of:)` and `masksText(of:)` as tables: what an entry's kept `redact`,
/// `--redact` on the retry, `--force` and `[paste]`'s `redact` make of how its values and its
/// text are masked.
@Suite("RetryPlan.masking(of:): an entry's kept --redact, --redact now, --force and the config")
struct RetryMaskingTableTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var kept: Bool?
        var isForced: Bool
        var masksByDefault: Bool
        var expected: RunPlan.Masking?
        /// `--redact` on the retry (never with `--force`: a usage error).
        var isRequestedNow = false
        var testDescription: String {
            "kept \(String(describing: kept)), forced \(isForced), [paste] \(masksByDefault), now \(isRequestedNow)"
        }
    }

    /// A retry's plan with `--force` and `--redact` as given.
    static func plan(isForced: Bool, isRequestedNow: Bool, masksByDefault: Bool = false) -> RetryPlan {
        var plan = RetryPlan(
            services: [], connection: ConnectionSettings(),
            transfer: RunPlan.Transfer(
                transport: TransportOptions(), isVerbose: false, showsProgress: false, retryPolicy: RetryPolicy()),
            outboxPolicy: OutboxPolicy(maximumAttempts: 20), isDryRun: false, isForced: isForced)
        plan.masksByDefault = masksByDefault
        plan.isMaskingRequested = isRequestedNow
        return plan
    }

    static let rows: [Row] = [
        Row(kept: nil, isForced: false, masksByDefault: true, expected: nil),
        Row(kept: nil, isForced: true, masksByDefault: true, expected: nil),
        Row(kept: false, isForced: false, masksByDefault: false, expected: .init(isRequested: false, byDefault: false)),
        Row(kept: false, isForced: false, masksByDefault: true, expected: .init(isRequested: false, byDefault: true)),
        Row(kept: true, isForced: false, masksByDefault: false, expected: .init(isRequested: true, byDefault: false)),
        Row(kept: false, isForced: true, masksByDefault: true, expected: nil),
        Row(kept: true, isForced: true, masksByDefault: true, expected: .init(isRequested: true, byDefault: false)),
        // `--retry --redact`: masked on every service, whatever the entry kept.
        Row(
            kept: nil, isForced: false, masksByDefault: false, expected: .init(isRequested: true, byDefault: false),
            isRequestedNow: true),
        Row(
            kept: false, isForced: false, masksByDefault: true, expected: .init(isRequested: true, byDefault: true),
            isRequestedNow: true),
    ]

    @Test("masking per entry", arguments: rows)
    func masking(_ row: Row) {
        let plan = Self.plan(
            isForced: row.isForced, isRequestedNow: row.isRequestedNow, masksByDefault: row.masksByDefault)
        var metadata = OutboxEntry.Metadata(service: "m", created: Date(timeIntervalSince1970: 0))
        metadata.isMaskingRequested = row.kept
        #expect(plan.masking(of: metadata) == row.expected)
    }

    @Test(
        "the text is masked with --redact now or a kept redact, never under --force",
        arguments: [
            (nil, false, false, false), (false, false, false, false), (true, false, false, true),
            (nil, false, true, true), (false, false, true, true), (true, true, false, false),
            (false, true, false, false),
        ] as [(Bool?, Bool, Bool, Bool)])
    func masksText(_ kept: Bool?, _ isForced: Bool, _ isRequestedNow: Bool, _ expected: Bool) {
        var metadata = OutboxEntry.Metadata(service: "m", created: Date(timeIntervalSince1970: 0))
        metadata.isMaskingRequested = kept
        #expect(Self.plan(isForced: isForced, isRequestedNow: isRequestedNow).masksText(of: metadata) == expected)
    }
}
