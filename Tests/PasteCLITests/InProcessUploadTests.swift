import Foundation
import PasteCore
import SystemInterop
import Testing
import TestSupport
import Upload

@testable import PasteCLI

/// The config of the in-process suites: `m` (the run's service), `b` and `c` behind it when
/// `fallbacks` says so; each a form post whose answer's body is the URL. No host is ever looked
/// up: the scripted transport answers.
func harnessConfig(retries: Int = 0, fallbacks: [String] = [], extra: String = "", sections: String = "") -> String {
    var chain = ["m"] + fallbacks
    var text = "[paste]\nservice = m\nretries = \(retries)\n" + extra
    while let name = chain.first {
        chain.removeFirst()
        text +=
            "[service \"\(name)\"]\nurl = https://\(name).test/upload\ncontent-field = content\ntitle-field = title\n"
            + "result = body\n"
        if let next = chain.first { text += "fallback = \(next)\n" }
    }
    return text + sections
}

/// A service `secret` that keeps its pastes private (`always-private`), with the harness's `m`
/// as its fallback: `m` neither encrypts nor keeps pastes private, so a text goes there only
/// when `fallback-public = m` (appended to it) allows it.
let privateServiceSection = """
    [service "secret"]
    url = https://secret.test/upload
    content-field = content
    result = body
    always-private = true
    fallback = m

    """

/// What a text for `secret` (`privateServiceSection`) says when its connection is refused and
/// `fallback-public` does not allow `m`: no fallback, the failure, and where the text waits.
func privateFallbackRefusedLines(id: String) -> String {
    "paste: not falling back from 'secret' to 'm': 'm' neither encrypts nor keeps pastes private "
        + "('fallback-public = m' in [service \"secret\"] allows it)\n"
        + "paste: cannot connect to secret.test:443: connection refused\n" + whereLine(id: id, isHeld: false) + "\n"
}

/// The line that says where a failed text is (`PasteFailure.terminalLines`); `isRefusal`: the
/// service refused it (a 4xx), so `--retry` leaves it alone.
func whereLine(id: String, isHeld: Bool, isRefusal: Bool = false) -> String {
    isRefusal
        ? "paste: the text is held in the outbox (\(id)): the service refused it, so 'paste --retry' does not "
            + "send it again; 'paste --outbox send \(id)' sends it anyway, 'paste --outbox drop \(id)' drops it"
        : isHeld
            ? "paste: the text is held in the outbox (\(id)): the paste may have been made; "
                + "'paste --outbox send \(id)' sends it anyway, 'paste --outbox drop \(id)' drops it"
            : "paste: the text waits in the outbox (\(id)); 'paste --retry' sends it again"
}

/// One fault of the fault table (man/paste.1 FAILURES), as the transport meets it: what the
/// run must say, return and keep. `FaultTableTests` shows the same rows through real libcurl
/// and paste-mock; here each row's decisions are checked exactly, in process.
struct InProcessFault: CustomTestStringConvertible, Sendable {
    var name: String
    var answer: ScriptedTransport.Answer
    var status: Int32
    /// stderr's first line, after `paste: `.
    var message: String
    /// Whether the text is held (the paste may exist) rather than retryable.
    var isHeld: Bool
    /// Whether the service refused the text for good (a 4xx).
    var isRefusal = false

    var testDescription: String { name }

    static let url = "https://m.test/upload"

    static let all: [InProcessFault] = [
        InProcessFault(
            name: "HTTP 500 after the body", answer: .http(500, body: "boom"), status: 69,
            message: "m answered HTTP 500: boom", isHeld: true),
        InProcessFault(
            name: "HTTP 503", answer: .http(503, body: "busy"), status: 75, message: "m answered HTTP 503: busy",
            isHeld: false),
        InProcessFault(
            name: "HTTP 429", answer: .http(429, body: "slow down"), status: 75,
            message: "m answered HTTP 429: slow down", isHeld: false),
        InProcessFault(
            name: "HTTP 400", answer: .http(400, body: "bad request"), status: 69,
            message: "m answered HTTP 400: bad request", isHeld: true, isRefusal: true),
        InProcessFault(
            name: "timed out after the body went out",
            answer: .failure(.timedOut(url: url, phase: .total(seconds: 1), requestSent: true)), status: 75,
            message: "transfer with m.test:443 timed out after 1s", isHeld: true),
        InProcessFault(
            name: "stalled after the body went out",
            answer: .failure(.timedOut(url: url, phase: .stalled(seconds: 1), requestSent: true)), status: 75,
            message: "transfer with m.test:443 stalled: under 10 bytes/s for 1s", isHeld: true),
        InProcessFault(
            name: "no answer within the response timeout",
            answer: .failure(.timedOut(url: url, phase: .response(seconds: 2), requestSent: true)), status: 75,
            message: "no complete answer from m.test:443 within 2s of sending the text (response-timeout)",
            isHeld: true),
        InProcessFault(
            name: "connection dropped", answer: .failure(.receiveFailed(url: url, detail: "Empty reply from server")),
            status: 75, message: "no usable answer from m.test:443: Empty reply from server", isHeld: true),
        InProcessFault(
            name: "redirect loop", answer: .failure(.tooManyRedirects(10)), status: 69,
            message: "too many redirects (more than 10)", isHeld: true),
        InProcessFault(
            name: "redirect to file:///etc/passwd", answer: .failure(.redirectRefused(url: "file:///etc/passwd")),
            status: 69,
            message: "refusing redirect to 'file:///etc/passwd': only well-formed http and https URLs are followed",
            isHeld: true),
        InProcessFault(
            name: "refused connection",
            answer: .failure(.couldNotConnect(url: url, detail: "connection refused", requestSent: false)),
            status: 75, message: "cannot connect to m.test:443: connection refused", isHeld: false),
        InProcessFault(
            name: "connect timeout", answer: .failure(.timedOut(url: url, phase: .connect, requestSent: false)),
            status: 75, message: "cannot connect to m.test:443: timed out", isHeld: false),
        InProcessFault(
            name: "unknown host", answer: .failure(.couldNotResolve(host: "m.test", requestSent: false)), status: 75,
            message: "cannot resolve host 'm.test'", isHeld: false),
        InProcessFault(
            name: "TLS failure before anything was sent",
            answer: .failure(.tls(url: url, detail: "handshake failed", requestSent: false)), status: 69,
            message: "TLS failure with m.test:443: handshake failed", isHeld: false),
        InProcessFault(
            name: "an answer without a URL", answer: .http(200, body: "Error error Something went wrong."),
            status: 69, message: "m gave no paste URL (HTTP 200): Error error Something went wrong.", isHeld: true),
        InProcessFault(
            name: "a javascript: URL", answer: .http(200, body: "javascript:alert(1)\n"), status: 69,
            message: "m gave no paste URL (HTTP 200): javascript:alert(1)", isHeld: true),
        InProcessFault(
            name: "206 Partial Content", answer: .http(206, body: "https://m.test/p/1\n"), status: 69,
            message: "m gave a partial answer (HTTP 206)", isHeld: true),
    ]
}

/// A whole upload in process (`PipelineHarness`): read, build, send with the run's retry
/// decisions, record (history, the outbox), deliver (stdout, stderr, `--json`, the exit status).
@Suite("In process: an upload's decisions, fault by fault", .temporaryHome)
struct InProcessUploadTests: ScopedSuite {
    static let text = "in process 日本語 \"quotes\" $(not run)\r\nsecond line\n"

    @Test("a made paste: the URL on stdout, one request with the text, history, an empty outbox, the flush")
    func made() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["--no-copy"], stdin: .text(Self.text), answers: [.created("https://m.test/p/1")])
        #expect(run.status == 0)
        #expect(run.out == "https://m.test/p/1\n")
        #expect(run.err == "")
        #expect(run.requests.map(\.url) == ["https://m.test/upload"])
        #expect(run.requests.first?.text == Self.text)
        #expect(run.requests.first?.method == "POST")
        #expect(try harness.outboxEntries().isEmpty)
        let history = try harness.history()
        #expect(history.count == 1)
        #expect(history.first?["service"] as? String == "m")
        #expect(history.first?["url"] as? String == "https://m.test/p/1")
        #expect(history.first?["bytes"] as? Int == Self.text.utf8.count)
        #expect(run.flushed == ["m"])
        #expect(run.waits.isEmpty)
        #expect(run.unused == 0)
    }

    @Test(
        "a fault: its status, one line, where the text is, the text byte-exact in the outbox",
        arguments: InProcessFault.all)
    func fault(_ row: InProcessFault) throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["--no-copy"], stdin: .text(Self.text), answers: [row.answer])
        #expect(run.status == row.status, "stderr: \(run.err)")
        #expect(run.out == "")
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        #expect(
            run.err == "paste: \(row.message)\n\(whereLine(id: id, isHeld: row.isHeld, isRefusal: row.isRefusal))\n")
        #expect(try harness.outboxStates() == [row.isHeld ? "held" : "retryable"])
        #expect(try harness.outboxContents() == [Self.text])
        #expect(run.requests.count == 1)
        #expect(try harness.history().isEmpty)
        // Nothing worked: no background flush is started.
        #expect(run.flushed.isEmpty)
    }

    @Test(
        "--json: a fault is one object naming the status, the message and the outbox entry",
        arguments: [
            InProcessFault.all[0], InProcessFault.all[1], InProcessFault.all[10],
        ])
    func faultAsJSON(_ row: InProcessFault) throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["--no-copy", "--json"], stdin: .text(Self.text), answers: [row.answer])
        #expect(run.status == row.status)
        let entry = try #require(try harness.outboxEntries().first)
        let id = try #require(entry["id"] as? String)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(object["message"] as? String == row.message)
        #expect(object["status"] as? Int == Int(row.status))
        let outbox = try #require(object["outbox"] as? [String: Any])
        #expect(outbox["id"] as? String == id)
        #expect(outbox["state"] as? String == (row.isHeld ? "held" : "retryable"))
        // Hints are left out under --json: one error line on stderr.
        #expect(run.err == "paste: \(row.message)\n")
    }

    @Test("--json: a made paste is one object naming the service, the URL and the size")
    func madeAsJSON() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(
            ["--no-copy", "--json", "-t", "notes"], stdin: .text(Self.text), answers: [.created("https://m.test/p/2")])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(object["url"] as? String == "https://m.test/p/2")
        #expect(object["service"] as? String == "m")
        #expect(object["bytes"] as? Int == Self.text.utf8.count)
        #expect(object["title"] as? String == "notes")
        #expect(run.err == "")
    }

    // MARK: - Retry within the run

    @Test(
        "a 503 or a 429 asking for 2 s is waited out and sent again: one paste, the wait said", arguments: [503, 429])
    func retryAfterIsWaited(_ status: Int) throws {
        try harness.writeConfig(harnessConfig(retries: 1))
        let run = try harness.run(
            ["--no-copy"], stdin: .text(Self.text),
            answers: [.http(status, body: "busy", headers: ["Retry-After": "2"]), .created("https://m.test/p/3")])
        #expect(run.status == 0)
        #expect(run.out == "https://m.test/p/3\n")
        #expect(run.err == "paste: retrying in 2.0s (attempt 2 of 2)\n")
        #expect(run.waits == [.seconds(2)])
        #expect(run.requests.count == 2)
        #expect(run.requests.map(\.text) == [Self.text, Self.text])
        #expect(try harness.outboxEntries().isEmpty)
    }

    @Test("a refused connection is asked again up to `retries` times, then waits in the outbox (75)")
    func refusedIsRetriedThenKept() throws {
        try harness.writeConfig(harnessConfig(retries: 2))
        let refused = ScriptedTransport.Answer.failure(
            .couldNotConnect(url: InProcessFault.url, detail: "connection refused", requestSent: false))
        let run = try harness.run(["--no-copy"], stdin: .text(Self.text), answers: [refused, refused, refused])
        #expect(run.status == 75)
        #expect(run.requests.count == 3)
        #expect(run.waits.count == 2)
        // Jittered backoff: half the step and up to the other half (1 s, then 2 s).
        #expect(run.waits[0] >= .milliseconds(500) && run.waits[0] <= .seconds(1))
        #expect(run.waits[1] >= .seconds(1) && run.waits[1] <= .seconds(2))
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        let lines = run.err.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("paste: retrying in ") && lines[0].hasSuffix("s (attempt 2 of 3)"))
        #expect(lines[1].hasPrefix("paste: retrying in ") && lines[1].hasSuffix("s (attempt 3 of 3)"))
        #expect(lines[2] == "paste: cannot connect to m.test:443: connection refused")
        #expect(lines[3] == whereLine(id: id, isHeld: false))
        #expect(try harness.outboxStates() == ["retryable"])
        #expect(try harness.outboxContents() == [Self.text])
    }

    @Test("-q: the retry is not said, the failure still is")
    func quietRetry() throws {
        try harness.writeConfig(harnessConfig(retries: 1))
        let run = try harness.run(
            ["--no-copy", "-q"], stdin: .text(Self.text),
            answers: [.http(503, body: "busy", headers: ["Retry-After": "1"]), .http(503, body: "still busy")])
        #expect(run.status == 75)
        #expect(run.waits == [.seconds(1)])
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        #expect(run.err == "paste: m answered HTTP 503: still busy\n\(whereLine(id: id, isHeld: false))\n")
    }

    @Test(
        "what may have made a paste is never sent twice within the run, whatever `retries` allows",
        arguments: [InProcessFault.all[0], InProcessFault.all[4], InProcessFault.all[7]])
    func notSentTwice(_ row: InProcessFault) throws {
        try harness.writeConfig(harnessConfig(retries: 3))
        let run = try harness.run(["--no-copy"], stdin: .text(Self.text), answers: [row.answer])
        #expect(run.status == row.status)
        #expect(run.requests.count == 1)
        #expect(run.waits.isEmpty)
        #expect(!run.err.contains("retrying"), "stderr: \(run.err)")
        #expect(try harness.outboxStates() == ["held"])
        #expect(try harness.outboxContents() == [Self.text])
    }

    @Test("a 502 before the body was taken is sent again: the server did nothing with it")
    func refusedBeforeBodyIsRetried() throws {
        try harness.writeConfig(harnessConfig(retries: 1))
        let run = try harness.run(
            ["--no-copy"], stdin: .text(Self.text),
            answers: [.http(502, body: "bad gateway", isBodyTaken: false), .created("https://m.test/p/4")])
        #expect(run.status == 0)
        #expect(run.out == "https://m.test/p/4\n")
        #expect(run.requests.count == 2)
        #expect(run.waits.count == 1)
    }

    @Test("a Retry-After past the longest wait is not waited for: the text waits in the outbox")
    func retryAfterTooLong() throws {
        try harness.writeConfig(harnessConfig(retries: 3, extra: "max-retry-after = 5\n"))
        let run = try harness.run(
            ["--no-copy"], stdin: .text(Self.text),
            answers: [.http(503, body: "later", headers: ["Retry-After": "3600"])])
        #expect(run.status == 75)
        #expect(run.requests.count == 1)
        #expect(run.waits.isEmpty)
        let entry = try #require(try harness.outboxEntries().first)
        #expect(entry["state"] as? String == "retryable")
        #expect(try harness.outboxContents() == [Self.text])
    }

    // MARK: - Interrupts

    @Test("SIGINT during the transfer: 130, one line, the text waits in the outbox")
    func interrupted() throws {
        try harness.writeConfig(harnessConfig(retries: 2))
        let run = try harness.run(
            ["--no-copy"], stdin: .text(Self.text), answers: [.created("https://m.test/never")],
            signal: (request: 1, signal: .interrupt))
        #expect(run.status == 130)
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        #expect(run.err == "paste: interrupted; the text waits in the outbox (\(id)); 'paste --retry' sends it\n")
        #expect(try harness.outboxStates() == ["retryable"])
        #expect(try harness.outboxContents() == [Self.text])
        #expect(run.requests.count == 1)
        #expect(run.waits.isEmpty)
        #expect(run.flushed.isEmpty)
    }

    @Test("SIGTERM and SIGHUP: 143 and 129", arguments: [(Signal.terminate, Int32(143)), (Signal.hangup, Int32(129))])
    func otherSignals(_ signal: Signal, _ status: Int32) throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(
            ["--no-copy"], stdin: .text(Self.text), answers: [.created("https://m.test/never")],
            signal: (request: 1, signal: signal))
        #expect(run.status == status)
        #expect(try harness.outboxStates() == ["retryable"])
    }

    // MARK: - Repeats, batches, stops before sending

    @Test("the same text twice: the second run sends nothing and reuses the URL; --new sends it again")
    func repeatReused() throws {
        try harness.writeConfig(harnessConfig())
        let first = try harness.run(["--no-copy"], stdin: .text(Self.text), answers: [.created("https://m.test/p/5")])
        #expect(first.status == 0)
        let second = try harness.run(["--no-copy"], stdin: .text(Self.text))
        #expect(second.status == 0)
        #expect(second.out == "https://m.test/p/5\n")
        #expect(second.err == "paste: the same text went to m moments ago; reusing its URL (--new makes another)\n")
        #expect(second.requests.isEmpty)
        let third = try harness.run(
            ["--no-copy", "--new"], stdin: .text(Self.text), answers: [.created("https://m.test/p/6")])
        #expect(third.out == "https://m.test/p/6\n")
        #expect(third.requests.count == 1)
        #expect(try harness.history().count == 2)
    }

    @Test("-f with two files: both sent together, their URLs in the order given")
    func batch() throws {
        try harness.writeConfig(harnessConfig())
        let first = try home.write("first file\n", to: "files/a.txt")
        let second = try home.write("second file\n", to: "files/b.txt")
        let run = try harness.run(
            ["--no-copy", "-f", first, "-f", second],
            answers: [.created("https://m.test/p/a"), .created("https://m.test/p/b")])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out == "https://m.test/p/a\nhttps://m.test/p/b\n")
        #expect(run.requests.map(\.text) == ["first file\n", "second file\n"])
        #expect(try harness.history().count == 2)
    }

    @Test("-f with one file failing: the other is made, the failed one is copied to the outbox, the status is its")
    func batchWithFailure() throws {
        try harness.writeConfig(harnessConfig())
        let first = try home.write("made\n", to: "files/a.txt")
        let second = try home.write("kept\n", to: "files/b.txt")
        let run = try harness.run(
            ["--no-copy", "-f", first, "-f", second],
            answers: [.created("https://m.test/p/c"), .http(500, body: "boom")])
        #expect(run.status == 69)
        #expect(run.out == "https://m.test/p/c\n")
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        #expect(run.err == "paste: m answered HTTP 500: boom\n\(whereLine(id: id, isHeld: true))\n")
        #expect(try harness.outboxContents() == ["kept\n"])
        #expect(try harness.history().count == 1)
    }

    @Test("--dry-run sends nothing and keeps nothing")
    func dryRun() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["--no-copy", "--dry-run"], stdin: .text(Self.text))
        #expect(run.status == 0)
        #expect(run.requests.isEmpty)
        #expect(run.out.contains("POST https://m.test/upload"), "stdout: \(run.out)")
        #expect(try harness.outboxEntries().isEmpty)
        #expect(try harness.history().isEmpty)
    }

    @Test("empty stdin: 65, one line, nothing sent or kept")
    func emptyInput() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["--no-copy"], stdin: .text(""))
        #expect(run.status == 65)
        #expect(run.err == "paste: nothing to paste: stdin is empty\n")
        #expect(run.requests.isEmpty)
        #expect(try harness.outboxEntries().isEmpty)
    }

    @Test("no display and nothing piped: nothing to read, one line and a hint, nothing sent")
    func nothingToRead() throws {
        try harness.writeConfig(harnessConfig())
        let run = try harness.run(["--no-copy"])
        #expect(run.status == 66)
        #expect(run.requests.isEmpty)
        #expect(
            run.err
                == "paste: nothing to paste: no text on stdin, and no display to read a clipboard from\n"
                + "paste: pipe text in (cmd | paste), or use -f FILE\n")
    }

    @Test("a secret in the text stops the run before anything is sent (77); --force sends it")
    func guardStops() throws {
        try harness.writeConfig(harnessConfig())
        let secret = "key: AKIAIOSFODNN7EXAMPLQ\n"
        let run = try harness.run(["--no-copy"], stdin: .text(secret))
        #expect(run.status == 77)
        #expect(run.requests.isEmpty)
        #expect(try harness.outboxEntries().isEmpty)
        let forced = try harness.run(
            ["--no-copy", "--force"], stdin: .text(secret), answers: [.created("https://m.test/p/7")])
        #expect(forced.status == 0)
        #expect(forced.requests.first?.text == secret)
    }
}
