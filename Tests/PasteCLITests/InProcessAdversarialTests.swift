import Foundation
import PasteCore
import Stores
import Testing
import TestSupport

@testable import PasteCLI

/// The second adversarial round's findings (issue 29) that are the pipeline's decisions, in
/// process: exact stdout, stderr, status and outbox. `AdversarialRoundTests` keeps those that
/// need the wire, a real process (FIFOs, peak RSS) or a real PrivateBin exchange.
@Suite("In process: the second adversarial round's decisions", .temporaryHome)
struct InProcessAdversarialTests: ScopedSuite {
    @Test("an entry whose next attempt is a year ahead (the clock was wrong) is sent by --retry, and it says why")
    func futureDatedEntry() throws {
        try harness.writeConfig(harnessConfig())
        let outbox = Outbox(context: Context(environment: harness.environment))
        let claim = try outbox.create(
            OutboxEntry.Metadata(service: "m", created: Date()), content: Array("from a year ahead\n".utf8))
        let next = Date().addingTimeInterval(365 * 24 * 3600)
        try claim.recordFailure(OutboxFailure(verdict: .retryable, message: "cannot connect"), nextAttempt: next)
        let id = claim.id
        _ = consume claim
        let run = try harness.run(["--retry", "--no-copy"], answers: [.created("https://m.test/p/1")])
        #expect(run.status == 0)
        #expect(run.out == "https://m.test/p/1\n")
        #expect(
            run.err
                == "paste: outbox entry \(id) was to wait until \(JSONText.timestamp(next)), implausibly far ahead (the "
                + "clock may have been wrong when it was written): it is due now\n")
        #expect(run.requests.map(\.text) == ["from a year ahead\n"])
        #expect(harness.outboxFiles().isEmpty)
    }

    @Test(
        "a ShareX uploader newer than 13.7.1 that uses the old $response$ or $prompt:...$ is refused with 78, naming it",
        arguments: [
            (#""Arguments":{"text":"{input}"},"URL":"$response$""#, "URL", "$response$"),
            (
                #""Arguments":{"text":"{input}","title":"$prompt:Title$"},"URL":"{response}""#, "Arguments.title",
                "$prompt:Title$"
            ),
        ])
    func oldShareXSyntax(_ keys: String, _ key: String, _ construct: String) throws {
        let file = try home.write(
            #"{"Version":"16.1.0","Name":"old","DestinationType":"TextUploader","RequestMethod":"POST","#
                + #""RequestURL":"https://sx.test/text","Body":"MultipartFormData",\#(keys)}"#,
            to: "old.sxcu")
        let run = try harness.run(["-S", file, "--no-copy"], stdin: .text("text\n"))
        let inside = construct.dropFirst().dropLast()
        #expect(run.status == 78)
        #expect(run.out == "")
        #expect(
            run.err
                == "paste: '\(file)': \(key): '\(construct)' is the syntax of ShareX up to 13.7.1, but the file's "
                + "Version is newer; write it in braces ('{\(inside)}'), or give Version 13.7.1\n")
        #expect(run.requests.isEmpty)
    }

    @Test(
        "a ShareX RequestURL with another scheme is refused with 78: no scheme invented, nothing kept, nothing sent",
        arguments: ["javascript:alert(1)", "data:text/plain,x", "file:///etc/passwd"])
    func shareXOtherScheme(_ url: String) throws {
        let file = try home.write(
            #"{"Version":"16.1.0","Name":"s","DestinationType":"TextUploader","RequestMethod":"POST","#
                + #""RequestURL":"\#(url)","Body":"MultipartFormData","FileFormName":"file","URL":"{response}"}"#,
            to: "scheme.sxcu")
        let run = try harness.run(["-S", file, "--no-copy"], stdin: .text("text\n"))
        let scheme = url.prefix { $0 != ":" }
        #expect(run.status == 78)
        #expect(run.out == "")
        #expect(run.err == "paste: '\(file)': bad RequestURL '\(scheme):…': expected an http:// or https:// URL\n")
        #expect(run.requests.isEmpty)
        #expect(harness.outboxFiles().isEmpty)
    }

    @Test("an outbox entry edited in place to the same length is held by --retry with a line saying it changed")
    func editedEntryContent() throws {
        try harness.writeConfig(harnessConfig())
        let failed = try harness.run(
            ["--no-copy"], stdin: .text("original text\n"), answers: [.http(503, body: "busy")])
        #expect(failed.status == 75)
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        let name = try #require(harness.outboxFiles().first { $0.hasSuffix(".content") })
        try Data("modified text\n".utf8).write(to: harness.outboxFolder.appendingPathComponent(name))
        let retry = try harness.run(["--retry", "--no-copy"])
        #expect(retry.out == "")
        #expect(
            retry.err
                == "paste: outbox entry \(id) is held: its text changed since it was kept (its SHA-256 is not the one "
                + "recorded); 'paste --outbox show \(id)' prints it, 'paste --outbox drop \(id)' drops it\n"
                + "paste: 1 outbox entry is held: 'paste --outbox' lists it; 'paste --outbox send ID' sends one\n")
        #expect(retry.status == 0)
        #expect(try harness.outboxStates() == ["held"])
        #expect(retry.requests.isEmpty)
        // Sent by hand, it is checked again: never the edited text as the original.
        let send = try harness.run(["--outbox", "send", id, "--no-copy"], answers: [.created("https://m.test/p/x")])
        #expect(send.status == 65)
        #expect(send.requests.isEmpty)
    }

    @Test("an answer's URL with an ideographic full stop in its host: exit 69, one line, nothing printed or recorded")
    func ideographicFullStop() throws {
        try harness.writeConfig(
            harnessConfig(sections: "[service \"raw\"]\nurl = https://raw.test/\nformat = raw\nresult = body\n"))
        let run = try harness.run(
            ["-S", "raw", "--no-copy"], stdin: .text("a dot that is not one\n"),
            answers: [.http(200, body: "http://127.0.0.1\u{3002}evil.example/1\n")])
        #expect(run.status == 69)
        #expect(run.out == "")
        let id = try #require(try harness.outboxEntries().first?["id"] as? String)
        #expect(
            run.err
                == "paste: raw gave an unusable URL: its host holds the full stop U+3002, which browsers read as a dot\n"
                + whereLine(id: id, isHeld: true) + "\n")
        #expect(try harness.history().isEmpty)
    }

    @Test("grep --color escapes inside a token do not hide it from the guard: 77, one line, nothing sent")
    func colouredToken() throws {
        try harness.writeConfig(harnessConfig())
        let text = "match: ghp_R7b2K9xQ4m\u{1B}[01;31m\u{1B}[KN8vL3cT6yH1pZ5wJ0sD24BzMYC\u{1B}[m\u{1B}[K end\n"
        let run = try harness.run(["--no-copy"], stdin: .pipe(Array(text.utf8)))
        #expect(run.status == 77)
        #expect(run.out == "")
        #expect(
            run.err
                == "paste: refusing to upload: it looks like it holds a GitHub token (line 1, column 8); "
                + "use --force to upload anyway\n")
        #expect(run.requests.isEmpty)
        #expect(harness.outboxFiles().isEmpty)
    }
}
