import Foundation
import PasteCore
import SystemInterop
import Testing
import TestSupport
import Upload

@testable import PasteCLI

/// `paste --retry` and `paste --outbox send` in process (`EntrySender`, `UploadPipeline+Retry`):
/// which entries go, what each outcome leaves in the outbox, what is said, the exit status.
@Suite("In process: --retry and --outbox send", .temporaryHome)
struct InProcessRetryTests: ScopedSuite {
    static let text = "sent again 日本語\n"

    /// The harness with a person at the terminal (stderr): `--retry` sends every retryable
    /// entry now, whatever its backoff.
    var attended: PipelineHarness {
        var harness = harness
        harness.terminals = [2]
        return harness
    }

    /// Leaves `text` in the outbox after a run that met `answer`; its id.
    func failedRun(_ answer: ScriptedTransport.Answer, text: String = Self.text) throws -> String {
        let run = try harness.run(["--no-copy", "--new"], stdin: .text(text), answers: [answer])
        #expect(run.status != 0)
        return try #require(try harness.outboxEntries().last?["id"] as? String)
    }

    /// `--retry` (attended) over the one entry there is, held: nothing sent, 0, and one line.
    func retryLeavesHeld() throws {
        let retry = try attended.run(["--retry"])
        #expect(retry.status == 0)
        #expect(retry.requests.isEmpty)
        #expect(
            retry.err
                == "paste: 1 outbox entry is held: 'paste --outbox' lists it; 'paste --outbox send ID' sends one\n")
    }

    @Test("a retryable entry is sent, printed, recorded and removed")
    func sendsRetryable() throws {
        try harness.writeConfig(harnessConfig())
        _ = try failedRun(.http(503, body: "busy"))
        let run = try attended.run(["--retry"], answers: [.created("https://m.test/p/r1")])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out == "https://m.test/p/r1\n")
        #expect(run.err == "")
        #expect(run.requests.map(\.text) == [Self.text])
        #expect(try harness.outboxEntries().isEmpty)
        #expect(try harness.history().map { $0["url"] as? String } == ["https://m.test/p/r1"])
    }

    @Test(
        "after each fault, the healed service: --retry sends a retryable entry; a held one waits for --outbox send",
        arguments: InProcessFault.all)
    func heals(_ row: InProcessFault) throws {
        try harness.writeConfig(harnessConfig())
        let id = try failedRun(row.answer, text: InProcessUploadTests.text)
        let retry = try attended.run(["--retry"], answers: row.isHeld ? [] : [.created("https://m.test/p/healed")])
        #expect(retry.status == 0, "stderr: \(retry.err)")
        var sent = retry
        if row.isHeld {
            #expect(retry.out == "")
            #expect(retry.requests.isEmpty)
            #expect(try harness.outboxStates() == ["held"])
            sent = try harness.run(["--outbox", "send", id], answers: [.created("https://m.test/p/healed")])
            #expect(sent.status == 0, "stderr: \(sent.err)")
        }
        #expect(sent.out == "https://m.test/p/healed\n")
        #expect(sent.requests.map(\.text) == [InProcessUploadTests.text])
        #expect(try harness.outboxEntries().isEmpty)
        #expect(try harness.history().map { $0["url"] as? String } == ["https://m.test/p/healed"])
    }

    @Test("a held entry is not sent by --retry, said in one line; --outbox send ID sends it")
    func heldWaitsForSend() throws {
        try harness.writeConfig(harnessConfig())
        let id = try failedRun(.http(500, body: "boom"))
        try retryLeavesHeld()
        let send = try harness.run(["--outbox", "send", id], answers: [.created("https://m.test/p/r2")])
        #expect(send.status == 0, "stderr: \(send.err)")
        #expect(send.out == "https://m.test/p/r2\n")
        #expect(send.requests.map(\.text) == [Self.text])
        #expect(try harness.outboxEntries().isEmpty)
    }

    @Test("one attempt per entry and run, whatever `retries` says: still down, it stays retryable (75)")
    func oneAttemptPerRun() throws {
        try harness.writeConfig(harnessConfig(retries: 3))
        let id = try failedRun(.http(503, body: "busy"))
        let run = try attended.run(["--retry"], answers: [.http(503, body: "still busy")])
        #expect(run.status == 75)
        #expect(run.requests.count == 1)
        #expect(run.waits.isEmpty)
        #expect(run.err == "paste: m answered HTTP 503: still busy\n\(whereLine(id: id, isHeld: false))\n")
        #expect(try harness.outboxStates() == ["retryable"])
    }

    @Test("a service found unreachable is asked once per run: its other entries wait, said in one line")
    func unreachableOncePerRun() throws {
        try harness.writeConfig(harnessConfig())
        _ = try failedRun(.refused(), text: "first\n")
        _ = try failedRun(.refused(), text: "second\n")
        let run = try attended.run(["--retry"], answers: [.refused()])
        #expect(run.status == 75)
        #expect(run.requests.count == 1)
        #expect(
            run.err.hasSuffix(
                "paste: 1 more outbox entry for 'm' waits for the next run: the service is unreachable\n"),
            "stderr: \(run.err)")
        #expect(try harness.outboxStates() == ["retryable", "retryable"])
    }

    @Test("an entry whose service is down goes on to that service's fallback, as a fresh text would")
    func entryFallsBack() throws {
        try harness.writeConfig(harnessConfig())
        _ = try failedRun(.refused())
        try harness.writeConfig(harnessConfig(fallbacks: ["b"]))
        let run = try attended.run(["--retry"], answers: [.refused(), .created("https://b.test/p/r3")])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out == "https://b.test/p/r3\n")
        #expect(
            run.err
                == "paste: m failed (cannot connect to m.test:443: connection refused): the text went to 'b' instead\n")
        #expect(run.requests.map(\.url) == ["https://m.test/upload", "https://b.test/upload"])
        #expect(try harness.history().map { $0["service"] as? String } == ["b"])
        #expect(try harness.outboxEntries().isEmpty)
    }

    @Test("an entry whose service is gone from the config is held, said in one line, and nothing is sent")
    func serviceGone() throws {
        try harness.writeConfig(harnessConfig())
        let id = try failedRun(.http(503, body: "busy"))
        try harness.writeConfig(
            "[paste]\nservice = other\n[service \"other\"]\nurl = https://other.test/\ncontent-field = c\nresult = body\n"
        )
        let run = try attended.run(["--retry"])
        #expect(run.requests.isEmpty)
        #expect(
            run.err.hasPrefix(
                "paste: outbox entry \(id) is held: its service 'm' is not configured any more; "
                    + "'paste --outbox send \(id)' sends it once it is, 'paste --outbox drop \(id)' drops it\n"),
            "stderr: \(run.err)")
        #expect(try harness.outboxStates() == ["held"])
    }

    @Test("--retry -n lists what would go and sends nothing")
    func dryRun() throws {
        try harness.writeConfig(harnessConfig())
        let id = try failedRun(.http(503, body: "busy"))
        let run = try attended.run(["--retry", "-n"])
        #expect(run.status == 0)
        #expect(run.requests.isEmpty)
        #expect(run.out.hasPrefix("would send \(id)"), "stdout: \(run.out)")
        #expect(try harness.outboxStates() == ["retryable"])
    }

    @Test("unattended (cron), an entry whose backoff is not over waits: nothing sent, 75")
    func backoffPacesUnattended() throws {
        try harness.writeConfig(harnessConfig())
        // The server asked for an hour: the entry is due then.
        _ = try failedRun(.http(503, body: "busy", headers: ["Retry-After": "3600"]))
        let run = try harness.run(["--retry"])
        #expect(run.status == 75)
        #expect(run.requests.isEmpty)
        #expect(try harness.outboxStates() == ["retryable"])
    }

    @Test("a retried entry that may have been made is held now (69), never sent again by --retry")
    func heldAfterRetry() throws {
        try harness.writeConfig(harnessConfig())
        let id = try failedRun(.http(503, body: "busy"))
        let run = try attended.run(["--retry"], answers: [.http(500, body: "boom")])
        #expect(run.status == 69)
        #expect(
            run.err.hasPrefix("paste: m answered HTTP 500: boom\n\(whereLine(id: id, isHeld: true))\n"),
            "stderr: \(run.err)")
        #expect(try harness.outboxStates() == ["held"])
        let again = try attended.run(["--retry"])
        #expect(again.requests.isEmpty)
    }

    @Test("SIGINT while --retry sends: 130, the entry still waits")
    func interrupted() throws {
        try harness.writeConfig(harnessConfig())
        _ = try failedRun(.http(503, body: "busy"))
        let run = try attended.run(
            ["--retry"], answers: [.created("https://m.test/never")], signal: (request: 1, signal: .interrupt))
        #expect(run.status == 130)
        #expect(try harness.outboxStates() == ["retryable"])
        #expect(try harness.history().isEmpty)
    }

    @Test("--outbox send of an entry that fails again: the failure's status and lines")
    func sendFailsAgain() throws {
        try harness.writeConfig(harnessConfig())
        let id = try failedRun(.http(503, body: "busy"))
        let run = try harness.run(["--outbox", "send", id], answers: [.http(400, body: "no")])
        #expect(run.status == 69)
        #expect(run.err.hasPrefix("paste: m answered HTTP 400: no\n"), "stderr: \(run.err)")
        #expect(try harness.outboxStates() == ["held"])
    }

    @Test("--outbox send of an unknown id: 66, nothing sent")
    func sendUnknown() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["--outbox", "send", "20990101-000000-000-0000"])
        #expect(run.status == 66)
        #expect(run.requests.isEmpty)
    }

    @Test("several retryable entries go oldest first, each once")
    func oldestFirst() throws {
        try harness.writeConfig(harnessConfig())
        _ = try failedRun(.http(503, body: "busy"), text: "older\n")
        _ = try failedRun(.http(503, body: "busy"), text: "newer\n")
        let run = try attended.run(
            ["--retry"], answers: [.created("https://m.test/p/o"), .created("https://m.test/p/n")])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.requests.map(\.text) == ["older\n", "newer\n"])
        #expect(run.out == "https://m.test/p/o\nhttps://m.test/p/n\n")
        #expect(try harness.outboxEntries().isEmpty)
    }
}
